package io.cohort.profile;

import io.cohort.Profile;
import jdk.jfr.Configuration;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The recording {@code cohort run --profile} starts in each peer: its file, its directory, its settings. */
@Isolated // records JFR events, which are process-wide: another class's peers would add theirs
@Timeout(30)
class ProfileRecordingTest {
    @Test
    void filesAreNamedAfterPsesProfiler() {
        assertEquals("Ring.prof.0.jfr", ProfileRecording.fileName("io.cohort.examples.Ring", 0));
        assertEquals("Solver.prof.12.jfr", ProfileRecording.fileName("Solver", 12));
        assertEquals("Outer$Main.prof.3.jfr", ProfileRecording.fileName("a.b.Outer$Main", 3));
    }

    @Test
    void directorySpecsNameTheJob() {
        assertEquals("cohort-prof-3fa2c1d9", ProfileRecording.directory(ProfileRecording.DEFAULT_DIRECTORY, "3fa2c1d9"));
        assertEquals("/tmp/p/3fa2c1d9/100%", ProfileRecording.directory("/tmp/p/%j/100%%", "3fa2c1d9"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProfileRecording.directory("p%x", "1"));
        assertTrue(e.getMessage().contains("%j"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ProfileRecording.directory("p%", "1"));
    }

    @Test
    void shippedSettingsSampleEveryTenMillisecondsAndRecordCohortsEvents() throws Exception {
        Map<String, String> s = ProfileRecording.settings().getSettings();
        assertEquals("10 ms", s.get("jdk.ExecutionSample#period"));
        assertEquals("true", s.get("jdk.GarbageCollection#enabled"));
        for (String name : EventCapture.COHORT_EVENTS) {
            assertEquals("true", s.get(name + "#enabled"), name);
        }
        assertEquals("true", s.get(SendEvent.NAME + "#stackTrace"));
        assertEquals("false", s.get(NackEvent.NAME + "#stackTrace"));
    }

    @Test
    void startCreatesTheDirectoryAndRecordsIntoTheRanksFile(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("a/b");
        Path file = ProfileRecording.start(dir, "com.example.Solver", 7);
        assertEquals(dir.resolve("Solver.prof.7.jfr"), file);
        assertTrue(Files.isDirectory(dir));
        Recording r = FlightRecorder.getFlightRecorder().getRecordings().stream()
                .filter(x -> x.getName().equals("cohort-profile-7")).findFirst().orElseThrow();
        try {
            assertEquals(file, r.getDestination());
            assertTrue(r.getDumpOnExit(), "written when the JVM exits");
            try (Profile.Region region = Profile.region("work")) {
                Thread.onSpinWait(); // the interval the file must show
            }
            r.stop(); // what the JVM's exit does: the file appears at its destination
        } finally {
            r.close();
            Profiling.application(null);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals(RegionEvent.NAME)
                && e.getString("name").equals("work")), "the region is in the file");
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("jdk.JVMInformation")));
    }

    @Test
    void theConfigurationIsAValidJfcFile() throws Exception {
        Configuration c = ProfileRecording.settings();
        assertEquals("Cohort profile", c.getLabel());
    }
}

package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What happens to the job when the launcher itself is signalled. */
class SignalSystemTest {
    private static final String SLEEPER = "io.cohort.systest.programs.Sleeper";

    /** Starts a 3-peer sleeping job whose command lines carry a unique marker, and waits until all are ready. */
    private static CohortProcess sleepingJob(String marker) throws Exception {
        CohortProcess p = CohortProcess.start("run", "-n", "3", "--verbose", "--grace-period", "1000",
                "-cp", CohortProcess.TEST_CLASSES, SLEEPER, "init", marker);
        assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 3), p.toString());
        return p;
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void sigkillToTheLauncherTakesTheWholeJobDown() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        try (CohortProcess p = sleepingJob(marker)) {
            assertEquals(3, CohortProcess.processesWith(marker).stream().filter(h -> h.info().commandLine().orElse("").contains("PeerMain")).count(), "three peers running");
            List<ProcessHandle> ioManagers = CohortProcess.ioManagersOf(marker);
            assertEquals(1, ioManagers.size(), "one io-manager running");
            p.process().destroyForcibly();
            p.waitFor();
            assertTrue(CohortProcess.awaitNoProcessWith(marker, Duration.ofSeconds(10)), "peers left: "
                    + CohortProcess.processesWith(marker));
            assertTrue(CohortProcess.awaitGone(ioManagers, Duration.ofSeconds(10)), "io-manager left: " + ioManagers);
        }
    }

    @Test
    @Timeout(60)
    void sigtermToTheLauncherStopsTheJobAndExits143() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        try (CohortProcess p = sleepingJob(marker)) {
            // SIGTERM through the handle: Process.destroy() would also close our ends of its pipes and lose its last line.
            p.process().toHandle().destroy();
            assertEquals(143, p.waitFor(), p.toString());
            assertTrue(p.err().stream().anyMatch(l -> l.matches("cohort: job [0-9a-f]{8} was interrupted.*")), p.toString());
            assertTrue(CohortProcess.awaitNoProcessWith(marker, Duration.ofSeconds(10)), "peers left");
        }
    }

    @Test
    @Timeout(60)
    void sigintToTheLauncherStopsTheJobAndExits130() throws Exception {
        Assumptions.assumeFalse(sigintIgnored(), "SIGINT is ignored in this process tree (started in the background), "
                + "so the JVM cannot receive it; skipping the SIGINT test");
        String marker = "marker-" + UUID.randomUUID();
        try (CohortProcess p = sleepingJob(marker)) {
            new ProcessBuilder("kill", "-INT", Long.toString(p.process().pid())).start().waitFor();
            assertEquals(130, p.waitFor(), p.toString());
            assertTrue(p.err().stream().anyMatch(l -> l.matches("cohort: job [0-9a-f]{8} was interrupted.*")), p.toString());
            assertTrue(CohortProcess.awaitNoProcessWith(marker, Duration.ofSeconds(10)), "peers left");
        }
    }

    /** A JVM started with SIGINT ignored keeps ignoring it; children inherit that. */
    static boolean sigintIgnored() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 1)) != 0;
            }
        }
        return false;
    }
}

package io.cohort.systest;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cohort run --profile} alone: one summary file per peer (the default) or one readable Flight
 * Recorder file per peer ({@code --profile-mode=full}), with the job's messages in it, also when the
 * job fails.
 */
class ProfileCaptureSystemTest {
    private static List<RecordedEvent> events(Path file, String name) throws IOException {
        return RecordingFile.readAllEvents(file).stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }

    @Test
    @Timeout(90)
    void ringLeavesOneSummaryPerPeerWhoseSendsGoToItsSuccessor(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("prof");
        CohortProcess p = CohortProcess.run("run", "-n", "3", "--profile=" + dir, "--example", "ring");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of("cohort: profile of 3 peers in " + dir + "; read it with: cohort prof " + dir), p.err());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(Set.of("Ring.prof.0.tsv", "Ring.prof.1.tsv", "Ring.prof.2.tsv"),
                    files.map(f -> f.getFileName().toString()).collect(Collectors.toSet()));
        }
        for (int rank = 0; rank < 3; rank++) {
            List<String[]> lines = summary(dir.resolve("Ring.prof." + rank + ".tsv"));
            String[] peer = record(lines, "peer").get(0);
            assertEquals(List.of(Integer.toString(rank), "3"), List.of(peer[1], peer[2]));
            assertEquals("io.cohort.examples.Ring", peer[5]);
            assertEquals("1", record(lines, "job").get(0)[3], "the world was closed");
            // comm kind operation algorithm communicator peer sizeClass count bytes ...
            List<String[]> sends = record(lines, "comm").stream().filter(f -> f[1].equals("send")).toList();
            assertEquals(Set.of(Integer.toString((rank + 1) % 3)), sends.stream().map(f -> f[5]).collect(Collectors.toSet()),
                    "a peer of the ring sends to its successor only");
            assertEquals(10, sends.stream().mapToLong(f -> Long.parseLong(f[7])).sum(), "one send per lap");
            List<String[]> receives = record(lines, "comm").stream().filter(f -> f[1].equals("receive")).toList();
            assertEquals(Set.of(Integer.toString((rank + 2) % 3)), receives.stream().map(f -> f[5]).collect(Collectors.toSet()));
            assertEquals(10, receives.stream().mapToLong(f -> Long.parseLong(f[7])).sum());
            assertTrue(record(lines, "site").stream().anyMatch(f -> f[3].equals("io.cohort.examples.Ring") && f[4].equals("main")),
                    "call sites are in the example's own code");
            assertEquals(1, record(lines, "sampler").size(), "the method sampler ran");
        }
    }

    private static List<String[]> summary(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        assertEquals("format\tcohort-profile-summary\t1", lines.get(1), file.toString());
        return lines.stream().filter(l -> !l.startsWith("#")).map(l -> l.split("\t", -1)).toList();
    }

    private static List<String[]> record(List<String[]> lines, String type) {
        return lines.stream().filter(f -> f[0].equals(type)).toList();
    }

    @Tag("long")
    @Test
    @Timeout(90)
    void fullModeLeavesOneRecordingPerPeerWithEveryMessage(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("prof");
        CohortProcess p = CohortProcess.run("run", "-n", "3", "--profile=" + dir, "--profile-mode=full", "--example", "ring");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of("cohort: profile of 3 peers in " + dir + "; read it with: cohort prof " + dir), p.err());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(Set.of("Ring.prof.0.jfr", "Ring.prof.1.jfr", "Ring.prof.2.jfr"),
                    files.map(f -> f.getFileName().toString()).collect(Collectors.toSet()));
        }
        for (int rank = 0; rank < 3; rank++) {
            Path file = dir.resolve("Ring.prof." + rank + ".jfr");
            List<RecordedEvent> sends = events(file, "io.cohort.Send");
            assertEquals(10, sends.size(), "one send per lap: " + file);
            assertEquals(Set.of((rank + 1) % 3), sends.stream().map(e -> e.getInt("peer")).collect(Collectors.toSet()),
                    "a peer of the ring sends to its successor only");
            List<RecordedEvent> receives = events(file, "io.cohort.Receive");
            assertEquals(Set.of((rank + 2) % 3), receives.stream().map(e -> e.getInt("peer")).collect(Collectors.toSet()));
            assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L),
                    receives.stream().map(e -> e.getLong("sequence")).sorted().toList());
            RecordedEvent info = events(file, "io.cohort.PeerInfo").get(0);
            assertEquals(rank, info.getInt("rank"));
            assertEquals(3, info.getInt("size"));
            assertEquals("io.cohort.examples.Ring", info.getString("application"));
            assertEquals(1, events(file, "io.cohort.Job").size());
            assertTrue(!events(file, "jdk.ExecutionSample").isEmpty() || !events(file, "jdk.JVMInformation").isEmpty(),
                    "the JDK's events are there too");
        }
    }

    @Test
    @Timeout(60)
    void aDirectoryNoPeerCanWriteInIsNotAnnouncedAsAProfile() throws Exception {
        String dir = "/proc/cohort-cannot-be-made"; // not even root can make a directory in /proc
        CohortProcess p = CohortProcess.run("run", "-n", "2", "--profile=" + dir, "--example", "hello");
        assertEquals(0, p.exitCode(), "the program ran: " + p);
        assertEquals(2, p.err().stream().filter(l -> l.matches("cohort: rank [01] cannot record a profile in " + dir
                + ": .*; it runs without one")).count(), p.toString());
        assertEquals("cohort: no profile was written to " + dir + " (a peer that cannot write there says why when it starts;"
                        + " one killed outright writes none)",
                p.err().get(p.err().size() - 1), p.toString());
    }

    /**
     * Rank 1 calls System.exit(3); rank 0 then fails with an uncaught PeerFailedException (or is
     * stopped by the launcher): both still write their summaries, into the default cohort-prof-JOBID.
     */
    @Tag("long")
    @Test
    @Timeout(90)
    void aFailingJobStillLeavesEveryFileInTheDefaultDirectory() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "--profile", "-cp", CohortProcess.TEST_CLASSES,
                "io.cohort.systest.programs.FailingPeer", "1", "exit", "3");
        assertEquals(3, p.exitCode(), p.toString());
        List<String> last = p.err().stream().filter(l -> l.startsWith("cohort: profile of 2 peers in ")).toList();
        assertEquals(1, last.size(), p.toString());
        String name = last.get(0).substring("cohort: profile of 2 peers in ".length(), last.get(0).indexOf(';'));
        assertTrue(name.matches("cohort-prof-[0-9a-f]{8}"), name);
        Path dir = CohortProcess.MODULE.resolve(name);
        try {
            for (int rank = 0; rank < 2; rank++) {
                Path file = dir.resolve("FailingPeer.prof." + rank + ".tsv");
                assertTrue(Files.isRegularFile(file), file + " " + p);
                assertEquals(Integer.toString(rank), record(summary(file), "peer").get(0)[1]);
            }
        } finally {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path f : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }
}

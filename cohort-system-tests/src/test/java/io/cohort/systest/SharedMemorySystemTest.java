package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The shared-memory transport through real jobs: failures in the middle of a transfer, the segment
 * files left behind (none may be), which transport {@code --verbose} reports, and data integrity
 * of large random-sized messages over shm and, for comparison, tcp.
 */
class SharedMemorySystemTest {
    private static final String PROGRAMS = "io.cohort.systest.programs.";
    private static final Pattern JOB_LINE = Pattern.compile("(?:\\[\\d+\\] )?job ([0-9a-zA-Z]+)$");
    /** A row of the --verbose transport matrix: "  R   cell cell ...   host", possibly rank-prefixed. */
    private static final Pattern MATRIX_ROW = Pattern.compile("^(?:\\[\\d+\\] )?\\s*(\\d+)((?:\\s+(?:-|shm|tcp))+)\\s+\\S+\\s*$");

    /** Where the peers put segments: the same rule as ShmSegmentFile.defaultDirectory, for this environment. */
    private static Path shmDir() {
        String configured = System.getenv("COHORT_SHM_DIR");
        return configured != null && !configured.isBlank() ? Path.of(configured) : Path.of("/dev/shm");
    }

    private static List<Path> segmentFiles(String jobId) throws IOException {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(shmDir(), "cohort-" + jobId + "-*")) {
            files.forEach(found::add);
        }
        return found;
    }

    /**
     * The job's private directory of segments, as rank 0 printed it ("shm-dir DIR"), with what is
     * in it; empty once the directory is gone.
     */
    private static List<Path> jobDirectory(CohortProcess p) throws IOException {
        Path dir = p.out().stream().filter(l -> l.startsWith("shm-dir ")).map(l -> Path.of(l.substring(8))).findFirst()
                .orElseThrow(() -> new AssertionError("rank 0 printed no shm-dir line: " + p));
        assertTrue(dir.getFileName().toString().matches("cohort-[0-9a-f]{32}"), "not a job's directory: " + dir);
        List<Path> found = new ArrayList<>();
        if (Files.exists(dir)) {
            found.add(dir);
            try (Stream<Path> files = Files.list(dir)) {
                files.forEach(found::add);
            }
        }
        return found;
    }

    /**
     * Polls (there is no event for "a file was removed") until neither the job's directory nor a
     * file under the names segments once had in the shared directory is left.
     */
    private static List<Path> awaitNoSegmentFiles(CohortProcess p, String jobId, Duration within)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        List<Path> left = leftovers(p, jobId);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
            left = leftovers(p, jobId);
        }
        return left;
    }

    private static List<Path> leftovers(CohortProcess p, String jobId) throws IOException {
        List<Path> left = new ArrayList<>(segmentFiles(jobId));
        left.addAll(jobDirectory(p));
        return left;
    }

    private static String jobIdFromPeer(CohortProcess p) {
        for (String l : p.out()) {
            Matcher m = JOB_LINE.matcher(l);
            if (m.find()) {
                return m.group(1);
            }
        }
        throw new AssertionError("no peer printed its COHORT_JOB_ID: " + p);
    }

    private static List<String> summaries(CohortProcess p) {
        return p.err().stream().filter(l -> l.matches("cohort: job [0-9a-f]{8} .*")).toList(); // not the --verbose "job ID: N peers" header
    }

    /** The transport matrix rank 0 prints with --verbose, as cells[from][to]. */
    private static String[][] matrix(CohortProcess p, int n) {
        String[][] cells = new String[n][];
        for (String l : p.err()) {
            Matcher m = MATRIX_ROW.matcher(l);
            if (m.matches()) {
                int from = Integer.parseInt(m.group(1));
                String[] row = m.group(2).trim().split("\\s+");
                if (from < n && row.length == n) {
                    cells[from] = row;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            assertNotNull(cells[i], "no matrix row for rank " + i + ": " + p);
        }
        return cells;
    }

    private static void assertMatrix(CohortProcess p, int n, String transport) {
        assertTrue(p.err().stream().anyMatch(l -> l.contains("cohort: transports (row = from, column = to)")), p.toString());
        String[][] cells = matrix(p, n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                assertEquals(i == j ? "-" : transport, cells[i][j], "from " + i + " to " + j + ": " + p);
            }
        }
    }

    @Tag("long")
    @Test
    @Timeout(180)
    void peerSigkilledWhileReceivingALargeStreamIsTheRootCauseAndTheSenderDoesNotHang() throws Exception {
        assumeTrue(Files.isDirectory(shmDir()), "no " + shmDir());
        long start = System.nanoTime();
        // Rank 0 streams 200 MiB in 2 MiB messages (each bigger than the default 1 MiB ring), rank 1 dies after 5.
        CohortProcess p = CohortProcess.run("run", "-n", "2", "--verbose", "-cp", CohortProcess.TEST_CLASSES,
                PROGRAMS + "ShmStreamVictim", "200", "2", "5");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertEquals(137, p.exitCode(), p.toString());
        assertTrue(seconds < 60, "the job took " + seconds + " s to end: the sender hung on the dead receiver? " + p);
        assertMatrix(p, 2, "shm"); // the transfer really went through shared memory
        assertTrue(p.out().stream().anyMatch(l -> l.contains("rank 1 received 5, killing itself")), p.toString());
        assertFalse(p.out().stream().anyMatch(l -> l.contains("unexpectedly finished")), p.toString());
        List<String> s = summaries(p);
        assertEquals(1, s.size(), p.toString());
        assertTrue(s.get(0).contains("rank 1 on ") && s.get(0).contains("was killed by signal 9 (SIGKILL) or exited with status 137 (root cause)"),
                s.get(0));
        String jobId = jobIdFromPeer(p);
        assertEquals(List.of(), leftovers(p, jobId), "segment files left after the job ended");
    }

    @Tag("long")
    @Test
    @Timeout(90)
    void sigkillToTheLauncherOfAStreamingShmJobLeavesNoProcessNorSegment() throws Exception {
        assumeTrue(Files.isDirectory(shmDir()), "no " + shmDir());
        String marker = "marker-" + UUID.randomUUID();
        try (CohortProcess p = CohortProcess.start("run", "-n", "4", "--transport", "shm", "--grace-period", "1000",
                "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "ShmRingStreamer", marker)) {
            assertTrue(p.awaitOut(l -> l.endsWith(" streaming"), 4), p.toString());
            String jobId = jobIdFromPeer(p);
            assertEquals(4, CohortProcess.processesWith(marker).stream()
                    .filter(h -> h.info().commandLine().orElse("").contains("PeerMain")).count(), "four peers running");
            List<ProcessHandle> ioManagers = CohortProcess.ioManagersOf(marker);
            assertEquals(1, ioManagers.size(), "one io-manager running");
            p.process().destroyForcibly();
            p.waitFor();
            assertTrue(CohortProcess.awaitNoProcessWith(marker, Duration.ofSeconds(10)),
                    "peers left: " + CohortProcess.processesWith(marker));
            assertTrue(CohortProcess.awaitGone(ioManagers, Duration.ofSeconds(10)), "io-manager left: " + ioManagers);
            assertEquals(List.of(), awaitNoSegmentFiles(p, jobId, Duration.ofSeconds(5)), "segment files left");
        }
    }

    @Test
    @Timeout(60)
    void verboseShowsShmBetweenLocalPeersByDefault() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "3", "--verbose", "-cp", CohortProcess.TEST_CLASSES,
                PROGRAMS + "ChecksumAllToAll", "1", "1");
        assertEquals(0, p.exitCode(), p.toString());
        assertMatrix(p, 3, "shm");
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void peersConfinedToOneProcessorReportThatTheyOutnumberIt() throws Exception {
        // taskset's affinity is inherited by the launcher, its io-manager and every peer.
        CohortProcess p = CohortProcess.startUnder(List.of("taskset", "-c", "0"), java.util.Map.of(), "run", "-n", "3",
                "--verbose", "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "ChecksumAllToAll", "1", "1");
        p.closeStdin();
        p.waitFor();
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.err().contains(
                "cohort: 3 peers on 1 machine (cores: 1); more peers than cores, so collectives send fewer messages"),
                p.toString());
        if (Runtime.getRuntime().availableProcessors() >= 3) {
            CohortProcess free = CohortProcess.run("run", "-n", "3", "--verbose", "-cp", CohortProcess.TEST_CLASSES,
                    PROGRAMS + "ChecksumAllToAll", "1", "1");
            assertTrue(free.err().stream().anyMatch(l -> l.matches("cohort: 3 peers on 1 machine \\(cores: \\d+\\)(; bound: .*)?")),
                    free.toString());
        }
    }

    @Test
    @Timeout(60)
    void aBadDoorbellSettingIsOneLinePerPeerNotAStackTrace() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "--transport", "shm", "--jvm-opt", "-Dcohort.shm.doorbell=yes",
                "--example", "hello");
        assertEquals(1, p.exitCode(), p.toString());
        assertTrue(p.err().stream().anyMatch(l -> l.matches(
                "cohort: rank [01] could not join job \\S+: cohort\\.shm\\.doorbell=yes must be true or false")), p.toString());
        assertFalse(p.err().stream().anyMatch(l -> l.contains("Exception") || l.startsWith("\tat ")), p.toString());
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void badCollectiveSettingsAreOneLinePerPeerNotAStackTrace() throws Exception {
        for (String setting : new String[] {"-Dcohort.collectives=wrong", "-Dcohort.collectives.check=maybe"}) {
            CohortProcess p = CohortProcess.run("run", "-n", "2", "--jvm-opt", setting, "--example", "hello");
            assertEquals(1, p.exitCode(), p.toString());
            String value = setting.substring(2).replace(".", "\\.");
            assertTrue(p.err().stream().anyMatch(l -> l.matches("cohort: rank [01] could not join job \\S+: setting " + value + " .*")),
                    p.toString());
            assertFalse(p.err().stream().anyMatch(l -> l.contains("Exception") || l.startsWith("\tat ")
                    || l.contains("progress agent")), p.toString());
        }
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void verboseShowsTcpWhenTcpIsForced() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "3", "--transport", "tcp", "--verbose",
                "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "ChecksumAllToAll", "1", "1");
        assertEquals(0, p.exitCode(), p.toString());
        assertMatrix(p, 3, "tcp");
        assertFalse(p.err().stream().anyMatch(l -> MATRIX_ROW.matcher(l).matches() && l.contains("shm")), p.toString());
    }

    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"shm", "tcp"})
    @Timeout(180)
    void randomSizedChecksummedMessagesAllToAllArriveIntact(String transport) throws Exception {
        long seed = System.nanoTime();
        CohortProcess p = CohortProcess.run("run", "-n", "4", "--transport", transport, "--verbose",
                "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "ChecksumAllToAll", "8", Long.toString(seed));
        assertEquals(0, p.exitCode(), "seed " + seed + ": " + p);
        assertMatrix(p, 4, transport);
        assertEquals(4, p.out().stream().filter(l -> l.matches("(\\[\\d+\\] )?rank \\d ok \\d+ bytes")).count(),
                "seed " + seed + ": " + p);
        assertFalse(Stream.of(p.out(), p.err()).flatMap(List::stream).anyMatch(l -> l.contains("MISMATCH")), p.toString());
    }
}

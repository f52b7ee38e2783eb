package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cohort run --core-dir DIR}: each peer's crash files land in its own directory, the summary
 * line names the root cause's, and the directories of peers that left nothing are gone.
 */
class CrashFilesSystemTest {
    private static final String CRASHING = "io.cohort.systest.programs.CrashingPeer";

    private static String summary(CohortProcess p) {
        List<String> s = p.err().stream().filter(l -> l.startsWith("cohort: job ")).toList();
        assertEquals(1, s.size(), p.toString());
        return s.get(0);
    }

    /** The one job directory under the root, CrashingPeer.JOBID, and the rank directories left in it. */
    private static Path jobDirectory(Path root, CohortProcess p) throws IOException {
        try (Stream<Path> jobs = Files.list(root)) {
            List<Path> l = jobs.toList();
            assertEquals(1, l.size(), "one job directory expected: " + l + "\n" + p);
            assertTrue(l.get(0).getFileName().toString().matches("CrashingPeer\\.[0-9a-f]{8}"), l.toString());
            return l.get(0);
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    @Timeout(60)
    void uncaughtExceptionIsRecordedAndNamedAndOtherRanksLeaveNothing(@TempDir Path root) throws Exception {
        uncaughtExceptionIsRecordedAndNamedAndOtherRanksLeaveNothing(root, "throw");
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void peersThatFindTheFailedRankClosedLeaveNothingEither(@TempDir Path root) throws Exception {
        uncaughtExceptionIsRecordedAndNamedAndOtherRanksLeaveNothing(root, "throw-closing");
    }

    private static void uncaughtExceptionIsRecordedAndNamedAndOtherRanksLeaveNothing(Path root, String mode) throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "3", "--core-dir", root.toString(),
                "-cp", CohortProcess.TEST_CLASSES, CRASHING, "1", mode);
        assertEquals(1, p.exitCode(), p.toString());
        Path job = jobDirectory(root, p);
        assertEquals(List.of("rank-1"), names(job), "only the root cause's directory remains");
        Path trace = job.resolve("rank-1/uncaught-exception.txt");
        String text = Files.readString(trace);
        assertTrue(text.startsWith("Exception in thread \"main\" java.lang.IllegalStateException: rank 1 fails on purpose"), text);
        assertTrue(text.contains("\tat io.cohort.systest.programs.CrashingPeer.main("), text);
        String s = summary(p);
        assertTrue(s.contains("rank 1 on ") && s.contains("exited with status 1 (root cause; crash files: " + trace + ")"), s);
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void outOfMemoryLeavesAHeapDumpInTheRanksDirectory(@TempDir Path root) throws Exception {
        // The root from the environment instead of --core-dir; a small heap keeps the dump small.
        CohortProcess p = CohortProcess.start(Map.of("COHORT_CORE_DIR", root.toString()), "run", "-n", "2",
                "--jvm-opt", "-Xmx16m", "-cp", CohortProcess.TEST_CLASSES, CRASHING, "1", "oom");
        p.closeStdin();
        p.waitFor();
        assertEquals(1, p.exitCode(), p.toString());
        Path job = jobDirectory(root, p);
        assertEquals(List.of("rank-1"), names(job), p.toString());
        List<String> files = names(job.resolve("rank-1"));
        String dump = files.stream().filter(f -> f.matches("java_pid\\d+\\.hprof")).findFirst().orElseThrow(
                () -> new AssertionError("no heap dump in " + files + "\n" + p));
        assertTrue(files.contains("uncaught-exception.txt"), files.toString());
        assertTrue(Files.readString(job.resolve("rank-1/uncaught-exception.txt")).contains("java.lang.OutOfMemoryError"));
        assertTrue(summary(p).contains(job.resolve("rank-1").resolve(dump).toString()), summary(p));
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void aJvmCrashWritesItsErrorLogInTheRanksDirectory(@TempDir Path root) throws Exception {
        // CrashOnOutOfMemoryError turns the OOM into a fatal error (hs_err); no native core file, and the
        // user's -XX:-HeapDumpOnOutOfMemoryError wins over the launcher's flag, so no dump either.
        CohortProcess p = CohortProcess.run("run", "-n", "2", "--core-dir", root.toString(), "--jvm-opt", "-Xmx16m",
                "--jvm-opt", "-XX:+CrashOnOutOfMemoryError", "--jvm-opt", "-XX:-CreateCoredumpOnCrash",
                "--jvm-opt", "-XX:-HeapDumpOnOutOfMemoryError", "-cp", CohortProcess.TEST_CLASSES, CRASHING, "1", "oom");
        assertNotEquals(0, p.exitCode(), p.toString());
        Path job = jobDirectory(root, p);
        assertEquals(List.of("rank-1"), names(job), p.toString());
        List<String> files = names(job.resolve("rank-1"));
        assertEquals(1, files.size(), files.toString());
        assertTrue(files.get(0).matches("hs_err_pid\\d+\\.log"), files.toString());
        assertTrue(Files.readString(job.resolve("rank-1").resolve(files.get(0))).contains("OutOfMemory"), "not the crash's log");
        assertTrue(summary(p).contains("(root cause; crash files: " + job.resolve("rank-1").resolve(files.get(0)) + ")"),
                summary(p));
    }
}

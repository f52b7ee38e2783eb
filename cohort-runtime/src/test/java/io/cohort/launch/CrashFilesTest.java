package io.cohort.launch;

import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlMessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Crash-file directories, the EXITED frame that reports them, and the summary that names them. */
@Timeout(5)
class CrashFilesTest {
    @Test
    void exitReportRoundTripsWithAndWithoutFiles() throws IOException {
        ExitReport plain = new ExitReport(3, 1, false, List.of());
        assertEquals(plain, ExitReport.parse(plain.frame()));
        assertEquals(9, plain.frame().body().length, "no files: the original three fields only");
        ExitReport withFiles = new ExitReport(2, 134, true, List.of("/c/App.1/rank-2/hs_err_pid7.log", "/c/x"));
        assertEquals(withFiles, ExitReport.parse(withFiles.frame()));
    }

    @Test
    void exitedFrameOfTheOriginalLayoutReadsAsNoFiles() throws IOException {
        // rank int, status int, stoppedByManager bool: what an io-manager before --core-dir sent.
        ControlFrame old = ControlFrame.build(ControlMessageType.EXITED).putInt(1).putInt(143).putBoolean(true).frame();
        assertEquals(new ExitReport(1, 143, true, List.of()), ExitReport.parse(old));
        ControlFrame bad = ControlFrame.build(ControlMessageType.EXITED).putInt(1).putInt(0).putBoolean(false).putInt(-1).frame();
        assertThrows(IOException.class, () -> ExitReport.parse(bad));
    }

    @Test
    void layoutIsAppDotJobThenRank() {
        Path job = CrashDirectories.jobDirectory(Path.of("/c"), "com.example.Solver$Inner", "1a2b3c4d");
        assertEquals(Path.of("/c/Solver_Inner.1a2b3c4d"), job);
        assertEquals(Path.of("/c/Solver_Inner.1a2b3c4d/rank-3"), CrashDirectories.rankDirectory(job, 3));
        assertEquals(List.of("-XX:ErrorFile=/c/d/hs_err_pid%p.log", "-XX:+HeapDumpOnOutOfMemoryError",
                "-XX:HeapDumpPath=/c/d/"), CrashDirectories.jvmFlags(Path.of("/c/d")));
    }

    @Test
    void aDirectoryWithManyFilesIsReportedWithinTheFramesLimit(@TempDir Path root) throws IOException {
        Path rank = Files.createDirectories(root.resolve("App.00000001").resolve("rank-2"));
        for (int i = 0; i < 40; i++) {
            Files.writeString(rank.resolve(String.format("dump-%02d.txt", i)), "x");
        }
        List<String> files = CrashDirectories.collect(rank);
        assertEquals(CrashDirectories.REPORTED_FILES_MAX, files.size(), files.toString());
        assertTrue(files.get(0).endsWith("dump-00.txt"), files.toString());
        assertEquals(rank.toAbsolutePath() + " (9 more files)", files.get(files.size() - 1));
        ExitReport report = new ExitReport(2, 1, false, files);
        assertEquals(report, ExitReport.parse(report.frame()));
    }

    @Test
    void anEmptyDirectoryIsRemovedAndFilesAreListed(@TempDir Path root) throws IOException {
        Path job = root.resolve("App.00000001");
        Path empty = job.resolve("rank-0");
        Path full = job.resolve("rank-1");
        CrashDirectories.create(empty);
        CrashDirectories.create(full);
        Files.writeString(full.resolve("uncaught-exception.txt"), "trace");
        Files.writeString(full.resolve("hs_err_pid1.log"), "log");
        assertEquals(List.of(), CrashDirectories.collect(empty));
        assertFalse(Files.exists(empty));
        assertEquals(List.of(full.resolve("hs_err_pid1.log").toString(), full.resolve("uncaught-exception.txt").toString()),
                CrashDirectories.collect(full));
        assertFalse(CrashDirectories.removeIfEmpty(job), "rank-1 keeps its files, so the job's directory stays");
        assertTrue(Files.isDirectory(full));
    }

    private static ExitTracker tracker(int n) {
        String[] hosts = new String[n];
        Arrays.fill(hosts, "vm");
        return new ExitTracker("1a2b3c4d", hosts);
    }

    @Test
    void summaryNamesTheRootCausesFilesOnly() {
        ExitTracker t = tracker(3);
        t.crashFiles(1, List.of("/c/A.1a2b3c4d/rank-1/uncaught-exception.txt"));
        t.exited(1, 1, false);
        t.stopping();
        t.crashFiles(0, List.of("/c/A.1a2b3c4d/rank-0/java_pid9.hprof"));
        t.exited(0, 143, true);
        t.exited(2, 143, true);
        JobOutcome o = t.outcome();
        assertEquals("cohort: job 1a2b3c4d failed: rank 1 on vm exited with status 1 (root cause; crash files: "
                + "/c/A.1a2b3c4d/rank-1/uncaught-exception.txt); 2 other peers were stopped", o.summary());
        assertEquals(List.of("cohort: rank 0 on vm left crash files: /c/A.1a2b3c4d/rank-0/java_pid9.hprof"),
                t.otherCrashFiles(o.rootCauseRank()));
    }

    @Test
    void withoutFilesTheSummaryIsUnchanged() {
        ExitTracker t = tracker(2);
        t.exited(0, 3, false);
        t.stopping();
        t.exited(1, 143, true);
        assertEquals("cohort: job 1a2b3c4d failed: rank 0 on vm exited with status 3 (root cause); 1 other peer was stopped",
                t.outcome().summary());
        assertEquals(List.of(), t.otherCrashFiles(0));
    }
}

package io.cohort.systest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StdioSystemTest {
    private static final String ECHO = "io.cohort.systest.programs.StdinEcho";
    private static final String BOTH = "io.cohort.systest.programs.OutputBoth";

    @Test
    @Timeout(60)
    void tagOutputPrefixesEveryLine() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "3", "--tag-output", "-cp", CohortProcess.TEST_CLASSES, BOTH);
        assertEquals(0, p.exitCode(), p.toString());
        for (int r = 0; r < 3; r++) {
            assertTrue(p.out().contains("[" + r + "] out line from rank " + r), p.toString());
            assertTrue(p.out().contains("[" + r + "] tail of rank " + r), p.toString());
            assertTrue(p.err().contains("[" + r + "] err line from rank " + r), p.toString());
        }
        assertEquals(6, p.out().size(), p.toString());
    }

    @Test
    @Timeout(60)
    void untaggedOutputKeepsLinesWhole() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES, BOTH);
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.out().contains("out line from rank 0"), p.toString());
        assertTrue(p.out().contains("out line from rank 1"), p.toString());
        assertTrue(p.err().contains("err line from rank 1"), p.toString());
    }

    @Test
    @Timeout(60)
    void outputWritesOneFilePerPeer(@TempDir Path dir) throws Exception {
        String pattern = dir.resolve("job-%j/rank-%r.log").toString();
        CohortProcess p = CohortProcess.run("run", "-n", "3", "--output", pattern, "-cp", CohortProcess.TEST_CLASSES, BOTH);
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of(), p.out(), "nothing on the launcher's stdout");
        try (var jobs = Files.list(dir)) {
            Path jobDir = jobs.findFirst().orElseThrow();
            assertTrue(jobDir.getFileName().toString().matches("job-[0-9a-f]{8}"), jobDir.toString());
            for (int r = 0; r < 3; r++) {
                String content = Files.readString(jobDir.resolve("rank-" + r + ".log"), StandardCharsets.UTF_8);
                assertTrue(content.contains("out line from rank " + r + "\n"), content);
                assertTrue(content.contains("err line from rank " + r + "\n"), content);
                assertTrue(content.endsWith("tail of rank " + r) || content.contains("tail of rank " + r), content);
                assertTrue(!content.contains("rank " + ((r + 1) % 3)), "only its own lines: " + content);
            }
        }
    }

    private static CohortProcess echo(String stdinMode) throws Exception {
        CohortProcess p = stdinMode == null
                ? CohortProcess.start("run", "-n", "3", "-cp", CohortProcess.TEST_CLASSES, ECHO)
                : CohortProcess.start("run", "-n", "3", "--stdin", stdinMode, "-cp", CohortProcess.TEST_CLASSES, ECHO);
        p.stdin().write("alpha\nbeta\n".getBytes(StandardCharsets.UTF_8));
        p.closeStdin();
        p.waitFor();
        assertEquals(0, p.exitCode(), p.toString());
        return p;
    }

    @Test
    @Timeout(60)
    void stdinGoesToRankZeroByDefault() throws Exception {
        CohortProcess p = echo(null);
        assertTrue(p.out().contains("rank 0 stdin: alpha,beta"), p.toString());
        assertTrue(p.out().contains("rank 1 stdin: "), p.toString());
        assertTrue(p.out().contains("rank 2 stdin: "), p.toString());
    }

    @Test
    @Timeout(60)
    void stdinAllCopiesToEveryPeer() throws Exception {
        CohortProcess p = echo("all");
        for (int r = 0; r < 3; r++) {
            assertTrue(p.out().contains("rank " + r + " stdin: alpha,beta"), p.toString());
        }
    }

    @Test
    @Timeout(60)
    void stdinNoneGivesEveryPeerEof() throws Exception {
        CohortProcess p = echo("none");
        for (int r = 0; r < 3; r++) {
            assertTrue(p.out().contains("rank " + r + " stdin: "), p.toString());
        }
    }

    @Test
    @Timeout(60)
    void stdinToAnotherRank() throws Exception {
        CohortProcess p = echo("2");
        assertTrue(p.out().contains("rank 2 stdin: alpha,beta"), p.toString());
        assertTrue(p.out().contains("rank 0 stdin: "), p.toString());
    }
}

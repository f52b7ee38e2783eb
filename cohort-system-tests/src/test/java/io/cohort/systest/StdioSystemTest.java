package io.cohort.systest;

import org.junit.jupiter.api.Tag;
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

    /**
     * A peer's last stdout line without a newline, then the launcher's summary on stderr: where both
     * streams go to one place (2>&1, one terminal) the summary starts a line of its own; stdout alone
     * keeps the peer's bytes exactly.
     */
    @Tag("long")
    @Test
    @Timeout(60)
    void theSummaryNeverSharesALineWithAPeersUnfinishedStdoutLine() throws Exception {
        String program = "io.cohort.systest.programs.UnfinishedLine";
        Process both = CohortProcess.builder("run", "-n", "1", "-cp", CohortProcess.TEST_CLASSES, program, "3")
                .redirectErrorStream(true).start();
        both.getOutputStream().close();
        String together = new String(both.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(3, both.waitFor(), together);
        assertTrue(together.matches("unfinished line of rank 0\\ncohort: job [0-9a-f]{8} failed: rank 0 on \\S+ exited"
                + " with status 3 \\(root cause\\)\\n"), together);

        Process apart = CohortProcess.builder("run", "-n", "1", "-cp", CohortProcess.TEST_CLASSES, program, "3")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        apart.getOutputStream().close();
        String out = new String(apart.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(3, apart.waitFor(), out);
        assertEquals("unfinished line of rank 0", out, "stdout as the peer wrote it");
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

    @Tag("long")
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

    @Tag("long")
    @Test
    @Timeout(60)
    void stdinToAnotherRank() throws Exception {
        CohortProcess p = echo("2");
        assertTrue(p.out().contains("rank 2 stdin: alpha,beta"), p.toString());
        assertTrue(p.out().contains("rank 0 stdin: "), p.toString());
    }

    /**
     * Standard input a peer never reads waits in the launcher's stdin: the launcher stops taking it once
     * about a window per rank is on its way. Before, the io-manager queued all of it, growing to
     * gigabytes for {@code yes | cohort run ...} until it ran out of heap and the job could not be stopped.
     */
    @Tag("long")
    @Test
    @Timeout(90)
    void stdinThatNoPeerReadsIsHeldBackNotBuffered() throws Exception {
        CohortProcess p = CohortProcess.start("run", "-n", "2", "--stdin", "all", "-cp", CohortProcess.TEST_CLASSES,
                "io.cohort.systest.programs.Sleeper");
        java.util.concurrent.atomic.AtomicLong taken = new java.util.concurrent.atomic.AtomicLong();
        Thread writer = new Thread(() -> {
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, (byte) 'y');
            try {
                for (;;) {
                    p.stdin().write(chunk);
                    taken.addAndGet(chunk.length);
                }
            } catch (java.io.IOException e) {
                // The launcher ended.
            }
        }, "stdin-writer");
        writer.setDaemon(true);
        writer.start();
        try {
            assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 2), p.toString());
            // Watch the launcher take input until it stops: it must stop long before the 512 MiB that
            // an unbounded queue took in this time (pipe and socket buffers and 1 MiB per rank at most).
            long limit = 64L << 20;
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(40);
            long last = -1;
            while (taken.get() != last && taken.get() < limit && System.nanoTime() < deadline) {
                last = taken.get();
                writer.join(1000); // one second without progress counts as stopped
            }
            assertTrue(taken.get() < limit, "the launcher took " + (taken.get() >> 20) + " MiB of stdin that no peer reads");
        } finally {
            p.process().destroy();
        }
        assertEquals(143, p.waitFor(), p.toString());
    }

    /**
     * A job stopped by --timeout ends on time although nothing reads its stdout (a paused terminal,
     * a pipe into a command that does not read), and says how much output it gave up. Before, the
     * launcher waited as long as the reader did: its thread that reads an io-manager was stuck
     * writing a line, so the peers' exit reports behind that line went unread.
     */
    @Tag("long")
    @Test
    @Timeout(60)
    void aStoppedJobDoesNotWaitForAReaderThatTakesNothing(@TempDir Path dir) throws Exception {
        Path err = dir.resolve("stderr");
        Process p = CohortProcess.builder("run", "-n", "2", "--timeout", "3", "-cp", CohortProcess.TEST_CLASSES,
                "io.cohort.systest.programs.ManyLines", "1000000000")
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectError(err.toFile()).start(); // its stdout is a pipe this test never reads
        try {
            assertTrue(p.waitFor(40, java.util.concurrent.TimeUnit.SECONDS), "the launcher waited for its reader");
            String said = Files.readString(err);
            assertEquals(124, p.exitValue(), said);
            assertTrue(said.matches("(?s).*cohort: \\d+ bytes of the job's output were not written: its standard output"
                    + " took nothing while the job was being stopped\n.*"), said);
            assertTrue(said.contains("exceeded the time limit of 3 s (--timeout) and was stopped"), said);
        } finally {
            p.destroyForcibly();
            p.getInputStream().close();
        }
    }

    /**
     * A prompt that ends no line reaches the user while the peer waits for the answer. Output is
     * forwarded line by line, and an unfinished line used to be held until its newline came, which
     * here is never: the peer waits for input first.
     */
    @Tag("long")
    @Test
    @Timeout(60)
    void aPromptWithoutANewlineIsShownBeforeTheAnswerIsRead() throws Exception {
        Process p = CohortProcess.builder("run", "-n", "1", "-cp", CohortProcess.TEST_CLASSES,
                "io.cohort.systest.programs.Prompt").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            java.io.InputStream out = p.getInputStream();
            java.io.ByteArrayOutputStream seen = new java.io.ByteArrayOutputStream();
            String prompt = "Enter a number: ";
            while (!seen.toString(StandardCharsets.UTF_8).endsWith(prompt)) {
                int b = out.read();
                assertTrue(b >= 0, "the job ended before its prompt was shown: " + seen);
                seen.write(b);
            }
            p.getOutputStream().write("21\n".getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String rest = new String(out.readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor());
            assertEquals(prompt + "twice: 42\n", seen + rest);
        } finally {
            p.destroyForcibly();
        }
    }
}

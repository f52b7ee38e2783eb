package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(5)
class OutputRouterTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anOutputFileThatCannotBeCreatedIsOneSentenceNamingIt(@TempDir Path dir) throws IOException {
        Path file = Files.createFile(dir.resolve("file"));
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        IOException e = assertThrows(IOException.class,
                () -> new OutputRouter(2, false, file + "/%r.txt", "j", sink, sink));
        assertEquals("cannot create the output file " + file + "/0.txt (--output): " + file
                + " is in the way (not a directory)", e.getMessage());
        e = assertThrows(IOException.class,
                () -> new OutputRouter(2, false, "/proc/no-such-dir/%r.txt", "j", sink, sink));
        assertEquals("cannot create the output file /proc/no-such-dir/0.txt (--output): no such directory, and it cannot"
                + " be created", e.getMessage());
    }

    @Test
    void aFailedWriteIsRecordedOnceAndLaterLinesToThatStreamAreDropped() throws IOException {
        java.util.concurrent.atomic.AtomicInteger told = new java.util.concurrent.atomic.AtomicInteger();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        java.io.OutputStream broken = new java.io.OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        try (OutputRouter r = new OutputRouter(2, false, null, "j", broken, err)) {
            r.onFailure(told::incrementAndGet);
            r.write(0, 1, new byte[100 * 1024]); // past the buffer: the write itself fails
            r.write(1, 1, b("dropped\n"));
            r.write(1, 2, b("still here\n"));
            r.drain(Long.MAX_VALUE); // the writer thread found the failure
            assertEquals(new OutputRouter.WriteFailure("its standard output", "Broken pipe", true), r.failure());
        }
        assertEquals(1, told.get());
        assertEquals("still here\n", err.toString(StandardCharsets.UTF_8));
        assertTrue(OutputRouter.brokenPipe("Broken pipe"));
        assertFalse(OutputRouter.brokenPipe("No space left on device"));
    }

    @Test
    void tagsEveryLineAndEndsTaggedPartialLines() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (OutputRouter r = new OutputRouter(3, true, null, "j", out, err)) {
            r.write(2, 1, b("two\n"));
            r.write(0, 2, b("oops\n"));
            r.write(1, 1, b("partial"));
        }
        assertEquals("[2] two\n[1] partial\n", out.toString(StandardCharsets.UTF_8));
        assertEquals("[0] oops\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void untaggedBytesPassUnchanged() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputRouter r = new OutputRouter(1, false, null, "j", out, new ByteArrayOutputStream())) {
            r.write(0, 1, b("a\r\n"));
            r.write(0, 1, b("b"));
        }
        assertEquals("a\r\nb", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anotherPeersLineNeverJoinsAnUnfinishedLine() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputRouter r = new OutputRouter(2, false, null, "j", out, new ByteArrayOutputStream())) {
            r.write(0, 1, b("abc"));
            r.write(0, 1, b("def\n")); // the same peer continues its line: unchanged
            r.write(0, 1, b("tail0"));
            r.write(1, 1, b("line1\n"));
        }
        assertEquals("abcdef\ntail0\nline1\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theLaunchersSummaryNeverJoinsAPeersUnfinishedStderrLine() throws IOException {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OutputRouter r = new OutputRouter(1, false, null, "j", new ByteArrayOutputStream(), err);
        r.write(0, 2, b("Exception in thread \"main\" ")); // the peer was killed while printing
        r.launcherLine("cohort: job j failed");
        r.launcherLine("cohort: a second line"); // nothing unfinished any more: no extra newline
        r.close();
        assertEquals("Exception in thread \"main\" \ncohort: job j failed\ncohort: a second line\n",
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void whereStdoutAndStderrGoToOnePlaceTheSummaryEndsAnUnfinishedStdoutLineOnStderr() throws IOException {
        for (boolean onePlace : new boolean[] {true, false}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            OutputRouter r = new OutputRouter(1, false, null, "j", out, err, onePlace);
            r.write(0, 1, b("42"));
            r.launcherLine("cohort: during the job"); // stdout may still be on its way: left alone
            r.drain(Long.MAX_VALUE);
            r.launcherLine("cohort: job j failed");
            r.launcherLine("cohort: a second line");
            r.close(Long.MAX_VALUE);
            assertEquals("42", out.toString(StandardCharsets.UTF_8), "stdout as the peer wrote it");
            assertEquals("cohort: during the job\n" + (onePlace ? "\n" : "") + "cohort: job j failed\ncohort: a second line\n",
                    err.toString(StandardCharsets.UTF_8), "one place: " + onePlace);
        }
    }

    @Test
    void aStdoutGivenUpOnAStalledReaderIsNotEndedOnStderr() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.io.OutputStream stalled = new java.io.OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                try {
                    release.await(); // a reader that takes nothing
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OutputRouter r = new OutputRouter(1, false, null, "j", stalled, err, true);
        r.write(0, 1, b("42"));
        assertEquals(2, r.drain(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(50)).stdout());
        r.launcherLine("cohort: job j failed"); // "42" may still come after it: no newline for it here
        release.countDown();
        r.close(Long.MAX_VALUE);
        assertEquals("cohort: job j failed\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aTaggedPromptIsContinuedUntaggedByItsOwnPeer() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputRouter r = new OutputRouter(2, true, null, "j", out, new ByteArrayOutputStream())) {
            r.write(1, 1, b("Enter a number: "));
            r.write(1, 1, b("thanks\n")); // the same peer goes on: one line, one tag
            r.write(0, 1, b("abc"));
            r.write(1, 1, b("x\n")); // another peer: the unfinished line is ended first
            r.write(0, 1, b("def\n"));
        }
        assertEquals("[1] Enter a number: thanks\n[0] abc\n[1] x\n[0] def\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void oneFilePerPeerWithBothStreams(@TempDir Path dir) throws IOException {
        String pattern = dir.resolve("sub/%j-rank%r.txt").toString();
        try (OutputRouter r = new OutputRouter(2, false, pattern, "abc", new ByteArrayOutputStream(),
                new ByteArrayOutputStream())) {
            r.write(1, 1, b("out1\n"));
            r.write(1, 2, b("err1\n"));
        }
        assertEquals("", Files.readString(dir.resolve("sub/abc-rank0.txt")));
        assertEquals("out1\nerr1\n", Files.readString(dir.resolve("sub/abc-rank1.txt")));
    }

    @Test
    void patternEscapes() {
        assertEquals(Path.of("o-7-x%r"), OutputRouter.outputPath("o-%r-%j%%r", 7, "x"));
    }
}

package io.cohort.cli;

import io.cohort.launch.ExitCodes;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cohort prof}, run in-process on recordings of a 3-peer ring written here with stand-ins for
 * the capture side's events (same names and fields; the full set is exercised in cohort-tools' tests).
 */
@Timeout(120)
class ProfCommandTest {
    static final int SIZE = 3;
    static final int LAPS = 5;
    static final long BYTES = 256;

    @TempDir
    static Path recordings;

    record Run(int code, String out, String err) {
    }

    private static Run cohort(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    @Name("io.cohort.Send")
    static final class Send extends Event {
        int communicator;
        int peer;
        int tag;
        long bytes;
        long sequence;
        String operation;
    }

    @Name("io.cohort.Receive")
    static final class Receive extends Event {
        int communicator;
        int peer;
        int tag;
        long bytes;
        long sequence;
        String operation;
    }

    @Name("io.cohort.PeerInfo")
    static final class PeerInfo extends Event {
        int rank;
        int size;
        String jobId;
        String host;
        String application;
        long pid;
    }

    @Name("io.cohort.Job")
    static final class Job extends Event {
        int rank;
    }

    @BeforeAll
    static void recordRing() throws IOException {
        for (int rank = 0; rank < SIZE; rank++) {
            try (Recording r = new Recording()) {
                for (String e : List.of("io.cohort.Send", "io.cohort.Receive", "io.cohort.PeerInfo", "io.cohort.Job")) {
                    r.enable(e).withStackTrace().withThreshold(Duration.ZERO);
                }
                r.start();
                PeerInfo info = new PeerInfo();
                info.rank = rank;
                info.size = SIZE;
                info.jobId = "0badcafe";
                info.host = "localhost";
                info.application = "Ring";
                info.commit();
                Job job = new Job();
                job.begin();
                job.rank = rank;
                for (int lap = 0; lap < LAPS; lap++) {
                    Send s = new Send();
                    s.begin();
                    s.peer = (rank + 1) % SIZE;
                    s.tag = lap;
                    s.bytes = BYTES;
                    s.sequence = lap;
                    s.operation = "send";
                    s.commit();
                    Receive v = new Receive();
                    v.begin();
                    v.peer = (rank + SIZE - 1) % SIZE;
                    v.tag = lap;
                    v.bytes = BYTES;
                    v.sequence = lap;
                    v.operation = "recv";
                    v.commit();
                }
                job.commit();
                r.stop();
                r.dump(recordings.resolve("Ring.prof." + rank + ".jfr"));
            }
        }
    }

    @Test
    void printsTheTextReportOnStdout() {
        Run r = cohort("prof", recordings.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().startsWith("@ cohort prof: the communication profile of Ring\n"), r.out());
        assertTrue(r.out().contains("@ Peers       : 3 recorded of 3 (ranks 0-2)"), r.out());
        assertTrue(r.out().contains("\n   0     0  1280     0\n"), "rank 0 sent 5 x 256 bytes to rank 1:\n" + r.out());
        assertTrue(r.out().endsWith("@--- End of report\n"));
    }

    @Test
    void rankTopAndShareScopeTheReport() {
        Run r = cohort("prof", recordings.toString(), "--rank", "2", "--top", "1", "--share", "50");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("@ Scope       : rank 2\n"), r.out());
        assertTrue(r.out().contains("@--- Communication of rank 2 with each peer"), r.out());
        assertTrue(r.out().contains("@--- Top call sites by communication time (1 of 2)"), r.out());
    }

    @Test
    void writesHtmlAndTraceIntoTheDirectoryByDefault(@TempDir Path dir) throws IOException {
        for (int rank = 0; rank < SIZE; rank++) {
            Files.copy(recordings.resolve("Ring.prof." + rank + ".jfr"), dir.resolve("Ring.prof." + rank + ".jfr"));
        }
        Run r = cohort("prof", dir.toString(), "--html", "--trace");
        assertEquals(0, r.code(), r.err());
        assertEquals("wrote " + dir.resolve("report.html") + " (HTML report)\nwrote " + dir.resolve("trace.json")
                + " (Chrome trace: open it at ui.perfetto.dev or chrome://tracing)\n", r.out(), "no text report unless asked");
        assertTrue(Files.readString(dir.resolve("report.html")).contains("<svg"));
        String trace = Files.readString(dir.resolve("trace.json"));
        assertTrue(trace.startsWith("{\"displayTimeUnit\":\"ms\"") && trace.contains("\"ph\":\"f\",\"bp\":\"e\""), trace);
    }

    @Test
    void textWithFilesNamesTheFilesOnStderr(@TempDir Path out) {
        Path html = out.resolve("sub/dir/ring.html");
        Run r = cohort("prof", recordings.toString(), "--text", "--html=" + html);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("@ cohort prof"), r.out());
        assertEquals("wrote " + html + " (HTML report)\n", r.err());
        assertTrue(Files.isRegularFile(html), "parent directories are made");
    }

    @Test
    void anEmptyDirectoryIsExit66WithOneLine(@TempDir Path empty) {
        Run r = cohort("prof", empty.toString());
        assertEquals(ExitCodes.NO_INPUT, r.code());
        assertEquals("cohort: " + empty + " holds no profiles (*.prof.<rank>.tsv or *.jfr); run the job with 'cohort run --profile=" + empty + " ...' first\n",
                r.err());
        assertEquals("", r.out());
        Run missing = cohort("prof", empty.resolve("gone").toString());
        assertEquals(ExitCodes.NO_INPUT, missing.code());
        assertEquals(1, missing.err().lines().count(), missing.err());
        Run verbose = cohort("prof", empty.toString(), "--verbose");
        assertTrue(verbose.err().contains("at io.cohort.tools.prof.ProfileSet.load"), "--verbose shows the stack trace");
    }

    @Test
    void unreadableRecordingsAreWarnedAboutAndSkipped(@TempDir Path dir) throws IOException {
        Files.copy(recordings.resolve("Ring.prof.0.jfr"), dir.resolve("Ring.prof.0.jfr"));
        Files.writeString(dir.resolve("Ring.prof.1.jfr"), "not a recording");
        Run r = cohort("prof", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().startsWith("cohort: warning: Ring.prof.1.jfr: not a readable Flight Recorder file ("), r.err());
        assertTrue(r.err().endsWith("; skipped\n"), r.err());
        assertTrue(r.out().contains("@ Missing     : ranks 1-2 (no readable recording)"), r.out());
    }

    @Test
    void badOptionsAreUsageErrors() {
        Run rank = cohort("prof", recordings.toString(), "--rank", "7");
        assertEquals(ExitCodes.USAGE, rank.code());
        assertEquals("cohort: " + recordings + " holds no readable recording of rank 7; its ranks are 0, 1, 2\n", rank.err());
        assertEquals(ExitCodes.USAGE, cohort("prof", recordings.toString(), "--top", "0").code());
        assertEquals(ExitCodes.USAGE, cohort("prof", recordings.toString(), "--share", "0").code());
        assertEquals(ExitCodes.USAGE, cohort("prof", recordings.toString(), "--share", "120").code());
        Run none = cohort("prof");
        assertEquals(ExitCodes.USAGE, none.code());
        assertTrue(none.err().startsWith("cohort: the directory of recordings is missing"), none.err());
    }

    @Test
    void aTimelineWindowShapesTheHtmlReport(@TempDir Path out) throws IOException {
        Path html = out.resolve("window.html");
        Run r = cohort("prof", recordings.toString(), "--html=" + html, "--timeline-window", "0:100000");
        assertEquals(0, r.code(), r.err());
        String page = Files.readString(html);
        assertTrue(page.contains("id=\"timeline\"") && page.contains("Drawn: the window 0\u2013100000 ms of the job"), page);

        Run bad = cohort("prof", recordings.toString(), "--html=" + html, "--timeline-window=20:10");
        assertEquals(ExitCodes.USAGE, bad.code());
        assertEquals("cohort: --timeline-window '20:10' ends before it starts; write FROM:TO in milliseconds since the job's first event, "
                + "e.g. 120:180, 250: or :40\n", bad.err());
        Run text = cohort("prof", recordings.toString(), "--timeline-window=0:5");
        assertEquals(ExitCodes.USAGE, text.code());
        assertEquals("cohort: --timeline-window shapes the HTML report's timeline; add --html\n", text.err());
    }

    @Test
    void aDirectoryTakenAsTheHtmlFileIsExplained() {
        Run r = cohort("prof", "--html", recordings.toString());
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().contains("was taken as a file to write; name the directory first ('cohort prof " + recordings + " --html')"),
                r.err());
    }

    @Test
    void anUnwritableReportIsExit73(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("plain"), "x");
        Run r = cohort("prof", recordings.toString(), "--html=" + file.resolve("report.html"));
        assertEquals(ExitCodes.CANNOT_CREATE, r.code(), r.err());
        assertEquals("cohort: cannot write " + file.resolve("report.html") + " (" + file + " is a file, not a directory);"
                + " choose another file or directory", r.err().strip());
    }

    @Test
    void helpListsProf() {
        Run r = cohort("--help");
        assertTrue(r.out().contains("prof"), r.out());
        Run h = cohort("prof", "--help");
        assertEquals(0, h.code());
        assertTrue(h.out().contains("--trace[=FILE]") && h.out().contains("--timeline-window FROM:TO"), h.out());
        assertFalse(h.out().contains("${DEFAULT-VALUE}"));
    }
}

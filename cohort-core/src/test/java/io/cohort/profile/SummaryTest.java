package io.cohort.profile;

import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The summary profile's totals and the file they are written to ({@link SummaryFormat}). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Isolated // the summary is the process's own: another class's in-process peers would record calls into it
class SummaryTest {
    @TempDir
    Path dir;

    @BeforeEach
    @AfterEach
    void clear() {
        Summary.clear();
    }

    private List<String[]> write() throws IOException {
        Path f = dir.resolve("T.prof.3.tsv");
        Summary.write(f, null, 3);
        assertFalse(Files.exists(dir.resolve("T.prof.3.tsv.tmp")), "the temporary file is moved into place");
        return Files.readAllLines(f, StandardCharsets.UTF_8).stream()
                .filter(l -> !l.startsWith("#")).map(l -> l.split("\t", -1)).toList();
    }

    private static List<String[]> records(List<String[]> lines, String type) {
        return lines.stream().filter(f -> f[0].equals(type)).toList();
    }

    @Test
    void callsAddUpPerOperationPeerAndSizeClass() throws IOException {
        Summary.call(Summary.Kind.SEND, "send", "", 0, 1, 100, 1_000);
        Summary.call(Summary.Kind.SEND, "send", "", 0, 1, 120, 3_000); // same class [64, 128)
        Summary.call(Summary.Kind.SEND, "send", "", 0, 1, 4096, 5_000); // class [4096, 8192)
        Summary.call(Summary.Kind.SEND, "send", "", 0, 2, 100, 7_000);
        Summary.call(Summary.Kind.SEND, "send", "", 4, 1, 100, 9_000); // another communicator
        Summary.call(Summary.Kind.WAIT, "awaitAll", "", -1, -1, -1, 11_000);
        Summary.call(Summary.Kind.COLLECTIVE, "bcast", "pcode-multicast", 0, 0, 64, 13_000);
        List<String[]> lines = write();
        assertEquals(SummaryFormat.MAGIC, records(lines, SummaryFormat.FORMAT).get(0)[1]);
        List<String[]> comms = records(lines, SummaryFormat.COMM);
        assertEquals(6, comms.size(), () -> comms.stream().map(Arrays::toString).toList().toString());
        String[] pair = find(comms, "send", "0", "1", "7");
        // kind operation algorithm communicator peer sizeClass count bytes nanos minBytes maxBytes maxNanos
        assertEquals(List.of("2", "220", "4000", "100", "120", "3000"), Arrays.asList(pair).subList(7, 13));
        assertEquals("1", find(comms, "send", "0", "1", "13")[7]);
        assertEquals("1", find(comms, "send", "4", "1", "7")[7]);
        String[] wait = find(comms, "awaitAll", "-1", "-1", "-1");
        assertEquals(List.of("1", "0", "11000", "-1", "-1"), Arrays.asList(wait).subList(7, 12), "a wait has no size");
        assertEquals("pcode-multicast", find(comms, "bcast", "0", "0", "7")[3]);
    }

    private static String[] find(List<String[]> comms, String operation, String communicator, String peer, String sizeClass) {
        return comms.stream().filter(f -> f[2].equals(operation) && f[4].equals(communicator) && f[5].equals(peer)
                && f[6].equals(sizeClass)).findFirst().orElseThrow(() -> new AssertionError(operation + " " + peer + " " + sizeClass));
    }

    @Test
    void sizeClassesArePowersOfTwo() {
        assertEquals(-1, SummaryFormat.sizeClass(-1));
        assertEquals(0, SummaryFormat.sizeClass(0));
        assertEquals(1, SummaryFormat.sizeClass(1));
        assertEquals(2, SummaryFormat.sizeClass(2));
        assertEquals(2, SummaryFormat.sizeClass(3));
        assertEquals(11, SummaryFormat.sizeClass(1024));
        assertEquals(11, SummaryFormat.sizeClass(2047));
    }

    @Test
    void regionsProtocolJobAndPeerAreWritten() throws IOException {
        Summary.peerInfo(3, 8, "job\t1", "host-a");
        Summary.jobStarted();
        Summary.region("solve\nstep", 2_000);
        Summary.region("solve\nstep", 4_000);
        Summary.nack("udp", 2, 3);
        Summary.retransmission("udp", 2, 1400);
        Summary.stall("udp", 2, 5_000);
        Summary.jobFinished();
        List<String[]> lines = write();
        String[] peer = records(lines, SummaryFormat.PEER).get(0);
        assertEquals("3", peer[1]);
        assertEquals("8", peer[2]);
        assertEquals("job\t1", SummaryFormat.unescape(peer[3]), "a tab in a text field is escaped, not a column");
        assertEquals("host-a", peer[4]);
        String[] job = records(lines, SummaryFormat.JOB).get(0);
        assertEquals("1", job[3], "the job was closed");
        assertTrue(Long.parseLong(job[2]) >= 0);
        String[] region = records(lines, SummaryFormat.COMM).stream().filter(f -> f[1].equals("region")).findFirst().orElseThrow();
        assertEquals("solve\nstep", SummaryFormat.unescape(region[2]));
        assertEquals("2", region[7]);
        assertEquals("6000", region[9]);
        String[] protocol = records(lines, SummaryFormat.PROTOCOL).get(0);
        assertEquals(List.of("udp", "2", "3", "1", "1400", "1", "5000"), Arrays.asList(protocol).subList(1, 8));
    }

    @Test
    void droppedTrafficIsOneRecordPerTransportReasonAndUnit() throws IOException {
        Summary.dropped("broadcast domain", "failed authentication", "datagram", 5);
        Summary.dropped("broadcast domain", "failed authentication", "datagram", 2);
        Summary.dropped("tcp", "other job", "connection", 1);
        List<String[]> dropped = new java.util.ArrayList<>(records(write(), SummaryFormat.DROPPED));
        dropped.sort(java.util.Comparator.comparing(f -> f[1]));
        assertEquals(2, dropped.size());
        assertEquals(List.of("dropped", "broadcast domain", "failed authentication", "datagram", "7"), Arrays.asList(dropped.get(0)));
        assertEquals(List.of("dropped", "tcp", "other job", "connection", "1"), Arrays.asList(dropped.get(1)));
    }

    @Test
    void aJobNeverClosedIsWrittenOpen() throws IOException {
        Summary.jobStarted();
        String[] job = records(write(), SummaryFormat.JOB).get(0);
        assertEquals("0", job[3]);
    }

    @Test
    void escapingRoundTrips() {
        for (String s : new String[] {"", "plain", "a\\b", "tab\there", "new\nline", "cr\r", "\\t literally"}) {
            assertEquals(s, SummaryFormat.unescape(SummaryFormat.escape(s)));
            assertFalse(SummaryFormat.escape(s).contains("\t"));
            assertFalse(SummaryFormat.escape(s).contains("\n"));
        }
    }

    @Test
    void aCallSiteIsTakenFromSomeCallsAndCreditedWithTheOthers() throws IOException {
        for (int i = 0; i < 1000; i++) {
            Summary.call(Summary.Kind.SEND, "isend", "", 0, 1, 8, 100);
        }
        List<String[]> sites = records(write(), SummaryFormat.SITE);
        // No frame here is the user's (this test is in io.cohort.), so the site is the first caller outside
        // the library (the test engine's); what matters is that one was taken and credited.
        assertEquals(1, sites.size());
        String[] s = sites.get(0);
        assertEquals("isend", s[2]);
        assertEquals("1000", s[6], "every call is credited to the site of its operation's latest walk");
        assertEquals("100000", s[7]);
        assertTrue(Long.parseLong(s[8]) >= 1, "the first call walks; more walks only if the loop outlasted Summary.SITE_INTERVAL_NANOS");
    }
    @Test
    void anOperationsFirstCallWalks() throws IOException {
        Summary.call(Summary.Kind.PROBE, "iprobe", "", 0, 1, -1, 500);
        List<String[]> sites = records(write(), SummaryFormat.SITE);
        assertEquals(1, sites.size(), "a call made once still gets its site");
        assertEquals(List.of("1", "500", "1"), Arrays.asList(sites.get(0)).subList(6, 9));
    }

    @Test
    void anOperationNamedByAnEqualStringIsTheSameOperation() throws IOException {
        String same = new String("recv".toCharArray());
        Summary.call(Summary.Kind.RECEIVE, "recv", "", 0, 1, 8, 100);
        Summary.call(Summary.Kind.RECEIVE, same, "", 0, 1, 8, 100);
        Summary.call(Summary.Kind.SEND, "recv", "", 0, 1, 8, 100); // another kind, another cell
        Summary.call(Summary.Kind.RECEIVE, "recv", "", 0, 1, 8, 100);
        List<String[]> comms = records(write(), SummaryFormat.COMM);
        assertEquals(2, comms.size(), () -> comms.stream().map(Arrays::toString).toList().toString());
        for (String[] c : comms) {
            assertEquals(c[1].equals("receive") ? "3" : "1", c[7], c[1] + "'s count");
        }
    }

    @Test
    void theArchivesTrainingRunLeavesNothingBehind() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeFalse(Profiling.active(), "another test left a Flight Recorder on");
        Profiling.trainSummary(new Runnable() {
            @Override
            public void run() {
                assertTrue(Profiling.active());
                Profiling.startSend().finish(0, 1, 5, 8, 0, "send");
            }
        });
        assertFalse(Profiling.active(), "measuring is off again");
        assertTrue(records(write(), SummaryFormat.COMM).isEmpty(), "the training's calls are forgotten");
    }
    @Test
    void afterTheFirstCallsOfAKindOneInEightIsTimedAndTheTotalsAreScaledUp() throws IOException {
        int calls = Summary.ALWAYS_TIMED + 8 * 100;
        int timed = 0;
        for (int i = 0; i < calls; i++) {
            long start = Summary.start(Summary.Kind.SEND);
            if (start != Summary.UNTIMED) {
                timed++;
            }
            // every call "takes" 1000 ns: the timed ones report it, the others cannot
            Summary.call(Summary.Kind.SEND, "isend", "", 0, 1, 16, start == Summary.UNTIMED ? -1 : 1000,
                    start == Summary.UNTIMED ? 0 : System.nanoTime());
        }
        assertEquals(Summary.ALWAYS_TIMED + 100, timed, "all of the first calls, then one in TIME_EVERY");
        List<String[]> lines = write();
        String[] c = records(lines, SummaryFormat.COMM).get(0);
        // kind operation algorithm communicator peer sizeClass count bytes nanos minBytes maxBytes maxNanos timed
        assertEquals(Integer.toString(calls), c[7], "counts stay exact");
        assertEquals(Long.toString(16L * calls), c[8], "bytes stay exact");
        assertEquals(Long.toString(1000L * calls), c[9], "the time, scaled up from the timed calls");
        assertEquals(Integer.toString(timed), c[13]);
        assertEquals(List.of(Integer.toString(Summary.ALWAYS_TIMED), Integer.toString(Summary.TIME_EVERY)),
                Arrays.asList(records(lines, SummaryFormat.TIMING).get(0)).subList(1, 3));
        String[] site = records(lines, SummaryFormat.SITE).get(0);
        assertEquals(Integer.toString(calls), site[6]);
        assertEquals(Long.toString(1000L * calls), site[7], "the site's time scaled alike");
    }

    @Test
    void aCellWithoutATimedCallTakesItsOperationsMeanTime() throws IOException {
        Summary.call(Summary.Kind.RECEIVE, "recv", "", 0, 1, 8, 300, System.nanoTime());
        Summary.call(Summary.Kind.RECEIVE, "recv", "", 0, 1, 8, 500, System.nanoTime());
        Summary.call(Summary.Kind.RECEIVE, "recv", "", 0, 2, 8, -1, 0);
        Summary.call(Summary.Kind.RECEIVE, "recv", "", 0, 2, 8, -1, 0);
        Summary.call(Summary.Kind.RECEIVE, "recv", "", 0, 2, 8, -1, 0);
        List<String[]> comms = records(write(), SummaryFormat.COMM);
        String[] fromTwo = find(comms, "recv", "0", "2", Integer.toString(SummaryFormat.sizeClass(8)));
        assertEquals(List.of("3", "24", "1200"), Arrays.asList(fromTwo).subList(7, 10), "three calls at the mean of 400 ns");
        assertEquals("0", fromTwo[13]);
    }
}

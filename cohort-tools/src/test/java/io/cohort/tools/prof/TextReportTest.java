package io.cohort.tools.prof;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The text report of a 4-peer ring, read back by its documented layout; averaging, --rank, --top and --share. */
@Timeout(120)
class TextReportTest {
    static ProfileSet set;

    @BeforeAll
    static void record() {
        set = RingFixture.load();
    }

    private static ReportSections report(Scope scope, TableLimit limit) {
        String text = TextReport.render(new ProfileAnalysis(set, scope, limit));
        ReportSections r = ReportSections.parse(text);
        assertTrue(r.ended, text);
        return r;
    }

    private static double num(String s) {
        return Double.parseDouble(s);
    }

    @Test
    void headerNamesTheJob() {
        ReportSections r = report(Scope.allPeers(set), TableLimit.DEFAULT);
        assertEquals("Ring", r.header.get("Application"));
        assertEquals(FakePeer.JOB_ID, r.header.get("Job id"));
        assertEquals("4 recorded of 4 (ranks 0-3)", r.header.get("Peers"));
        assertEquals("node-a (ranks 0-1), node-b (ranks 2-3)", r.header.get("Hosts"));
        assertTrue(r.header.get("Scope").startsWith("mean of 4 peers"), r.header.toString());
        assertEquals(List.of("Time per peer", "Top call sites", "Message sizes", "Message size classes", "Operation counts",
                        "Communication matrix (bytes", "Communication matrix (messages", "Hottest methods", "Regions", "Protocol"),
                r.sections.keySet().stream().map(t -> t.replaceAll("^(Top call sites|Communication matrix \\((bytes|messages)"
                        + "|Message size classes|Message sizes|Hottest methods|Operation counts|Time per peer|Regions|Protocol).*", "$1")).toList());
    }

    @Test
    void timePerPeerHasEveryRankAndTheMean() {
        ReportSections r = report(Scope.allPeers(set), TableLimit.DEFAULT);
        assertArrayEquals(new String[] {"Rank", "App_s", "Comm_s", "Comm%", "Host"}, r.columns("Time per peer"));
        List<String[]> rows = r.rows("Time per peer");
        assertEquals(List.of("0", "1", "2", "3", "*"), rows.stream().map(x -> x[0]).toList());
        double app = 0;
        double comm = 0;
        for (String[] row : rows.subList(0, 4)) {
            assertTrue(num(row[2]) > 0 && num(row[2]) <= num(row[1]), Arrays.toString(row));
            assertEquals(100 * num(row[2]) / num(row[1]), num(row[3]), 0.02 + 100 * 1e-6 / num(row[1]), Arrays.toString(row));
            app += num(row[1]);
            comm += num(row[2]);
        }
        assertEquals("node-a", rows.get(0)[4]);
        assertEquals("node-b", rows.get(3)[4]);
        assertEquals(app / 4, num(rows.get(4)[1]), 1e-5);
        assertEquals(comm / 4, num(rows.get(4)[2]), 1e-5);
        assertTrue(num(rows.get(0)[1]) * 1000 >= RingFixture.COMPUTE_MILLIS, "rank 0 computed, its app time includes it");
    }

    @Test
    void callSitesAreTheUserProgramsLinesAndCountAsMeansPerPeer() {
        ReportSections r = report(Scope.allPeers(set), TableLimit.DEFAULT);
        assertArrayEquals(new String[] {"Operation", "Count", "Total_ms", "Mean_us", "Comm%", "App%", "Site"}, r.columns("Top call sites"));
        List<String[]> rows = r.rows("Top call sites");
        double sends = 0;
        double recvs = 0;
        double share = 0;
        double previous = Double.MAX_VALUE;
        for (String[] row : rows) {
            assertTrue(row[6].matches("RingProgram\\.(lambda\\$run\\$\\d+|run):\\d+"), "a call site in the user's program: " + row[6]);
            sends += row[0].equals("send") ? num(row[1]) : 0;
            recvs += row[0].equals("recv") ? num(row[1]) : 0;
            share += num(row[4]);
            assertTrue(num(row[2]) <= previous, "sorted by total time");
            previous = num(row[2]);
        }
        assertEquals(RingFixture.LAPS, sends, 1e-9);
        assertEquals(RingFixture.LAPS, recvs, 1e-9);
        assertEquals(100, share, 0.1, "all call sites together are all the communication time");
        assertEquals("1", rows.stream().filter(x -> x[0].equals("allreduce")).findFirst().orElseThrow()[1]);
        assertEquals("0.25", rows.stream().filter(x -> x[0].equals("probe")).findFirst().orElseThrow()[1], "one probe over 4 peers");
        assertEquals(List.of("recv", "send", "allreduce", "waitAll", "probe").stream().sorted().toList(),
                r.rows("Operation counts").stream().map(x -> x[0]).sorted().toList());
        assertEquals("10", r.row("Operation counts", "send")[1]);
    }

    @Test
    void messageSizesAndTheirClasses() {
        ReportSections r = report(Scope.allPeers(set), TableLimit.DEFAULT);
        assertArrayEquals(new String[] {"send", "10", "10000", "1000", "1000.0", "1000"}, r.row("Message sizes", "send"));
        assertArrayEquals(new String[] {"allreduce", "1", "8", "8", "8.0", "8"}, r.row("Message sizes", "allreduce"));
        String[] classes = r.columns("Message size classes");
        assertEquals("8", classes[1], "the lowest class with a message comes first");
        assertEquals("512", classes[classes.length - 1], "1000 bytes are in [512, 1024)");
        String[] send = r.row("Message size classes", "send");
        assertEquals("10", send[send.length - 1]);
        assertEquals("0", send[1]);
        assertEquals("1", r.row("Message size classes", "allreduce")[1]);
    }

    @Test
    void matrixHoldsExactlyTheRingsEdges() {
        ReportSections r = report(Scope.allPeers(set), TableLimit.DEFAULT);
        List<String[]> bytes = r.rows("Communication matrix (bytes");
        List<String[]> messages = r.rows("Communication matrix (messages");
        assertArrayEquals(new String[] {"From", "0", "1", "2", "3"}, r.columns("Communication matrix (bytes"));
        for (int from = 0; from < RingFixture.SIZE; from++) {
            for (int to = 0; to < RingFixture.SIZE; to++) {
                boolean edge = to == (from + 1) % RingFixture.SIZE;
                assertEquals(edge ? RingFixture.LAPS * RingFixture.BYTES : 0, Long.parseLong(bytes.get(from)[to + 1]), from + "->" + to);
                assertEquals(edge ? RingFixture.LAPS : 0, Long.parseLong(messages.get(from)[to + 1]), from + "->" + to);
            }
        }
    }

    @Test
    void samplesRegionsAndProtocol() {
        ReportSections r = report(Scope.allPeers(set), TableLimit.DEFAULT);
        assertTrue(r.rows("Hottest methods").stream().anyMatch(x -> x[2].equals("demo.RingProgram.crunch")),
                "rank 0's computing shows among the hottest methods");
        assertArrayEquals(new String[] {"Count", "Total_ms", "Mean_ms", "App%", "Region"}, r.columns("Regions"));
        String[] lap = r.rows("Regions").get(0);
        assertEquals("lap", lap[4]);
        assertEquals("10", lap[0]);
        String[] udp = r.row("Protocol", "udp");
        assertEquals("0.5", udp[1], "2 NACKs over 4 peers");
        assertEquals("0.25", udp[2]);
        assertEquals("350", udp[3], "1400 bytes over 4 peers");
        assertEquals("0.25", udp[4]);
    }

    @Test
    void rankScopesEveryTableToThatPeer() {
        ReportSections r = report(Scope.rank(set, 1), TableLimit.DEFAULT);
        assertEquals("rank 1", r.header.get("Scope"));
        assertEquals(List.of("1"), r.rows("Time per peer").stream().map(x -> x[0]).toList(), "no other rank, no mean row");
        assertEquals(List.of("allreduce", "recv", "send"), r.rows("Operation counts").stream().map(x -> x[0]).sorted().toList(),
                "rank 0's probe and wait are not rank 1's");
        assertEquals("10", r.row("Operation counts", "send")[1]);
        String title = r.title("Communication of rank 1");
        assertArrayEquals(new String[] {"Peer", "Bytes_sent", "Messages_sent", "Bytes_received", "Messages_received"}, r.columns(title));
        assertArrayEquals(new String[] {"0", "0", "0", "10000", "10"}, r.row(title, "0"));
        assertArrayEquals(new String[] {"2", "10000", "10", "0", "0"}, r.row(title, "2"));
        assertEquals(2, r.rows(title).size());
        assertEquals(0, r.rows("Hottest methods").size(), "rank 1 was not sampled");
        assertEquals(0, r.rows("Protocol").size());
        assertEquals("2", report(Scope.rank(set, 3), TableLimit.DEFAULT).row("Protocol", "udp")[1]);
    }

    @Test
    void topAndShareCutRankedTables() {
        ReportSections all = report(Scope.allPeers(set), TableLimit.DEFAULT);
        int sites = all.rows("Top call sites").size();
        ReportSections top2 = report(Scope.allPeers(set), new TableLimit(2, 100));
        assertEquals(2, top2.rows("Top call sites").size());
        assertTrue(top2.title("Top call sites").endsWith("(2 of " + sites + ")"), top2.title("Top call sites"));
        ReportSections half = report(Scope.allPeers(set), new TableLimit(20, 50));
        List<String[]> rows = half.rows("Top call sites");
        double covered = rows.stream().mapToDouble(x -> num(x[4])).sum();
        double withoutLast = covered - num(rows.get(rows.size() - 1)[4]);
        assertTrue(covered >= 49.9 && withoutLast < 50.1, "rows " + rows.size() + " cover " + covered + "%");
        assertTrue(rows.size() < sites);
    }
}

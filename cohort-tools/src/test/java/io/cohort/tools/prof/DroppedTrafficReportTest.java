package io.cohort.tools.prof;

import io.cohort.profile.SummaryFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the peers' transports dropped (the entries of their {@code --verbose} drop line), read from
 * either kind of profile into a "Dropped traffic" section of the text and HTML reports: per transport
 * and reason, job totals with each rank's share; no section when nothing was dropped.
 */
@Timeout(60)
class DroppedTrafficReportTest {
    static final String SECTION = "Dropped traffic";
    @TempDir
    Path dir;
    final List<String> warnings = new ArrayList<>();

    /** A summary of rank r of 3 with the given dropped records, as io.cohort.profile.Summary writes them. */
    private void summary(int r, String... dropped) throws Exception {
        List<String> lines = new ArrayList<>(List.of(
                SummaryFormat.FORMAT + "\t" + SummaryFormat.MAGIC + "\t" + SummaryFormat.VERSION,
                "peer\t" + r + "\t3\tjob9\thost\tcom.x.Solver\t" + (100 + r),
                "job\t1700000000000000000\t2000000000\t1",
                "comm\tsend\tsend\t\t0\t" + (r + 1) % 3 + "\t7\t3\t300\t30000000\t100\t100\t20000000"));
        for (String d : dropped) {
            lines.add(SummaryFormat.DROPPED + "\t" + d);
        }
        Files.write(dir.resolve("Solver.prof." + r + ".tsv"), lines);
    }

    @Test
    void summariesDropsArePerTransportAndReasonWithEachRanksShare() throws Exception {
        summary(0);
        summary(1, "broadcast domain\tfailed authentication\tdatagram\t7", "tcp\tother job\tconnection\t1");
        summary(2, "broadcast domain\tfailed authentication\tdatagram\t5", "broadcast domain\tother job or communicator\tdatagram\t40",
                "udp\tnot cohort\tdatagram\t0");
        ProfileSet set = ProfileSet.load(dir, warnings::add);
        assertEquals(List.of(), warnings);
        assertEquals(List.of(new DroppedTraffic("broadcast domain", "failed authentication", "datagram", 7),
                new DroppedTraffic("tcp", "other job", "connection", 1)), set.peer(1).dropped());

        ProfileAnalysis a = new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT);
        assertEquals(3, a.dropped().size(), "a zero count is no row: " + a.dropped());
        ProfileAnalysis.DropRow forged = a.dropped().get(1);
        assertEquals("failed authentication", forged.reason());
        assertEquals(12, forged.count(), "a job total, not a mean per peer");
        assertEquals(Map.of(1, 7L, 2, 5L), forged.perRank());

        String text = TextReport.render(a);
        ReportSections r = ReportSections.parse(text);
        String title = r.title(SECTION);
        assertTrue(title.startsWith(SECTION + " ("), title);
        assertArrayEquals(new String[] {"Count", "Unit", "Dropped"}, r.columns(title));
        List<String> rows = r.rows(title).stream().map(x -> String.join(" | ", x)).toList();
        assertEquals(List.of("40 | datagrams | broadcast domain: other job or communicator (rank 2: 40)",
                "12 | datagrams | broadcast domain: failed authentication (rank 1: 7, rank 2: 5)",
                "1 | connection | tcp: other job (rank 1: 1)"), rows, text);
        assertTrue(text.indexOf("@--- " + SECTION) < text.indexOf("@--- End of report"), text);

        String html = HtmlReport.render(a);
        HtmlReportTest.parse(html); // still well-formed
        assertTrue(html.contains("<h2>Dropped traffic</h2>"), html);
        assertTrue(html.contains("<td>failed authentication</td><td class=\"num\">12 datagrams</td><td>rank 1: 7, rank 2: 5</td>"),
                html);

        ProfileAnalysis rank2 = new ProfileAnalysis(set, Scope.rank(set, 2), TableLimit.DEFAULT);
        assertEquals(List.of("broadcast domain: other job or communicator (rank 2: 40)",
                "broadcast domain: failed authentication (rank 2: 5)"),
                ReportSections.parse(TextReport.render(rank2)).rows(title).stream().map(x -> x[2]).toList(), "rank 2's own drops");
    }

    @Test
    void nothingDroppedIsNoSection() throws Exception {
        summary(0);
        summary(1);
        summary(2);
        ProfileSet set = ProfileSet.load(dir, warnings::add);
        ProfileAnalysis a = new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT);
        assertEquals(List.of(), a.dropped());
        assertFalse(TextReport.render(a).contains(SECTION));
        assertFalse(HtmlReport.render(a).contains(SECTION));
    }

    @Test
    void aFullRecordingsDroppedTrafficEventsReadAlike() throws Exception {
        for (int r = 0; r < 2; r++) {
            int rank = r;
            FakePeer.record(dir, r, 2, FakePeer.Options.of("Solver", "h"), p -> {
                p.send(1 - rank, 0, 10);
                if (rank == 1) {
                    p.dropped("broadcast domain", "failed authentication", "datagram", 3);
                    p.dropped("udp", "other job", "datagram", 1);
                }
            });
        }
        ProfileSet set = ProfileSet.load(dir, warnings::add);
        assertEquals(List.of(), warnings);
        assertEquals(List.of(), set.peer(0).dropped());
        ProfileAnalysis a = new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT);
        ReportSections r = ReportSections.parse(TextReport.render(a));
        List<String> rows = r.rows(r.title(SECTION)).stream().map(x -> String.join(" | ", x)).toList();
        assertEquals(List.of("3 | datagrams | broadcast domain: failed authentication (rank 1: 3)",
                "1 | datagram | udp: other job (rank 1: 1)"), rows);
    }
}

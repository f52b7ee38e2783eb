package io.cohort.tools.prof;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A 40-peer job built in memory (no recording needed): the text matrix becomes a list of pairs above
 * 32 ranks, the heat maps shrink their cells and switch to a log scale for skewed traffic.
 */
@Timeout(30)
class LargeJobTest {
    static final int PEERS = 40;
    static final long START = 1_700_000_000_000_000_000L;

    /** Each rank sends {@code 100} bytes to the next, except rank 7, which sends 1000 times more. */
    static ProfileSet ring() {
        List<PeerProfile> peers = new ArrayList<>();
        for (int r = 0; r < PEERS; r++) {
            long bytes = r == 7 ? 100_000 : 100;
            int next = (r + 1) % PEERS;
            int prev = (r + PEERS - 1) % PEERS;
            long prevBytes = prev == 7 ? 100_000 : 100;
            CallSite site = new CallSite("app.Main", "step", 12);
            List<CommEvent> comms = List.of(
                    new CommEvent(CommKind.SEND, "send", START + 1_000, 2_000, 1, 0, next, 0, bytes, 0, site, Map.of("peer", next)),
                    new CommEvent(CommKind.RECEIVE, "recv", START + 5_000, 3_000, 1, 0, prev, 0, prevBytes, 0, site, Map.of("peer", prev)));
            peers.add(new PeerProfile(Path.of("Big.prof." + r + ".jfr"), r, PEERS, "feed0040", "n" + r / 8, "Big", 100 + r,
                    START, START + 1_000_000, 1_000_000, true, comms, List.of(), Map.of(), Map.of(), Map.of(1L, "main")));
        }
        return ProfileSet.of(Path.of("big"), peers);
    }

    @Test
    void textMatrixIsAListOfPairs() {
        ProfileSet set = ring();
        ReportSections r = ReportSections.parse(TextReport.render(new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT)));
        String title = r.title("Communication matrix (pairs");
        assertArrayEquals(new String[] {"From", "To", "Bytes", "Messages"}, r.columns(title));
        assertEquals(PEERS, r.rows(title).size());
        assertArrayEquals(new String[] {"7", "8", "100000", "1"}, r.row(title, "7"));
        assertEquals("n0 (ranks 0-7), n1 (ranks 8-15), n2 (ranks 16-23), n3 (ranks 24-31), n4 (ranks 32-39)", r.header.get("Hosts"));
    }

    @Test
    void heatMapShrinksAndUsesALogScaleForSkewedTraffic() {
        ProfileSet set = ring();
        String html = HtmlReport.render(new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT));
        assertTrue(html.contains("log scale; grey: none"), "1000x between the largest and smallest cell");
        assertTrue(html.contains("width=\"10\" height=\"10\""), "400 px over 40 ranks");
        assertFalse(html.contains("class=\"cell-light\""), "no figures in cells this small");
    }

    @Test
    void traceHasAnArrowPerMessage() throws Exception {
        ProfileSet set = ring();
        StringWriter w = new StringWriter();
        ChromeTrace.write(set, Scope.allPeers(set), w);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> events = (List<Map<String, Object>>) ((Map<String, Object>) StrictJson.parse(w.toString())).get("traceEvents");
        assertEquals(PEERS, events.stream().filter(e -> "s".equals(e.get("ph"))).count());
        assertEquals(PEERS, events.stream().filter(e -> "f".equals(e.get("ph"))).count());
        Map<String, Object> first = events.stream().filter(e -> "X".equals(e.get("ph"))).findFirst().orElseThrow();
        assertEquals(1.0, ((Number) first.get("ts")).doubleValue(), "microseconds since the job's first event");
        assertEquals(2.0, ((Number) first.get("dur")).doubleValue());
    }
}

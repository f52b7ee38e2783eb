package io.cohort.tools.prof;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.w3c.dom.Element;

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
                    START, START + 1_000_000, 1_000_000, true, comms, List.of(), Map.of(), Map.of(), Map.of(1L, "main"), Totals.NONE));
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

    /**
     * {@code peers} peers, each sending {@code messages} messages of 1 ns to the next and receiving as
     * many of 2 us from the previous one, 10 us apart, inside one region as long as the job; event k
     * of a kind on rank p starts at 1 us + 10 us * k (+ 5 us for receives) + p ns, so starts are distinct.
     */
    static ProfileSet busy(int peers, int messages) {
        List<PeerProfile> list = new ArrayList<>();
        CallSite site = new CallSite("app.Main", "step", 12);
        for (int r = 0; r < peers; r++) {
            int next = (r + 1) % peers;
            int prev = (r + peers - 1) % peers;
            List<CommEvent> comms = new ArrayList<>();
            for (int k = 0; k < messages; k++) {
                long at = START + 1_000 + k * 10_000L + r;
                comms.add(new CommEvent(CommKind.SEND, "send", at, 1, 1, 0, next, 3, 64, k, site, Map.of("peer", next)));
                comms.add(new CommEvent(CommKind.RECEIVE, "recv", at + 5_000, 2_000, 1, 0, prev, 3, 64, k, site, Map.of("peer", prev)));
            }
            long end = START + 1_000 + messages * 10_000L;
            list.add(new PeerProfile(Path.of("Busy.prof." + r + ".jfr"), r, peers, "feed0041", "n", "Busy", 100 + r, START, end,
                    end - START, true, comms, List.of(new RegionEvent("main loop", START + r, end - START - r, 1)), Map.of(), Map.of(),
                    Map.of(1L, "main"), Totals.NONE));
        }
        return ProfileSet.of(Path.of("busy"), list);
    }

    @Test
    void timelineOfALongJobStopsAtItsCapAndSaysWhatIsLeftOut() throws Exception {
        ProfileSet set = busy(4, 10_000);
        Timeline t = Timeline.of(set, Scope.allPeers(set), TimelineWindow.WHOLE_JOB, Timeline.MAX_EVENTS);
        assertEquals(80_004, t.totalEvents);
        assertEquals(Timeline.MAX_EVENTS, t.eventsDrawn, "4 regions, then 624 rounds of 8 events, then 4 sends");
        assertEquals(1_000 + 624 * 10_000 + 5_000, t.to, "the picture ends where the first event left out starts");
        assertEquals(624 * 4, t.arrows.size());
        assertEquals(4, t.endsWithoutArrow, "the last 4 sends' receives are left out");

        String html = HtmlReport.render(new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT));
        assertTrue(html.length() < 3_000_000, "a page of a few MB at most: " + html.length());
        Element tl = HtmlReportTest.timeline(HtmlReportTest.parse(html));
        String note = tl.getTextContent();
        assertTrue(note.contains("Drawn: 0\u20136.246 ms of the job's 0\u2013100.001 ms, the first 5000 of its 80004 events"), note);
        assertTrue(note.contains("the 75004 later ones are left out") && note.contains("--timeline-window=FROM:TO"), note);
        assertTrue(note.contains("4 sends and receives drawn have no arrow"), note);
        List<Element> rects = HtmlReportTest.elements(tl, "rect");
        List<Element> bars = new ArrayList<>();
        for (String kind : List.of("tl-send", "tl-receive", "tl-region")) {
            bars.addAll(HtmlReportTest.bars(rects, kind));
        }
        assertEquals(Timeline.MAX_EVENTS, bars.size());
        for (Element b : bars) {
            double x = HtmlReportTest.number(b, "x");
            double w = HtmlReportTest.number(b, "width");
            assertTrue(w >= 1, "a 1 ns send is still a pixel wide");
            assertTrue(x >= SvgTimeline.LEFT && x + w <= SvgTimeline.LEFT + SvgTimeline.PLOT_W + 1.05, "inside the plot: " + x + " " + w);
        }
        Element region = HtmlReportTest.bars(rects, "tl-region").get(0);
        assertEquals(SvgTimeline.PLOT_W, HtmlReportTest.number(region, "width"), 0.1, "the job-long region is cut at the picture's end");
        List<Element> arrows = HtmlReportTest.arrows(tl);
        assertEquals(624 * 4, arrows.size());
        for (Element a : arrows) {
            assertTrue(HtmlReportTest.number(a, "x2") > HtmlReportTest.number(a, "x1"),
                    "from the send's start to the receive's end: forward in time on one clock");
        }
    }

    @Test
    void aTimelineWindowDrawsItsPartOnly() throws Exception {
        ProfileSet set = busy(4, 10_000);
        String html = HtmlReport.render(new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT), TimelineWindow.parse("50:50.1"));
        Element tl = HtmlReportTest.timeline(HtmlReportTest.parse(html));
        assertTrue(tl.getTextContent().contains("Drawn: the window 50\u201350.1 ms of the job's 0\u2013100.001 ms, all 84 of its events"),
                tl.getTextContent());
        // Rounds 5000-5009 of every peer: their sends and receives, and the 4 job-long regions cut at both ends.
        assertEquals(40, HtmlReportTest.bars(tl, "tl-send").size());
        assertEquals(40, HtmlReportTest.bars(tl, "tl-receive").size());
        assertEquals(40, HtmlReportTest.arrows(tl).size());
        for (Element region : HtmlReportTest.bars(tl, "tl-region")) {
            assertEquals(SvgTimeline.LEFT, HtmlReportTest.number(region, "x"), 0.1);
            assertEquals(SvgTimeline.PLOT_W, HtmlReportTest.number(region, "width"), 0.1);
        }
        assertFalse(tl.getTextContent().contains("no arrow"), "every message drawn has both ends in the window");
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

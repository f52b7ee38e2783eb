package io.cohort.tools.prof;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the timeline draws, without drawing it: windows, lanes, region rows, cuts. */
@Timeout(10)
class TimelineTest {
    static final long T0 = 1_700_000_000_000_000_000L;

    static PeerProfile peer(int rank, List<CommEvent> comms, List<RegionEvent> regions) {
        return new PeerProfile(Path.of("T.prof." + rank + ".jfr"), rank, 2, "j", "h", "T", 1, T0, T0 + 1_000_000, 1_000_000, true,
                comms, regions, Map.of(), Map.of(), Map.of(1L, "main", 2L, "worker"), Totals.NONE);
    }

    static CommEvent send(long at, long duration, long thread, int to, long sequence) {
        return new CommEvent(CommKind.SEND, "send", T0 + at, duration, thread, 0, to, 0, 8, sequence, CallSite.UNKNOWN, Map.of());
    }

    static CommEvent recv(long at, long duration, int from, long sequence) {
        return new CommEvent(CommKind.RECEIVE, "recv", T0 + at, duration, 1, 0, from, 0, 8, sequence, CallSite.UNKNOWN, Map.of());
    }

    @Test
    void windowsAreMillisecondsFromTo() {
        assertEquals(new TimelineWindow(120_000_000, 180_000_000), TimelineWindow.parse("120:180"));
        assertEquals(new TimelineWindow(250_000_000, Long.MAX_VALUE), TimelineWindow.parse("250:"));
        assertEquals(new TimelineWindow(0, 40_500_000), TimelineWindow.parse(":40.5"));
        assertEquals(new TimelineWindow(1_500, 2_000_000), TimelineWindow.parse(" .0015 : 2 "));
        assertEquals(TimelineWindow.WHOLE_JOB, TimelineWindow.parse(":"));
        assertFalse(TimelineWindow.parse(":").isChosen());
        assertEquals("120\u2013180 ms", TimelineWindow.parse("120:180").describe());
        assertEquals("250 ms to the end", TimelineWindow.parse("250:").describe());
        for (String bad : List.of("", "120", "180:120", "5:5", "1:2:3", "-1:5", "NaN:1", "1:Infinity", "0x10:20", "a:b", "1e3:2e3", "1,5:2")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TimelineWindow.parse(bad), bad);
            assertTrue(e.getMessage().contains("FROM:TO in milliseconds"), e.getMessage());
        }
    }

    @Test
    void nestedRegionsStackAboveTheCommunicationRow() {
        List<RegionEvent> regions = List.of(new RegionEvent("outer", T0, 100_000, 1), new RegionEvent("a", T0 + 10_000, 40_000, 1),
                new RegionEvent("a.1", T0 + 20_000, 10_000, 1), new RegionEvent("a.1.x", T0 + 21_000, 1_000, 1),
                new RegionEvent("b", T0 + 60_000, 30_000, 1));
        ProfileSet set = ProfileSet.of(Path.of("t"), List.of(peer(0, List.of(send(25_000, 1_000, 1, 1, 0)), regions)));
        Timeline t = Timeline.of(set, Scope.allPeers(set), TimelineWindow.WHOLE_JOB, Timeline.MAX_EVENTS);
        Timeline.Lane lane = t.lanes.get(0);
        assertEquals(Timeline.MAX_REGION_ROWS, lane.regionRows, "four levels deep, three rows: the deepest share the last");
        Map<String, Integer> rows = new java.util.HashMap<>();
        lane.items.forEach(i -> rows.put(i.region() != null ? i.region().name() : i.comm().operation(), i.row()));
        assertEquals(Map.of("outer", 0, "a", 1, "a.1", 2, "a.1.x", 2, "b", 1, "send", 3), rows);
    }

    @Test
    void onlyThreadsWithEventsGetLanesAndEveryPeerGetsOne() {
        PeerProfile zero = peer(0, List.of(send(1_000, 10, 2, 1, 0), send(500_000, 10, 1, 1, 1)), List.of());
        PeerProfile one = peer(1, List.of(recv(2_000, 10, 0, 0), recv(600_000, 10, 0, 1)), List.of());
        ProfileSet set = ProfileSet.of(Path.of("t"), List.of(zero, one));
        Timeline all = Timeline.of(set, Scope.allPeers(set), TimelineWindow.WHOLE_JOB, Timeline.MAX_EVENTS);
        assertEquals(List.of("0 main", "0 worker", "1 main"), all.lanes.stream().map(l -> l.peer.rank() + " " + l.threadName).toList());
        assertEquals(2, all.arrows.size());
        assertEquals(1_000, all.from, "from the first operation, not from the recordings' start");
        assertEquals(600_010, all.to, "to the end of the last");

        // 0.4-1 ms: rank 0's worker has nothing there, so no lane; both messages of the first half are out.
        Timeline late = Timeline.of(set, Scope.allPeers(set), TimelineWindow.parse("0.4:1"), Timeline.MAX_EVENTS);
        assertEquals(List.of("0 main", "1 main"), late.lanes.stream().map(l -> l.peer.rank() + " " + l.threadName).toList());
        assertEquals(1, late.arrows.size());

        // Past the end: every peer still has its (empty) lane, and nothing is drawn.
        Timeline past = Timeline.of(set, Scope.allPeers(set), TimelineWindow.parse("5:6"), Timeline.MAX_EVENTS);
        assertEquals(2, past.lanes.size());
        assertTrue(past.lanes.stream().allMatch(l -> l.items.isEmpty() && l.threadId < 0));
        assertEquals(0, past.eventsInWindow);
        String html = HtmlReport.render(new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT), TimelineWindow.parse("5:6"));
        assertTrue(html.contains("Nothing was recorded in 5\u20136 ms; the job&#39;s 0\u20131 ms hold 4 events."), "says why it is empty");
    }

    @Test
    void aMessageWithOneEndCutOffHasNoArrow() {
        PeerProfile zero = peer(0, List.of(send(1_000, 10, 1, 1, 0), send(2_000, 10, 1, 1, 1)), List.of());
        PeerProfile one = peer(1, List.of(recv(1_500, 10, 0, 0), recv(9_000, 10, 0, 1)), List.of());
        ProfileSet set = ProfileSet.of(Path.of("t"), List.of(zero, one));
        Timeline t = Timeline.of(set, Scope.allPeers(set), TimelineWindow.WHOLE_JOB, 3);
        assertEquals(3, t.eventsDrawn);
        assertEquals(9_000, t.to, "cut where the fourth event starts");
        assertEquals(1, t.arrows.size());
        assertEquals(1, t.endsWithoutArrow, "the second send, whose receive is left out");
    }
}

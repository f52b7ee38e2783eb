package io.cohort.daemon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The load server's state machine, on a clock moved by hand (TTL 1 s). */
@Timeout(10)
class ClusterTableTest {
    private final ManualClock clock = new ManualClock(1_000_000);
    private final ClusterTable table = new ClusterTable(TestClusters.loopback(3, 1, TestClusters.fast(7470)), clock);

    private static LoadUpdate load(int slots, String drain) {
        return new LoadUpdate(0.5, 0.25, 0.75, 2, slots, List.of("job1"), drain);
    }

    @Test
    void aMemberNeverHeardFromIsUnknownAndAnUpdateMakesItUp() {
        assertEquals(MemberState.UNKNOWN, table.state("m2"));
        assertTrue(table.onUpdate("m2", clock.millis(), load(4, null)));
        MemberStatus s = table.snapshot().get(1);
        assertEquals(MemberState.UP, s.state());
        assertEquals(0.5, s.load1());
        assertEquals(List.of("job1"), s.jobs());
        assertEquals(4, s.slots());
    }

    @Test
    void anUpdateOlderThanTheTtlMakesItNotRespondingAndAFreshOneBringsItBack() {
        table.onUpdate("m2", clock.millis(), load(4, null));
        clock.advance(1000);
        assertEquals(MemberState.UP, table.state("m2"));
        clock.advance(1);
        assertEquals(MemberState.NOT_RESPONDING, table.state("m2"));
        table.onUpdate("m2", clock.millis(), load(4, null));
        assertEquals(MemberState.UP, table.state("m2"));
    }

    @Test
    void aRingReportMakesItDownOnceAndOnlyALaterUpdateOrUpReportBringsItBack() {
        long t0 = clock.millis();
        table.onUpdate("m2", t0, load(4, null));
        clock.advance(100);
        assertTrue(table.onReport("m2", true, "m1", clock.millis(), "ring connection closed"));
        assertFalse(table.onReport("m2", true, "m3", clock.millis() + 5, "ring connection closed"), "a duplicate");
        assertEquals(1, table.duplicateReports());
        MemberStatus s = table.snapshot().get(1);
        assertEquals(MemberState.DOWN, s.state());
        assertTrue(s.reason().startsWith("reported by m1 at "), s.reason());
        assertFalse(table.onUpdate("m2", t0 + 50, load(4, null)), "a datagram sent before it died");
        assertEquals(MemberState.DOWN, table.state("m2"));
        clock.advance(100);
        assertTrue(table.onUpdate("m2", clock.millis(), load(4, null)));
        assertEquals(MemberState.UP, table.state("m2"));
        clock.advance(100);
        table.onReport("m2", true, "m1", clock.millis(), "x");
        assertFalse(table.onReport("m2", false, "m1", clock.millis() - 1, "older than the down report"));
        assertTrue(table.onReport("m2", false, "m1", clock.millis() + 1, "restored"));
        assertEquals(MemberState.UP, table.state("m2"));
    }

    @Test
    void aDownReportOlderThanTheLastUpdateIsStale() {
        table.onUpdate("m2", clock.millis(), load(4, null));
        assertFalse(table.onReport("m2", true, "m1", clock.millis() - 10, "late"));
        assertEquals(MemberState.UP, table.state("m2"));
    }

    @Test
    void drainShowsWithItsReasonAndZeroSlotsUntilResumed() {
        table.onUpdate("m2", clock.millis(), load(4, null));
        table.drain("m2", "bad DIMM");
        MemberStatus s = table.snapshot().get(1);
        assertEquals(MemberState.DRAINED, s.state());
        assertEquals("bad DIMM", s.reason());
        assertEquals(0, s.slots());
        clock.advance(10);
        table.onUpdate("m2", clock.millis(), load(4, null)); // its daemon forgot (restarted): the table keeps it
        assertEquals(MemberState.DRAINED, table.state("m2"));
        table.resume("m2");
        assertEquals(MemberState.UP, table.state("m2"));
        assertEquals(4, table.snapshot().get(1).slots());
    }

    @Test
    void aDrainedMemberThatDiesIsDownAndStillDrained() {
        table.onUpdate("m2", clock.millis(), load(0, "maintenance"));
        assertEquals(MemberState.DRAINED, table.state("m2"));
        clock.advance(10);
        table.onReport("m2", true, "m1", clock.millis(), "ring connection closed");
        MemberStatus s = table.snapshot().get(1);
        assertEquals(MemberState.DOWN, s.state());
        assertEquals("maintenance", s.drainReason());
    }

    @Test
    void unknownMembersAreIgnored() {
        assertFalse(table.onUpdate("nobody", clock.millis(), load(1, null)));
        assertFalse(table.onReport("nobody", true, "m1", clock.millis(), "x"));
        assertEquals(3, table.snapshot().size());
    }

    @Test
    void theStatusBodyRoundTrips() {
        table.onUpdate("m2", clock.millis(), load(4, null));
        table.drain("m3", "a reason, with = and\nnewline");
        StatusTable t = new StatusTable("test", "m1", clock.millis(), table.snapshot(), java.util.Map.of("refused.bad_mac", 3L));
        byte[] enc = t.toBody().encode();
        StatusTable back = StatusTable.fromBody(MessageBody.decode(enc, 0, enc.length));
        assertEquals(t, back);
    }
}

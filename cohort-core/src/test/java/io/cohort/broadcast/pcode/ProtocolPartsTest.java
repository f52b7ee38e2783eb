package io.cohort.broadcast.pcode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The protocol's ingredients alone, without sockets. */
@Timeout(10)
class ProtocolPartsTest {
    @Test
    void globalCounterTakesOverOriginalsConsecutivelyAndRemembersGaps() {
        GlobalCounter g = new GlobalCounter();
        assertFalse(g.onOriginal(1));
        assertEquals(1, g.value());
        assertTrue(g.onOriginal(4), "3 and 2 are missing");
        assertEquals(1, g.value());
        assertEquals(2, g.gapFrom());
        assertEquals(3, g.gapTo());
        assertTrue(g.onOriginal(2));
        assertEquals(2, g.value());
        assertFalse(g.onOriginal(3), "the gap closed; 4 was remembered and taken over");
        assertEquals(4, g.value());
        assertFalse(g.onOriginal(4), "counters are not unique: a second 4 changes nothing");
        assertEquals(5, g.next());
    }

    @Test
    void nonOriginalCountersRevealGapsButNeverMoveTheCounter() {
        GlobalCounter g = new GlobalCounter();
        assertTrue(g.onNonOriginal(10));
        assertEquals(0, g.value());
        assertEquals(1, g.gapFrom());
        assertEquals(10, g.gapTo());
        for (int i = 1; i <= 10; i++) {
            g.onOriginal(i);
        }
        assertFalse(g.hasGap());
    }

    @Test
    void flowControlStopsWhenTheGcvSpreadExceedsTheWindow() {
        FlowControl f = new FlowControl(0, 3, 10);
        assertTrue(f.mayStamp(10));
        assertFalse(f.mayStamp(11), "peers 1 and 2 are still at 0");
        f.observe(1, 5);
        assertFalse(f.mayStamp(11));
        f.observe(2, 3);
        assertTrue(f.mayStamp(11));
        assertTrue(f.laggards(20).contains("2 at 3"));
    }

    @Test
    void aFrameGoesToEachPeerAtMostOncePerHold() {
        long hold = 500_000;
        SentMessageBuffer.SentFrame f = new SentMessageBuffer.SentFrame(1, 1, new byte[1], 1_000_000);
        assertFalse(f.mayResendTo(1, 3, 1_200_000, hold), "the first send is 200 us old");
        assertTrue(f.mayResendTo(1, 3, 1_600_000, hold));
        assertFalse(f.mayResendTo(1, 3, 1_900_000, hold), "resent to peer 1 300 us ago");
        assertTrue(f.mayResendTo(2, 3, 1_900_000, hold), "peer 2 has only the first send, 900 us ago");
        assertTrue(f.mayResendTo(1, 3, 2_100_000, hold));
        assertTrue(f.mayResendTo(1, 3, 2_100_000, 0), "a hold of 0 never holds back");
    }

    @Test
    void sentBufferDiscardsOnlyWhatEveryPeerHandled() {
        SentMessageBuffer s = new SentMessageBuffer(3);
        for (int i = 1; i <= 3; i++) {
            s.add(new SentMessageBuffer.SentFrame(i, i, new byte[1]));
        }
        assertFalse(s.hasRoom());
        PeerStatusTable t = new PeerStatusTable(0, 3);
        t.update(1, 3, 0, 0);
        assertEquals(0, s.discardThrough(t.handledByAll()), "peer 2 has handled nothing");
        t.update(2, 2, 0, 0);
        t.update(2, 1, 0, 0); // an older STATUS arriving late changes nothing
        assertEquals(2, s.discardThrough(t.handledByAll()));
        assertTrue(s.hasRoom());
        assertEquals(3, s.oldest());
        assertEquals("[2]", t.laggingBehind(3));
    }

    @Test
    void earlyBufferIsBoundedAndDropsWhatWasAccepted() {
        EarlyMessageBuffer e = new EarlyMessageBuffer(2, 2);
        assertTrue(e.put(0, 5, new byte[1]));
        assertFalse(e.put(0, 5, new byte[1]), "already held");
        assertTrue(e.put(1, 7, new byte[1]));
        assertFalse(e.put(0, 6, new byte[1]), "full");
        assertEquals(5, e.lowest(0));
        e.dropThrough(0, 5);
        assertEquals(Long.MAX_VALUE, e.lowest(0));
        assertEquals(1, e.size());
    }

    @Test
    void nackTimerWaitsItsDelayThenRepeats() {
        NackTimer t = new NackTimer();
        t.armIfIdle(100, 50);
        t.armIfIdle(120, 50); // already armed: the first delay stands
        assertFalse(t.fire(149, 10));
        assertTrue(t.fire(150, 10));
        assertFalse(t.fire(155, 10));
        assertTrue(t.fire(160, 10));
        t.disarm();
        assertFalse(t.fire(1000, 10));
    }

    @Test
    void settingsAreValidatedWithTheBadValueInOneSentence() {
        Properties p = new Properties();
        p.setProperty(PcodeContext.FLOW_WINDOW_PROP_NAME, "lots");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PcodeContext.from(p));
        assertEquals("setting cohort.bcast.flowWindow=lots is not a whole number; use one between 1 and 1073741824",
                e.getMessage());
        p.setProperty(PcodeContext.FLOW_WINDOW_PROP_NAME, "0");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PcodeContext.from(p)).getMessage()
                .contains("flowWindow=0 is out of range"));
        PcodeContext small = new PcodeContext().datagramBytes(256);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> small.validate(40)).getMessage()
                .startsWith("setting cohort.bcast.datagramBytes=256 is too small for a domain of 40 peers"));
        assertEquals(1400 - 72 - 16, new PcodeContext().fragmentBytes(8), "a datagram less the header and the tag");
    }

    @Test
    void targetSetsRefuseRanksOutsideTheDomainAndRepeats() {
        assertEquals("[1, 3]", TargetSet.describe(TargetSet.of(new int[] {3, 1}, 4, "x")));
        assertEquals("x names rank 4, which is not in this domain of 4 peers",
                assertThrows(IllegalArgumentException.class, () -> TargetSet.of(new int[] {4}, 4, "x")).getMessage());
        assertEquals("x names rank 1 twice",
                assertThrows(IllegalArgumentException.class, () -> TargetSet.of(new int[] {1, 1}, 4, "x")).getMessage());
    }

    @Test
    void groupsAreDerivedPerJobAndParsedWithOneSentenceOnError() {
        MulticastGroup a = MulticastGroup.forJob(1);
        MulticastGroup b = MulticastGroup.forJob(2);
        assertTrue(a.address().getAddress().isMulticastAddress());
        assertTrue(a.toString().startsWith("239.255."));
        assertFalse(a.toString().equals(b.toString()));
        assertEquals("239.255.1.2:24000", MulticastGroup.parse("239.255.1.2:24000").toString());
        assertEquals("setting cohort.bcast.group=10.0.0.1:5 is not an IPv4 multicast group and port such as 239.255.1.2:24000",
                assertThrows(IllegalArgumentException.class, () -> MulticastGroup.parse("10.0.0.1:5")).getMessage());
    }
}

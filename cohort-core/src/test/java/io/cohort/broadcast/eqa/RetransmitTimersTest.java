package io.cohort.broadcast.eqa;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetransmitTimersTest {
    private static final long MS = 1_000_000L;

    /** Packets 0.. broadcast 1 ms apart, each acknowledged {@code rtt} after its broadcast by receiver 0. */
    private static long stream(RetransmitTimers t, long from, int packets, long rtt) {
        long now = from;
        for (int s = 0; s < packets; s++) {
            t.broadcast(s, now);
            t.acknowledged(0, s + 1, now + rtt);
            now += MS;
        }
        return now;
    }

    @Test
    void theConfiguredTimeoutHoldsUntilTheFirstSample() {
        RetransmitTimers t = new RetransmitTimers(3, 16, 2 * MS);
        assertEquals(2 * MS, t.timeout(0));
        assertEquals(2 * MS, t.timeout(2));
    }

    @Test
    void aSlowReceiverIsGivenItsRoundTripAndItsVariance() {
        RetransmitTimers t = new RetransmitTimers(2, 16, 2 * MS);
        stream(t, 0, 1, 8 * MS);
        // the first sample: 8 ms plus four times half of it
        assertEquals(24 * MS, t.timeout(0));
        RetransmitTimers steady = new RetransmitTimers(2, 16, 2 * MS);
        stream(steady, 0, 200, 8 * MS);
        long rto = steady.timeout(0);
        assertTrue(rto >= 8 * MS && rto < 9 * MS, "a steady 8 ms round trip: " + rto);
        assertEquals(2 * MS, steady.timeout(1), "receiver 1 gave no samples");
    }

    @Test
    void aQuickReceiverGoesDownToAQuarterOfTheConfiguredTimeoutAndNoLower() {
        RetransmitTimers t = new RetransmitTimers(1, 16, 2 * MS);
        stream(t, 0, 200, 50_000);
        assertEquals(MS / 2, t.timeout(0));
    }

    @Test
    void anAckOfAResentPacketIsNoSample() {
        RetransmitTimers t = new RetransmitTimers(1, 16, 2 * MS);
        t.broadcast(0, 0);
        t.broadcast(1, 0);
        t.resent(0, 2);
        t.acknowledged(0, 2, 900 * MS); // it may answer the resend: Karn's rule
        assertEquals(2 * MS, t.timeout(0));
        t.broadcast(2, 1000 * MS);
        t.acknowledged(0, 3, 1000 * MS + 4 * MS);
        assertEquals(12 * MS, t.timeout(0));
    }

    @Test
    void eachTimeoutDoublesUpToTheCeilingAndASampleEndsTheBackOff() {
        RetransmitTimers t = new RetransmitTimers(1, 16, 2 * MS);
        t.backOff(0);
        assertEquals(4 * MS, t.timeout(0));
        for (int i = 0; i < 20; i++) {
            t.backOff(0);
        }
        assertEquals(RetransmitTimers.MAX_NANOS, t.timeout(0));
        stream(t, 0, 1, MS);
        assertEquals(3 * MS, t.timeout(0));
    }

    @Test
    void theSendTimesAreKeptPerSequenceAcrossTheWindow() {
        RetransmitTimers t = new RetransmitTimers(1, 4, 2 * MS);
        for (int s = 0; s < 4; s++) {
            t.broadcast(s, s * 10 * MS);
        }
        t.acknowledged(0, 4, 30 * MS + 2 * MS); // packet 3, sent at 30 ms: a 2 ms sample
        assertEquals(6 * MS, t.timeout(0));
        t.broadcast(4, 40 * MS); // reuses packet 0's place
        t.acknowledged(0, 5, 41 * MS);
        assertTrue(t.smoothedRoundTrip(0) < 2 * MS, "the sample came from packet 4's own send time");
    }
}

package io.cohort.transport.udp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How long {@link UdpTransport#block} may sleep in its selector, which counts whole milliseconds: the
 * idle period may be overslept (an arrival wakes the selector), a protocol timer never (nothing
 * wakes it then). No clocks: the rounding is a pure function.
 */
@Timeout(10)
class UdpBlockTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;
    private static final long NONE = Long.MAX_VALUE;

    @Test
    void idlePeriodRoundsUpToTheSelectorsMillisecond() {
        assertEquals(1, UdpTransport.selectMillis(50 * US, NONE), "the backoff's first 50 us period");
        assertEquals(1, UdpTransport.selectMillis(0, NONE), "never 0: the selector would wait forever");
        assertEquals(1, UdpTransport.selectMillis(MS, NONE));
        assertEquals(2, UdpTransport.selectMillis(MS + 1, NONE));
        assertEquals(10, UdpTransport.selectMillis(10 * MS, NONE));
        assertEquals(Long.MAX_VALUE / MS + 1, UdpTransport.selectMillis(Long.MAX_VALUE, NONE), "no overflow");
    }

    @Test
    void aTimerDueWithinAMillisecondIsNotSleptThrough() {
        // The 1 ms retransmission time-out of a frame sent 150 us before the owner gave up spinning:
        // the old rounding slept a whole millisecond and retransmitted up to a millisecond late.
        assertEquals(0, UdpTransport.selectMillis(50 * US, 850 * US));
        assertEquals(0, UdpTransport.selectMillis(10 * MS, 200 * US), "the delayed ack");
        assertEquals(0, UdpTransport.selectMillis(10 * MS, 0), "due now");
        assertEquals(0, UdpTransport.selectMillis(10 * MS, -5 * US), "overdue");
    }

    @Test
    void aLaterTimerCapsTheSleepRoundedDown() {
        assertEquals(2, UdpTransport.selectMillis(10 * MS, 2_500 * US));
        assertEquals(1, UdpTransport.selectMillis(50 * US, 2_500 * US), "the idle period is the shorter");
        assertEquals(1, UdpTransport.selectMillis(10 * MS, MS));
    }

    @Test
    void neverPastTheTimerAndNeverForever() {
        long[] periods = {0, 1, 50 * US, 999_999, MS, MS + 1, 3 * MS, 10 * MS};
        for (long nanos : periods) {
            for (long timer = -MS; timer <= 12 * MS; timer += 37 * US) {
                long millis = UdpTransport.selectMillis(nanos, timer);
                assertTrue(millis >= 0, "never negative");
                assertTrue(millis * MS <= Math.max(0, timer), nanos + " ns idle, timer in " + timer + " ns: slept "
                        + millis + " ms past it");
                assertTrue(millis > 0 || timer < MS, "blocks when a whole millisecond is free: " + timer);
            }
        }
    }
}

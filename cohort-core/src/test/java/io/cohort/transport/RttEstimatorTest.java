package io.cohort.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Jacobson/Karels as RFC 6298 states it, with floor, ceiling and backoff. */
@Timeout(10)
class RttEstimatorTest {
    private static final long MS = 1_000_000;

    @Test
    void initialTimeoutUntilTheFirstSample() {
        RttEstimator r = new RttEstimator(20 * MS, MS, 1000 * MS);
        assertEquals(20 * MS, r.rtoNanos());
        assertFalse(r.hasSample());
        assertEquals(20 * MS, r.srttNanos(), "without a sample the time-out stands in");
    }

    @Test
    void firstAndLaterSamplesFollowTheFormulas() {
        RttEstimator r = new RttEstimator(20 * MS, 1, 1000 * MS);
        r.sample(8 * MS);
        assertEquals(8 * MS, r.srttNanos());
        assertEquals(4 * MS, r.rttvarNanos());
        assertEquals(8 * MS + 4 * 4 * MS, r.rtoNanos());
        r.sample(4 * MS);
        // RTTVAR = 3/4 * 4 + 1/4 * |8 - 4| = 4; SRTT = 7/8 * 8 + 1/8 * 4 = 7.5
        assertEquals(4 * MS, r.rttvarNanos());
        assertEquals(7_500_000, r.srttNanos());
        assertEquals(7_500_000 + 16 * MS, r.rtoNanos());
        for (int i = 0; i < 200; i++) {
            r.sample(2 * MS);
        }
        assertTrue(Math.abs(r.srttNanos() - 2 * MS) < 10_000, "converges to a steady RTT: " + r.srttNanos());
        assertTrue(r.rttvarNanos() < 10_000, "variance decays: " + r.rttvarNanos());
    }

    @Test
    void floorAndCeilingClamp() {
        RttEstimator r = new RttEstimator(20 * MS, MS, 50 * MS);
        r.sample(10_000); // 10 µs on loopback
        assertEquals(MS, r.rtoNanos(), "never below the floor");
        r.sample(400 * MS);
        assertEquals(50 * MS, r.rtoNanos(), "never above the ceiling");
        assertEquals(MS, new RttEstimator(0, MS, 50 * MS).rtoNanos());
    }

    @Test
    void backoffDoublesUpToTheCeilingAndASampleEndsIt() {
        RttEstimator r = new RttEstimator(20 * MS, MS, 100 * MS);
        r.sample(2 * MS);
        long base = r.rtoNanos();
        assertEquals(6 * MS, base);
        r.backoff();
        assertEquals(12 * MS, r.rtoNanos());
        r.backoff();
        r.backoff();
        assertEquals(48 * MS, r.rtoNanos());
        r.backoff();
        r.backoff();
        assertEquals(100 * MS, r.rtoNanos(), "capped");
        r.sample(2 * MS);
        assertTrue(r.rtoNanos() < 10 * MS, "a fresh sample (Karn: a frame sent once) ends the backoff: " + r.rtoNanos());
    }
}

package io.cohort.idle;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class LocalPauseTest {
    private static final long MS = 1_000_000L;
    private static final long T0 = Long.MAX_VALUE - 500 * MS; // near the wrap of nanoTime: differences only

    @Test
    void roundsThatFollowEachOtherAreNoPause() {
        LocalPause p = new LocalPause(T0);
        long t = T0;
        for (int i = 0; i < 1000; i++) {
            t += 10 * MS;
            assertEquals(0, p.look(t));
        }
    }

    @Test
    void aGapBeyondTheThresholdIsReportedWhole() {
        LocalPause p = new LocalPause(T0);
        assertEquals(0, p.look(T0 + 5 * MS));
        assertEquals(40_000 * MS, p.look(T0 + 5 * MS + 40_000 * MS));
        assertEquals(0, p.look(T0 + 5 * MS + 40_010 * MS), "counted once");
    }

    @Test
    void aGapUpToTheThresholdIsNone() {
        LocalPause p = new LocalPause(T0);
        assertEquals(0, p.look(T0 + LocalPause.THRESHOLD_NANOS));
        assertEquals(LocalPause.THRESHOLD_NANOS + 1, p.look(T0 + 2 * LocalPause.THRESHOLD_NANOS + 1));
    }

    @Test
    void aPlannedWaitIsNoPauseButSleepingPastItIs() {
        LocalPause p = new LocalPause(T0);
        p.waitingUntil(T0 + 5_000 * MS);
        assertEquals(0, p.look(T0 + 5_000 * MS), "woke when it meant to");
        p.waitingUntil(T0 + 6_000 * MS);
        assertEquals(0, p.look(T0 + 5_500 * MS), "woke early");
        p.waitingUntil(T0 + 6_000 * MS);
        assertEquals(3_000 * MS, p.look(T0 + 9_000 * MS), "slept 3 s past the planned wake");
    }

    @Test
    void resetForgetsTheTimeBefore() {
        LocalPause p = new LocalPause(T0);
        p.reset(T0 + 60_000 * MS);
        assertEquals(0, p.look(T0 + 60_010 * MS));
    }
}

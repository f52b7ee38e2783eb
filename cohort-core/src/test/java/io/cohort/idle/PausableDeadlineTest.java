package io.cohort.idle;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class PausableDeadlineTest {
    @Test
    void aWaitIsCutIntoLooksOfAtMostATenthOfASecond() {
        PausableDeadline d = new PausableDeadline(TimeUnit.SECONDS.toNanos(60));
        long left = d.remaining();
        assertTrue(left > TimeUnit.SECONDS.toNanos(59) && left <= TimeUnit.SECONDS.toNanos(60), "left " + left);
        assertTrue(d.nextWait() == PausableDeadline.MAX_WAIT_NANOS);
    }

    @Test
    void aPassedDeadlineHasNothingLeft() {
        PausableDeadline d = new PausableDeadline(0);
        assertTrue(d.remaining() <= 0);
        assertTrue(d.nextWait() <= 0);
    }
}

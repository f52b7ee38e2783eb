package io.cohort.daemon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@Timeout(5)
class DrainReasonTest {
    @Test
    void oneShortLineIsADrainReasonAndNothingElseIs() {
        assertNull(DrainReason.check("new disk, back on Monday"));
        assertNull(DrainReason.check("x".repeat(DrainReason.MAX)));
        assertEquals("a drain reason is at most 200 characters, not 40000",
                DrainReason.check("x".repeat(40_000)));
        assertEquals("a drain reason is one line of text, without line breaks or control characters",
                DrainReason.check("fan\nall  m2  up"));
        assertEquals("a drain reason must say why", DrainReason.check(" "));
    }
}

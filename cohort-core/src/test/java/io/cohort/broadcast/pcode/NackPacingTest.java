package io.cohort.broadcast.pcode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class NackPacingTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;
    private final PcodeContext ctx = new PcodeContext().requestNackDelayMicros(1_000).nackIntervalMicros(5_000)
            .nackCeilingMicros(100_000);

    @Test
    void withoutMeasurementsTheSettingsRuleAndRepeatsBackOff() {
        NackPacing p = new NackPacing(ctx, 4);
        assertEquals(1 * MS, p.requestDelay());
        p.need(1, 7, 10 * MS);
        assertEquals(5 * MS, p.repeatInterval(1));
        p.nackSent(1, 11 * MS);
        assertEquals(5 * MS, p.repeatInterval(1), "the first repeat waits one interval");
        p.nackSent(1, 16 * MS);
        assertEquals(10 * MS, p.repeatInterval(1), "then every repeat doubles it");
        for (int i = 0; i < 40; i++) {
            p.nackSent(1, 20 * MS);
        }
        assertEquals(100 * MS, p.repeatInterval(1), "up to the ceiling");
        p.arrived(1, 7, true, 200 * MS);
        assertEquals(5 * MS, p.repeatInterval(1), "a need that is met ends its backoff");
    }

    @Test
    void originalsArrivingLaterThanTheDelayLengthenIt() {
        NackPacing p = new NackPacing(ctx, 4);
        for (int i = 0; i < 20; i++) {
            long t = i * 100 * MS;
            p.need(2, i, t);
            p.nackSent(2, t + MS); // premature: the original is only queued behind others
            p.arrived(2, i, false, t + 6 * MS);
        }
        assertTrue(p.requestDelay() >= 6 * MS, "the delay covers the measured lateness: " + p.requestDelay());
        assertTrue(p.requestDelay() <= 100 * MS);
    }

    @Test
    void aFastMediumLeavesTheConfiguredDelay() {
        NackPacing p = new NackPacing(ctx, 4);
        for (int i = 0; i < 50; i++) {
            long t = i * MS;
            p.need(0, i, t);
            p.arrived(0, i, false, t + 40 * US + (i % 5) * 10 * US);
        }
        assertEquals(1 * MS, p.requestDelay());
    }

    @Test
    void aSlowRecoveryRoundTripLengthensTheRepeatInterval() {
        NackPacing p = new NackPacing(ctx, 4);
        for (int i = 0; i < 10; i++) {
            long t = i * 100 * MS;
            p.need(3, i, t);
            p.nackSent(3, t + MS);
            p.arrived(3, i, true, t + 21 * MS);
        }
        assertTrue(p.repeatInterval(3) >= 20 * MS, "interval " + p.repeatInterval(3));
        assertTrue(p.baseInterval() >= 20 * MS);
    }

    @Test
    void karnsRuleIgnoresAnAnswerToARepeatedNack() {
        NackPacing p = new NackPacing(ctx, 4);
        p.need(1, 0, 0);
        p.nackSent(1, MS);
        p.nackSent(1, 6 * MS);
        p.arrived(1, 0, true, 60 * MS); // answers the first or the second NACK? Unknown, so no sample
        assertEquals(5 * MS, p.baseInterval());
    }

    @Test
    void framesOtherThanTheAwaitedOneMeasureNothing() {
        NackPacing p = new NackPacing(ctx, 4);
        p.need(1, 5, 0);
        p.nackSent(1, MS);
        p.arrived(1, 6, false, 80 * MS);
        p.arrived(2, 5, false, 80 * MS);
        assertEquals(1 * MS, p.requestDelay());
        p.arrived(1, 5, false, 80 * MS);
        assertTrue(p.requestDelay() > 1 * MS);
    }

    @Test
    void theCeilingIsABadSettingBelowTenMicroseconds() {
        java.util.Properties props = new java.util.Properties();
        props.setProperty(PcodeContext.NACK_CEILING_MICROS_PROP_NAME, "5");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> PcodeContext.from(props));
        assertTrue(e.getMessage().contains(PcodeContext.NACK_CEILING_MICROS_PROP_NAME), e.getMessage());
    }
}

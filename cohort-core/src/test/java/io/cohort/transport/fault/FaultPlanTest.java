package io.cohort.transport.fault;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The spec grammar: what parses, what it means, and one clear sentence for what does not. */
@Timeout(10)
class FaultPlanTest {
    @Test
    void theDocumentedExampleParses() {
        FaultPlan p = FaultPlan.parse("loss=0.05,burst=0.01:8,dup=0.01,reorder=0.02,delay=2ms,jitter=1ms,seed=7");
        assertEquals(0.05, p.loss());
        assertEquals(0.01, p.burstRate());
        assertEquals(8, p.burstLength());
        assertEquals(0.01, p.duplication());
        assertEquals(0.02, p.reorder());
        assertEquals(FaultPlan.REORDER_DEPTH_DEFAULT, p.reorderDepth());
        assertEquals(2_000_000, p.delayNanos());
        assertEquals(1_000_000, p.jitterNanos());
        assertEquals(7, p.seed());
        assertEquals(FaultPlan.Side.RECEIVE, p.side());
        assertFalse(p.isNone());
    }

    @Test
    void unitsPercentagesSpacesAndCase() {
        FaultPlan p = FaultPlan.parse(" LOSS = 5% , reorder=0.1:3, hold=250us, delay=1.5ms, jitter=100ns, side=both, seed=-3 ");
        assertEquals(0.05, p.loss(), 1e-12);
        assertEquals(3, p.reorderDepth());
        assertEquals(250_000, p.holdNanos());
        assertEquals(1_500_000, p.delayNanos());
        assertEquals(100, p.jitterNanos());
        assertEquals(FaultPlan.Side.BOTH, p.side());
        assertEquals(-3, p.seed());
        assertEquals(2_000_000_000L, FaultPlan.parse("delay=2s").delayNanos());
        assertEquals(0, FaultPlan.parse("delay=0").delayNanos());
    }

    @Test
    void emptyAndNoneMeanNoFaults() {
        assertSame(FaultPlan.NONE, FaultPlan.parse(null));
        assertSame(FaultPlan.NONE, FaultPlan.parse(""));
        assertSame(FaultPlan.NONE, FaultPlan.parse(" none "));
        assertTrue(FaultPlan.parse("seed=9").isNone(), "a seed alone injects nothing");
        assertEquals("none", FaultPlan.NONE.toString());
    }

    @Test
    void canonicalFormParsesBackToTheSamePlan() {
        FaultPlan p = FaultPlan.parse("loss=0.05,burst=0.01:8,dup=0.01,reorder=0.02:4,hold=3ms,delay=2ms,jitter=1ms,seed=7,side=send");
        assertEquals(p.toString(), FaultPlan.parse(p.toString()).toString());
    }

    @Test
    void seedsPerPortDifferButFollowFromTheOneSeed() {
        FaultPlan p = FaultPlan.parse("loss=0.1,seed=7");
        assertEquals(p.seedFor(3), FaultPlan.parse("loss=0.2,seed=7").seedFor(3));
        assertTrue(p.seedFor(0) != p.seedFor(1));
        assertTrue(p.seedFor(0) != FaultPlan.parse("loss=0.1,seed=8").seedFor(0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "loss=1.5|'loss=1.5' needs a probability",
        "loss=-0.1|'loss=-0.1' needs a probability",
        "loss=abc|'loss=abc' needs a probability",
        "loss=|'loss=' needs a probability",
        "loss=5%%|'loss=5%%' needs a probability",
        "dup=200%|'dup=200%' needs a probability",
        "burst=0.1|'burst=0.1' needs a rate and a length",
        "burst=0.1:0|'burst=0.1:0' needs a burst length from 1",
        "reorder=0.1:0|'reorder=0.1:0' needs a reorder depth from 1 to 1000",
        "delay=5|'delay=5' needs a unit",
        "delay=-1ms|'delay=-1ms' needs a duration from 0 to 60s",
        "jitter=2min|'jitter=2min' needs a unit: ns, us, ms or s",
        "delay=61s|'delay=61s' needs a duration from 0 to 60s",
        "hold=0|'hold=0' needs a duration above 0",
        "seed=x|'seed=x' needs a whole number",
        "side=up|'side=up' must be receive, send or both",
        "lose=0.1|'lose=0.1' names no fault; known keys are loss",
        "loss=0.1,,dup=0.1|'' is empty",
        "loss=0.1,loss=0.2|'loss=0.2' repeats 'loss'",
        "loss|'loss' is not key=value",
    })
    void badSpecsNameTheBadTokenInOneSentence(String spec, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FaultPlan.parse(spec));
        assertTrue(e.getMessage().startsWith("fault spec '" + spec + "': "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}

package io.cohort.idle;

import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Isolated // sets a system property other tests' peers read: runs with no other class beside it
@Timeout(10)
class IdleStrategiesTest {
    /** Records what a strategy asked to block for, without blocking. */
    static final class RecordingBlocker implements Blocker {
        final List<Long> calls = new ArrayList<>();

        @Override
        public void block(long nanos) {
            calls.add(nanos);
        }
    }

    @Test
    void everyNamedStrategyExistsAndKnowsItsName() {
        assertEquals(List.of("busy-spin", "yield", "backoff", "park"), IdleStrategies.NAMES);
        for (String name : IdleStrategies.NAMES) {
            IdleStrategy s = IdleStrategies.factory(name).get();
            assertEquals(name, s.name());
            assertNotSame(s, IdleStrategies.factory(name).get(), "strategies keep per-thread state: one per get()");
        }
        assertEquals("busy-spin", IdleStrategies.factory("spin").get().name());
        assertEquals("backoff", IdleStrategies.factory("  BackOff ").get().name());
        assertEquals(IdleStrategies.IDLE_DEFAULT, "backoff");
    }

    /** How many idle calls a fresh strategy makes before its first block. */
    private static int callsBeforeBlocking(IdleStrategy s) {
        RecordingBlocker b = new RecordingBlocker();
        int calls = 0;
        while (b.calls.isEmpty()) {
            s.idle(b);
            calls++;
        }
        return calls - 1;
    }

    @Test
    void backoffSpinsThenYieldsForItsWindowThenBlocks() {
        IdleStrategy s = IdleStrategies.factory("backoff").get();
        long start = System.nanoTime();
        int calls = callsBeforeBlocking(s);
        long took = System.nanoTime() - start;
        assertTrue(took >= IdleStrategies.BACKOFF_YIELD_NANOS, "yields for its window before blocking: " + took + " ns");
        assertTrue(calls >= IdleStrategies.BACKOFF_SPINS_DEFAULT + IdleStrategies.BACKOFF_YIELDS_DEFAULT,
                "every spin and at least the yields: " + calls);
        // After a reset (work was done) the next wait polls for the whole window again.
        s.reset();
        start = System.nanoTime();
        callsBeforeBlocking(s);
        assertTrue(System.nanoTime() - start >= IdleStrategies.BACKOFF_YIELD_NANOS);
    }

    @Test
    void backoffOnAProcessorAnotherPeerSharesYieldsAtOnceThenBlocks() {
        IdleStrategy shared = IdleStrategies.factory("backoff", true).get();
        assertEquals("backoff", shared.name());
        long start = System.nanoTime();
        int calls = callsBeforeBlocking(shared);
        long took = System.nanoTime() - start;
        assertTrue(took >= IdleStrategies.BACKOFF_SHARED_YIELD_NANOS, "yields for its window before blocking: " + took + " ns");
        assertTrue(calls >= 1, "at least one yield");
        // The other strategies are what the user chose, shared or not.
        assertInstanceOf(BusySpinIdleStrategy.class, IdleStrategies.factory("busy-spin", true).get());
        assertInstanceOf(YieldingIdleStrategy.class, IdleStrategies.factory("yield", true).get());
    }

    @Test
    void unknownNameListsTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IdleStrategies.factory("sleepy"));
        assertTrue(e.getMessage().contains("'sleepy'"), e.getMessage());
        for (String name : IdleStrategies.NAMES) {
            assertTrue(e.getMessage().contains(name), e.getMessage());
        }
    }

    @Test
    void configuredHonoursTheSystemProperty() {
        String old = System.getProperty(IdleStrategies.IDLE_PROP_NAME);
        try {
            System.setProperty(IdleStrategies.IDLE_PROP_NAME, "park");
            assertEquals("park", IdleStrategies.configured().get().name());
            System.setProperty(IdleStrategies.IDLE_PROP_NAME, "nonsense");
            assertThrows(IllegalArgumentException.class, IdleStrategies::configured);
        } finally {
            if (old == null) {
                System.clearProperty(IdleStrategies.IDLE_PROP_NAME);
            } else {
                System.setProperty(IdleStrategies.IDLE_PROP_NAME, old);
            }
        }
    }

    @Test
    void backoffSpinsThenYieldsThenBlocksWithGrowingPeriods() {
        BackoffIdleStrategy s = new BackoffIdleStrategy(3, 2, 100, 1000);
        RecordingBlocker b = new RecordingBlocker();
        for (int i = 0; i < 5; i++) {
            s.idle(b);
        }
        assertEquals(List.of(), b.calls, "3 spins and 2 yields come before any blocking");
        for (int i = 0; i < 7; i++) {
            s.idle(b);
        }
        assertEquals(List.of(100L, 200L, 400L, 800L, 1000L, 1000L, 1000L), b.calls, "doubling up to the maximum");

        s.reset();
        b.calls.clear();
        for (int i = 0; i < 5; i++) {
            s.idle(b);
        }
        assertEquals(List.of(), b.calls, "reset goes back to spinning");
        s.idle(b);
        s.idle(b);
        assertEquals(List.of(100L, 200L), b.calls, "and to the minimum period");
    }

    @Test
    void backoffWithDefaultsReachesTheDefaultMaximum() {
        IdleStrategy s = IdleStrategies.factory("backoff").get();
        assertInstanceOf(BackoffIdleStrategy.class, s);
        RecordingBlocker b = new RecordingBlocker();
        int before = IdleStrategies.BACKOFF_SPINS_DEFAULT + IdleStrategies.BACKOFF_YIELDS_DEFAULT;
        for (int i = 0; i < before; i++) {
            s.idle(b);
        }
        assertEquals(List.of(), b.calls);
        while (b.calls.size() < 20) { // past the yield window, then twenty blocks (recorded, not slept)
            s.idle(b);
        }
        assertEquals(IdleStrategies.BACKOFF_MIN_BLOCK_NANOS, b.calls.get(0));
        assertEquals(IdleStrategies.BACKOFF_MAX_BLOCK_NANOS, b.calls.get(b.calls.size() - 1));
        for (int i = 1; i < b.calls.size(); i++) {
            assertTrue(b.calls.get(i) >= b.calls.get(i - 1), "periods never shrink: " + b.calls);
            assertTrue(b.calls.get(i) <= IdleStrategies.BACKOFF_MAX_BLOCK_NANOS, b.calls.toString());
        }
    }

    @Test
    void backoffRejectsBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(-1, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(0, -1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(0, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(0, 0, 10, 5));
        new BackoffIdleStrategy(0, 0, 1, 1).idle(new RecordingBlocker());
    }

    @Test
    void parkBlocksEveryTimeSpinAndYieldNever() {
        RecordingBlocker b = new RecordingBlocker();
        IdleStrategy park = IdleStrategies.factory("park").get();
        park.idle(b);
        park.reset();
        park.idle(b);
        assertEquals(List.of(IdleStrategies.BACKOFF_MAX_BLOCK_NANOS, IdleStrategies.BACKOFF_MAX_BLOCK_NANOS), b.calls);
        b.calls.clear();
        for (String name : List.of("busy-spin", "yield")) {
            IdleStrategy s = IdleStrategies.factory(name).get();
            for (int i = 0; i < 1000; i++) {
                s.idle(b);
            }
            s.reset();
        }
        assertEquals(List.of(), b.calls);
    }

    @Test
    void parkBlockerReturns() {
        long t0 = System.nanoTime();
        Blocker.PARK.block(1_000_000);
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L);
    }
}

package io.cohort.daemon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class ReplayGuardTest {
    @Test
    void aNonceIsAcceptedOnceWithinTheWindow() {
        ReplayGuard g = new ReplayGuard(1000, 100);
        assertTrue(g.firstSighting(7, 5000, 5000));
        assertFalse(g.firstSighting(7, 5000, 6999));
        assertTrue(g.firstSighting(8, 5000, 5000));
    }

    @Test
    void aDaemonsGuardPlacesTimestampsBeforeItsStartAndAClientsHasNoFloor() {
        ReplayGuard daemon = ReplayGuard.startingAt(30_000, 100, 5000);
        assertEquals(1, daemon.beforeStart(4999));
        assertEquals(0, daemon.beforeStart(5000));
        assertEquals(0, new ReplayGuard(30_000, 100).beforeStart(Long.MIN_VALUE + 1));
    }

    @Test
    void noncesAreForgottenAfterTwiceTheSkew() {
        ReplayGuard g = new ReplayGuard(1000, 100);
        g.firstSighting(7, 5000, 5000);
        assertEquals(1, g.size());
        g.firstSighting(9, 7001, 7001); // 2001 ms later: 7 expires
        assertEquals(1, g.size());
    }

    @Test
    void memoryIsBoundedAndAFullGuardRaisesAFloorInsteadOfForgettingReplays() {
        ReplayGuard g = new ReplayGuard(60_000, 10);
        for (int i = 0; i < 10; i++) {
            assertTrue(g.firstSighting(i, 1000 + i, 2000));
        }
        assertTrue(g.firstSighting(100, 2000, 2000)); // evicts nonce 0 (timestamp 1000)
        assertEquals(10, g.size());
        assertEquals(1000, g.floor());
        assertFalse(g.firstSighting(0, 1000, 2000), "the evicted nonce's replay is still refused, by the floor");
        for (int i = 0; i < 10_000; i++) {
            g.firstSighting(1000 + i, 3000 + i, 3000);
        }
        assertEquals(10, g.size());
    }
}

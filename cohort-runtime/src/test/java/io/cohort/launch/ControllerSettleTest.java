package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a job whose peers have all exited may end, before the settle time-out decides anyway. */
@Timeout(5)
class ControllerSettleTest {
    @Test
    void endsOnceEveryPeerIsSettledAndNoConnectionIsPending() {
        assertTrue(Controller.settled(true, 0, 4, 4));
        assertTrue(Controller.settled(true, 0, 2, 4), "ranks that never said hello are settled by their exit alone");
    }

    @Test
    void waitsForPeersNotSettledYet() {
        assertFalse(Controller.settled(false, 0, 4, 4));
        assertFalse(Controller.settled(false, 3, 4, 4));
    }

    @Test
    void anUnidentifiedConnectionMayBeALatePeersHelloWhileSomeRankHasNotSaidOne() {
        assertFalse(Controller.settled(true, 1, 3, 4));
        assertFalse(Controller.settled(true, 2, 0, 4));
    }

    @Test
    void onceEveryRankHasSaidHelloAnUnidentifiedConnectionIsAStrangersAndDoesNotDelayTheEnd() {
        // Before, a silent connection to the control port (a port scan, a stray client) held the end
        // of every such job back by the whole settle time-out.
        assertTrue(Controller.settled(true, 1, 4, 4));
        assertTrue(Controller.settled(true, 5, 1, 1));
    }
}

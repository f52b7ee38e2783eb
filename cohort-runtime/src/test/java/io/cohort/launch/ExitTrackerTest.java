package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(5)
class ExitTrackerTest {
    private static ExitTracker tracker(int n) {
        String[] hosts = new String[n];
        Arrays.fill(hosts, "node1");
        return new ExitTracker("cafe0001", hosts);
    }

    @Test
    void allZeroIsSuccess() {
        ExitTracker t = tracker(3);
        for (int r = 0; r < 3; r++) {
            assertFalse(t.exited(r, 0, false));
        }
        JobOutcome o = t.outcome();
        assertEquals(0, o.exitCode());
        assertNull(o.summary());
    }

    @Test
    void peersRefusedBecauseTheJobWasStoppingWereStoppedNotFailed() {
        ExitTracker t = tracker(4);
        t.controlConnected(1);
        t.exited(2, 1, false); // threw before it joined: the root cause
        t.stopping();
        t.refusedWhileStopping(0); // their hellos came after the stop began: refused, they exit 1
        t.refusedWhileStopping(3);
        t.exited(0, 1, false);
        t.exited(3, 1, false);
        t.exited(1, 143, true);
        t.controlClosed(1);
        JobOutcome o = t.outcome();
        assertEquals(1, o.exitCode());
        assertEquals(2, o.rootCauseRank());
        assertEquals("cohort: job cafe0001 failed: rank 2 on node1 exited with status 1 (root cause); 3 other peers were stopped",
                o.summary());
    }

    @Test
    void rootCauseWinsOverCollateralThatReportedFirst() {
        ExitTracker t = tracker(3);
        for (int r = 0; r < 3; r++) {
            t.controlConnected(r);
        }
        // Rank 1 saw rank 2 vanish, and its EXITED overtakes rank 2's.
        t.peerFailure(1, 2, "connection reset");
        assertTrue(t.exited(1, 1, false));
        t.stopping();
        t.exited(2, 3, false);
        t.exited(0, 143, true);
        for (int r = 0; r < 3; r++) {
            t.controlClosed(r);
        }
        assertTrue(t.allSettled());
        JobOutcome o = t.outcome();
        assertEquals(3, o.exitCode());
        assertEquals(2, o.rootCauseRank());
        assertEquals("cohort: job cafe0001 failed: rank 2 on node1 exited with status 3 (root cause); 2 other peers were stopped",
                o.summary());
    }

    @Test
    void aPeerThatFailedWaitingForAFailedPeersClosedWorldIsCollateralWhicheverExitCameFirst() {
        // Rank 1 threw inside try-with-resources: its world closed first, so ranks 0 and 2 saw a clean
        // goodbye, their receives failed, and they exited 1 too, possibly before rank 1 did.
        for (int first : new int[] {0, 1, 2}) {
            ExitTracker t = tracker(3);
            for (int r = 0; r < 3; r++) {
                t.controlConnected(r);
            }
            t.awaitedClosed(0, 1);
            t.awaitedClosed(2, 1);
            t.exited(first, 1, false);
            for (int r = 0; r < 3; r++) {
                t.exited(r, 1, false);
                t.controlClosed(r);
            }
            JobOutcome o = t.outcome();
            assertEquals(1, o.rootCauseRank(), "exit of rank " + first + " first");
            assertEquals("cohort: job cafe0001 failed: rank 1 on node1 exited with status 1 (root cause); 2 other peers were stopped",
                    o.summary());
        }
    }

    @Test
    void aPeerLeftWaitingByOneThatClosedAndWasThenStoppedByTheLauncherIsTheRootCause() {
        // Rank 1 skipped a call and went on past the grace period; the launcher's stop ended it.
        ExitTracker t = tracker(2);
        t.controlConnected(0);
        t.controlConnected(1);
        t.awaitedClosed(0, 1);
        t.exited(0, 1, false);
        t.stopping();
        t.exited(1, 143, true);
        t.controlClosed(0);
        t.controlClosed(1);
        JobOutcome o = t.outcome();
        assertEquals(0, o.rootCauseRank());
        assertEquals("cohort: job cafe0001 failed: rank 0 on node1 exited with status 1 (root cause); 1 other peer was stopped",
                o.summary());
    }

    @Test
    void inAChainOfClosedWorldsTheFirstToFailIsTheRootCause() {
        ExitTracker t = tracker(4);
        for (int r = 0; r < 4; r++) {
            t.controlConnected(r);
        }
        t.awaitedClosed(0, 1);
        t.awaitedClosed(2, 1);
        t.awaitedClosed(3, 2);
        for (int r : new int[] {3, 2, 0, 1}) {
            t.exited(r, 1, false);
            t.controlClosed(r);
        }
        JobOutcome o = t.outcome();
        assertEquals(1, o.rootCauseRank());
    }

    @Test
    void aPeerLeftWaitingByOneThatClosedAndExitedNormallyIsTheRootCause() {
        // Rank 1 skipped a call the others made and ended cleanly: rank 0's failure is the one to show.
        ExitTracker t = tracker(2);
        t.controlConnected(0);
        t.controlConnected(1);
        t.awaitedClosed(0, 1);
        t.exited(1, 0, false);
        t.exited(0, 1, false);
        t.controlClosed(0);
        t.controlClosed(1);
        JobOutcome o = t.outcome();
        assertEquals(0, o.rootCauseRank());
        assertEquals("cohort: job cafe0001 failed: rank 0 on node1 exited with status 1 (root cause)", o.summary());
    }

    @Test
    void aKillSeenByAnotherPeerBeforeTheStopIsTheRootCauseThoughItsExitArrivesAfter() {
        for (boolean reportFirst : new boolean[] {true, false}) {
            ExitTracker t = tracker(3);
            // Rank 0 lost rank 3's connection and exited; rank 3's SIGKILL, on another host, is
            // reported only after the launcher began stopping the job.
            if (reportFirst) {
                t.peerFailure(0, 2, "closed its connection");
            }
            assertTrue(t.exited(0, 1, false));
            t.stopping();
            if (!reportFirst) {
                t.peerFailure(0, 2, "closed its connection");
            }
            t.peerFailure(1, 2, "closed its connection");
            t.exited(1, 143, true);
            t.exited(2, 137, false);
            JobOutcome o = t.outcome();
            assertEquals(137, o.exitCode(), "report first: " + reportFirst);
            assertEquals(2, o.rootCauseRank());
        }
    }

    @Test
    void aFrozenPeerLostByAnotherAndThenStoppedIsDescribedByWhatTheOtherSawNotAsAnOutsideKill() {
        ExitTracker t = tracker(3);
        // Rank 2 was frozen (SIGSTOP): rank 0 lost it and exited; the stop's SIGKILL ended rank 2.
        t.peerFailure(0, 2, "rank 2 sent nothing for 4000 ms; presumed dead or unreachable");
        t.exited(0, 1, false);
        t.stopping();
        t.exited(1, 143, true);
        t.exited(2, 137, true);
        JobOutcome o = t.outcome();
        assertEquals(137, o.exitCode());
        assertEquals(2, o.rootCauseRank());
        assertTrue(o.summary().contains("failed: rank 2 on node1 was lost by rank 0 (rank 2 sent nothing for 4000 ms;"
                + " presumed dead or unreachable) while it still ran, and the launcher stopped it (root cause)"), o.summary());
    }

    @Test
    void peersStoppedByTheLauncherStayCollateralThoughOthersSawThemGo() {
        ExitTracker t = tracker(3);
        t.stopping(); // Ctrl-C: nothing had failed
        t.peerFailure(1, 2, "closed its connection");
        t.exited(2, 143, true);
        t.exited(1, 1, false);
        t.exited(0, 143, true);
        JobOutcome o = t.outcome();
        assertTrue(o.summary().contains("no root cause found"), o.summary());
    }

    @Test
    void exitedBeforeControlEofIsNotSettled() {
        ExitTracker t = tracker(2);
        t.controlConnected(0);
        t.exited(0, 1, false);
        assertFalse(t.settled(0), "PEER_FAILURE may still be on its way");
        t.peerFailure(0, 1, "lost");
        t.controlClosed(0);
        assertTrue(t.settled(0));
        assertTrue(t.collateral(0));
    }

    @Test
    void peerThatNeverConnectedSettlesOnExit() {
        ExitTracker t = tracker(1);
        t.exited(0, 0, false);
        assertTrue(t.allSettled());
    }

    @Test
    void killedBySignalNamesTheSignal() {
        ExitTracker t = tracker(2);
        t.exited(1, 137, false);
        t.stopping();
        t.exited(0, 143, true);
        JobOutcome o = t.outcome();
        assertEquals(137, o.exitCode());
        assertEquals("cohort: job cafe0001 failed: rank 1 on node1 was killed by signal 9 (SIGKILL) or exited with status 137 (root cause); "
                + "1 other peer was stopped", o.summary());
    }

    @Test
    void killBeforeStopIsRootCauseEvenIfFlaggedLater() {
        ExitTracker t = tracker(2);
        t.exited(0, 143, false); // TERM from outside, not from us
        t.stopping();
        t.exited(1, 143, true);
        assertFalse(t.collateral(0));
        assertTrue(t.collateral(1));
        assertEquals(0, t.outcome().rootCauseRank());
    }

    @Test
    void stoppedButExitingWithOwnStatusIsNotCollateral() {
        ExitTracker t = tracker(2);
        t.exited(0, 2, false);
        t.stopping();
        t.exited(1, 5, true); // its own shutdown hook chose 5: that is its own failure
        assertFalse(t.collateral(1));
        assertEquals(0, t.outcome().rootCauseRank());
    }

    @Test
    void allCollateralNamesTheLostPeer() {
        ExitTracker t = tracker(2);
        t.peerFailure(0, 1, "connection\nreset");
        t.exited(0, 1, false);
        t.peerFailure(1, 0, "gone");
        t.exited(1, 1, false);
        JobOutcome o = t.outcome();
        assertEquals(1, o.exitCode());
        assertEquals(0, o.rootCauseRank());
        assertEquals("cohort: job cafe0001 failed: rank 0 on node1 exited with status 1 (no root cause found: "
                + "it lost rank 1: connection reset); 1 other peer was stopped", o.summary());
    }

    @Test
    void firstReportedNonCollateralIsTheRootCause() {
        ExitTracker t = tracker(3);
        t.exited(2, 7, false);
        t.exited(0, 9, false);
        t.exited(1, 0, false);
        assertEquals(7, t.outcome().exitCode());
        assertEquals(2, t.outcome().rootCauseRank());
    }

    @Test
    void peersThatFailedOnTheirOwnAreNamedNotCountedAsStopped() {
        ExitTracker t = tracker(4);
        t.exited(2, 3, false);
        t.exited(0, 3, false); // its own failure, before the stop reached it
        t.stopping();
        t.exited(1, 143, true);
        t.exited(3, 0, false);
        JobOutcome o = t.outcome();
        assertEquals(2, o.rootCauseRank());
        assertEquals("cohort: job cafe0001 failed: rank 2 on node1 exited with status 3 (root cause); "
                + "rank 0 also failed (exited with status 3); 1 other peer was stopped", o.summary());
    }

    @Test
    void manyPeersThatFailedOnTheirOwnAreListedUpToALimit() {
        ExitTracker t = tracker(12);
        for (int r = 0; r < 12; r++) {
            t.exited(r, 1, false);
        }
        assertEquals("cohort: job cafe0001 failed: rank 0 on node1 exited with status 1 (root cause); "
                + "ranks 1, 2, 3, 4, 5, 6, 7, 8 and 3 more also failed", t.outcome().summary());
    }

    @Test
    void describeExitForSignalsAndStatuses() {
        ExitTracker t = tracker(1);
        assertEquals("rank 0 on node1 exited with status 128", t.describeExit(0, 128));
        assertEquals("rank 0 on node1 was killed by signal 11 (SIGSEGV) or exited with status 139", t.describeExit(0, 139));
        assertEquals("rank 0 on node1 was killed by signal 40 or exited with status 168", t.describeExit(0, 168));
        assertEquals("rank 0 on node1 exited with status 255", t.describeExit(0, 255));
    }

    @Test
    void secondExitReportIsIgnored() {
        ExitTracker t = tracker(1);
        assertTrue(t.exited(0, 4, false));
        assertFalse(t.exited(0, 0, false));
        assertEquals(4, t.outcome().exitCode());
    }
}

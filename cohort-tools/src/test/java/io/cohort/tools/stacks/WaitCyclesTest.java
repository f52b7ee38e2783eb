package io.cohort.tools.stacks;

import io.cohort.stacks.JobStacks;
import io.cohort.stacks.PeerWait;
import io.cohort.stacks.ThreadStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

import static io.cohort.tools.stacks.StackTreeTest.f;
import static io.cohort.tools.stacks.StackTreeTest.thread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class WaitCyclesTest {
    private static ThreadStack receiving(int from) {
        return thread("main", false, Thread.State.WAITING, null, f("app.Ring", "main", 7))
                .withWait(new PeerWait(PeerWait.RECEIVE, from, 0, 5));
    }

    /** A job where rank r's main thread receives from {@code from(r)} (negative: not waiting). */
    private static JobStacks job(int n, IntUnaryOperator from) {
        return StackTreeTest.job(n, r -> from.applyAsInt(r) < 0 ? List.of(thread("main", false, Thread.State.RUNNABLE, null,
                f("app.Ring", "main", 9))) : List.of(receiving(from.applyAsInt(r))));
    }

    private static String format(JobStacks job) {
        StringBuilder b = new StringBuilder();
        WaitCycles.format(b, job);
        return b.toString();
    }

    @Test
    void twoRanksThatReceiveFromEachOther() {
        // 0 <-> 3; 1 and 2 wait for 0 but nobody waits for them.
        assertEquals("\nwaiting for each other:\n  ranks 0 and 3: rank 0 to receive from rank 3, rank 3 to receive from rank 0\n",
                format(job(4, r -> r == 0 ? 3 : 0)));
    }

    /** Rank 0 in a shared-memory barrier waits for rank 1's phase; rank 1 receives from rank 0. */
    @Test
    void aSharedMemoryStepIsOneEdgeOfACycle() {
        JobStacks j = StackTreeTest.job(2, r -> List.of(r == 1 ? receiving(0)
                : thread("main", false, Thread.State.WAITING, null, f("app.Ring", "main", 7))
                        .withWait(new PeerWait(PeerWait.PHASE, 1, -1, -1))));
        assertEquals("\nwaiting for each other:\n  ranks 0 and 1: rank 0 to see a shared-memory step finished by rank 1,"
                + " rank 1 to receive from rank 0\n", format(j));
    }

    @Test
    void aLongerRingIsShownByItsFirstSteps() {
        String three = format(job(3, r -> (r + 1) % 3));
        assertEquals("\nwaiting for each other:\n  ranks [0-2]: rank 0 to receive from rank 1, rank 1 to receive from rank 2,"
                + " rank 2 to receive from rank 0\n", three);
        String ring = format(job(65_536, r -> (r + 1) % 65_536));
        assertTrue(ring.startsWith("\nwaiting for each other:\n  ranks [0-65535]: rank 0 to receive from rank 1, rank 1 to"
                + " receive from rank 2,"), ring);
        assertTrue(ring.endsWith(", rank 5 to receive from rank 6, and 65530 more back to rank 0\n"), ring);
    }

    @Test
    void chainsReceivesFromAnyRankAndRunningRanksMakeNoCycle() {
        assertEquals("", format(job(4, r -> r == 3 ? -1 : r + 1)), "a chain ending in a running rank");
        assertEquals("", format(job(2, r -> PeerWait.ANY)), "receives from any rank point nowhere");
        assertEquals("", format(job(1, r -> 0)), "a rank waiting for itself is no cycle of ranks");
    }

    @Test
    void aSendThatWaitsForItsReceiverCountsAndSeparateGroupsEachGetALine() {
        List<ThreadStack>[] threads = new List[6];
        for (int r = 0; r < 6; r++) {
            threads[r] = new ArrayList<>();
        }
        threads[0].add(receiving(1));
        threads[1].add(thread("main", false, Thread.State.WAITING, null, f("app.M", "main", 1))
                .withWait(new PeerWait(PeerWait.SEND, 0, -1, 5)));
        threads[2].add(receiving(4));
        threads[4].add(receiving(5));
        threads[5].add(receiving(2));
        threads[5].add(receiving(3)); // a second thread of rank 5, toward a rank that waits for nobody
        String text = format(StackTreeTest.job(6, r -> threads[r]));
        assertEquals("\nwaiting for each other:\n"
                + "  ranks 0 and 1: rank 0 to receive from rank 1, rank 1 to have its send taken by rank 0\n"
                + "  ranks [2,4,5]: rank 2 to receive from rank 4, rank 4 to receive from rank 5, rank 5 to receive from rank 2\n",
                text);
    }

    @Test
    void theTreeShowsEachWaitAboveItsStateAndTheBlockBeforeTheTree() {
        JobStacks job = job(2, r -> 1 - r);
        String text = StackTreeFormatter.format(job, StackTree.merge(job, ThreadFilter.PROGRAM));
        assertTrue(text.contains("\nwaiting for each other:\n  ranks 0 and 1: rank 0 to receive from rank 1, rank 1 to receive from"
                + " rank 0\n\n[0,1] \"main\"\n"), text);
        assertTrue(text.contains("  [0] waiting to receive from rank 1 (tag 5)\n      WAITING\n"), text);
        assertTrue(RawStacksFormatter.format(job, ThreadFilter.PROGRAM).contains("    waiting to receive from rank 0 (tag 5)\n"));
    }
}

package io.cohort.tools.stacks;

import io.cohort.stacks.CollectiveCall;
import io.cohort.stacks.JobStacks;
import io.cohort.stacks.PeerStacks;
import io.cohort.stacks.RankStacks;
import io.cohort.stacks.ThreadStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.cohort.tools.stacks.StackTreeTest.f;
import static io.cohort.tools.stacks.StackTreeTest.thread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class CollectivesInProgressTest {
    private static final StackTraceElement MAIN = f("app.Solver", "main", 12);
    private static final StackTraceElement WAIT = f("io.cohort.engine.ProgressEngine", "await", 300);

    private static ThreadStack in(CollectiveCall call) {
        return thread("main", false, Thread.State.WAITING, null, MAIN, WAIT).withCall(call);
    }

    private static CollectiveCall bcast(long number, int root) {
        return new CollectiveCall("bcast", 0, "", number, root, 4, "int[]", "");
    }

    private static String format(JobStacks job) {
        StringBuilder b = new StringBuilder();
        CollectivesInProgress.format(b, job);
        return b.toString();
    }

    @Test
    void ranksThatCannotMeetInOneCollectiveAreNamed() {
        JobStacks job = StackTreeTest.job(5, r -> List.of(r < 2 ? in(bcast(17, 0))
                : r < 4 ? in(bcast(17, 1))
                : thread("main", false, Thread.State.RUNNABLE, null, MAIN)));
        assertEquals(String.join("\n",
                "",
                "in collectives:",
                "  [0,1] bcast #17 on world: root 0, 4 elements of int[]",
                "  [2,3] bcast #17 on world: root 1, 4 elements of int[]",
                "  [4]   in no collective on world",
                "ranks disagree about collective #17 on world: [0,1] bcast from root 0 of 4 ints; [2,3] bcast from root 1"
                        + " of 4 ints (every rank must make the same call)",
                ""), format(job));
    }

    @Test
    void aSkippedCollectiveShowsAsRanksInDifferentOnes() {
        // Rank 3 skipped barrier #8 and waits in allreduce #8, which the others take for the barrier.
        CollectiveCall barrier = new CollectiveCall("barrier", 0, "", 8, -1, -1, "", "");
        CollectiveCall allreduce = new CollectiveCall("allreduce", 0, "", 8, -1, 1, "long[]", "SUM");
        JobStacks job = StackTreeTest.job(4, r -> List.of(in(r == 3 ? allreduce : barrier)));
        String text = format(job);
        assertTrue(text.contains("  [0-2] barrier #8 on world\n  [3]   allreduce #8 on world: SUM, 1 element of long[]\n"), text);
        assertTrue(text.contains("ranks disagree about collective #8 on world: [0-2] barrier; [3] allreduce with SUM of 1 long"
                + " (every rank must make the same call)"), text);
    }

    @Test
    void ranksAtDifferentNumbersOrInAgreeingFormsAreOnlyListed() {
        // The root of bcast #3 has left it and waits in #4; the others still receive #3. No error.
        JobStacks job = StackTreeTest.job(3, r -> List.of(in(r == 0 ? bcast(4, 0) : bcast(3, 0))));
        String text = format(job);
        assertTrue(text.contains("  [1,2] bcast #3 on world: root 0, 4 elements of int[]\n  [0]   bcast #4 on world"), text);
        assertFalse(text.contains("disagree"), text);

        CollectiveCall bytes = new CollectiveCall("bcast", 0, "", 3, 0, -1, "", "");
        CollectiveCall ibcast = new CollectiveCall("ibcast", 0, "", 3, 0, 4, "int[]", "");
        JobStacks alike = StackTreeTest.job(3, r -> List.of(in(r == 0 ? bytes : r == 1 ? ibcast : bcast(3, 0))));
        assertFalse(format(alike).contains("disagree"), format(alike));
    }

    @Test
    void communicatorsAreKeptApartAndNothingIsPrintedWithoutCollectives() {
        CollectiveCall split = new CollectiveCall("allgather", 6, "[2,3]", 0, -1, 2, "int[]", "");
        JobStacks job = StackTreeTest.job(4, r -> List.of(r < 2 ? in(bcast(2, 0)) : in(split)));
        String text = format(job);
        assertTrue(text.contains("  [0,1] bcast #2 on world: root 0, 4 elements of int[]\n"
                + "  [2,3] in no collective on world\n"
                + "  [2,3] allgather #0 on communicator 6 [2,3]: 2 elements of int[]\n"), text);
        assertFalse(text.contains("disagree"), text);

        // The two halves of one split share context 6 and count from #0 each: no disagreement.
        JobStacks halves = StackTreeTest.job(4, r -> List.of(in(r % 2 == 0
                ? new CollectiveCall("barrier", 6, "[0,2]", 0, -1, -1, "", "")
                : new CollectiveCall("allreduce", 6, "[1,3]", 0, -1, 1, "long[]", "SUM"))));
        String apart = format(halves);
        assertTrue(apart.contains("  [0,2] barrier #0 on communicator 6 [0,2]\n"
                + "  [1,3] allreduce #0 on communicator 6 [1,3]: SUM, 1 element of long[]\n"), apart);
        assertFalse(apart.contains("disagree"), apart);

        assertEquals("", format(StackTreeTest.job(2, StackTreeTest::hang)));
    }

    @Test
    void theMergedTreeShowsEachThreadsCollectiveAboveItsStateAndTheBlockAtTheTop() {
        List<RankStacks> ranks = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            ranks.add(RankStacks.answered(r, "h", 10 + r, PeerStacks.of(List.of(in(bcast(17, r))))));
        }
        ranks.add(RankStacks.silent(2, "h", -1, RankStacks.Answer.NOT_JOINED, "has not joined the job"));
        JobStacks job = new JobStacks("3fa2c1d9", 3, "app.Solver", ranks);
        String text = StackTreeFormatter.format(job, StackTree.merge(job, ThreadFilter.PROGRAM));
        assertEquals(String.join("\n",
                "job 3fa2c1d9 (app.Solver, 3 peers): 2 of 3 ranks answered",
                "no stacks from:",
                "  [2] has not joined the job",
                "",
                "in collectives:",
                "  [0] bcast #17 on world: root 0, 4 elements of int[]",
                "  [1] bcast #17 on world: root 1, 4 elements of int[]",
                "ranks disagree about collective #17 on world: [0] bcast from root 0 of 4 ints; [1] bcast from root 1 of 4 ints"
                        + " (every rank must make the same call)",
                "",
                "[0,1] \"main\"",
                "      app.Solver.main(Solver.java:12)",
                "      io.cohort.engine.ProgressEngine.await(ProgressEngine.java:300)",
                "  [0] in bcast #17 on world: root 0, 4 elements of int[]",
                "      WAITING",
                "  [1] in bcast #17 on world: root 1, 4 elements of int[]",
                "      WAITING",
                ""), text);
        String raw = RawStacksFormatter.format(job, ThreadFilter.PROGRAM);
        assertTrue(raw.contains("\"main\" #" + "main".hashCode() + " WAITING\n    in bcast #17 on world: root 1, 4 elements of int[]\n    at io.cohort.engine.ProgressEngine.await"), raw);
    }
}

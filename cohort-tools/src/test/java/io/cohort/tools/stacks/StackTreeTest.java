package io.cohort.tools.stacks;

import io.cohort.stacks.JobStacks;
import io.cohort.stacks.PeerStacks;
import io.cohort.stacks.RankStacks;
import io.cohort.stacks.ThreadStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class StackTreeTest {
    static StackTraceElement f(String cls, String method, int line) {
        String simple = cls.substring(cls.lastIndexOf('.') + 1);
        return ThreadStack.frame(cls, method, simple + ".java", line);
    }

    /** Frames given outermost first, as one reads a tree; ThreadStack wants innermost first. */
    static ThreadStack thread(String name, boolean daemon, Thread.State state, String lock, StackTraceElement... outerFirst) {
        List<StackTraceElement> frames = new ArrayList<>(List.of(outerFirst));
        java.util.Collections.reverse(frames);
        return new ThreadStack(name, name.hashCode(), daemon, state, lock, null, frames);
    }

    static JobStacks job(int size, IntFunction<List<ThreadStack>> threadsOf) {
        List<RankStacks> ranks = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            ranks.add(RankStacks.answered(r, "h", 100 + r, PeerStacks.of(threadsOf.apply(r))));
        }
        return new JobStacks("3fa2c1d9", size, "app.Hang", ranks);
    }

    static final StackTraceElement MAIN = f("app.Hang", "main", 10);

    static List<ThreadStack> hang(int rank) {
        List<ThreadStack> t = new ArrayList<>();
        if (rank == 0) {
            t.add(thread("main", false, Thread.State.WAITING, "java.util.concurrent.CountDownLatch$Sync@" + Integer.toHexString(rank + 77),
                    MAIN, f("app.Hang", "stuck", 20), f("java.util.concurrent.CountDownLatch", "await", 230)));
        } else {
            t.add(thread("main", false, Thread.State.TIMED_WAITING, null,
                    MAIN, f("io.cohort.Comm", "recv", 30), f("java.lang.Thread", "sleep", -2)));
        }
        t.add(thread("cohort-progress-" + rank, true, Thread.State.RUNNABLE, null, f("io.cohort.Agent", "run", 5)));
        t.add(thread("Reference Handler", true, Thread.State.RUNNABLE, null, f("java.lang.ref.Reference", "process", 1)));
        return t;
    }

    static BitSet ranks(int... r) {
        BitSet b = new BitSet();
        for (int i : r) {
            b.set(i);
        }
        return b;
    }

    @Test
    void theHungRanksShareOneNodeAndTheOddOneHasItsOwn() {
        StackTree tree = StackTree.merge(job(4, StackTreeTest::hang), ThreadFilter.PROGRAM);
        assertEquals(List.of("main", "cohort-progress-N"), tree.threads().stream().map(StackTree.Node::text).toList());
        assertEquals(4, tree.hiddenThreads(), "one Reference Handler per rank");
        StackTree.Node main = tree.threads().get(0).children().get(0);
        assertEquals(MAIN.toString(), main.text());
        assertEquals(ranks(0, 1, 2, 3), main.ranks());
        List<StackTree.Node> parted = main.children();
        assertEquals(2, parted.size());
        assertEquals(ranks(1, 2, 3), parted.get(0).ranks(), "biggest rank set first");
        assertEquals("io.cohort.Comm.recv(Comm.java:30)", parted.get(0).text());
        assertEquals(ranks(0), parted.get(1).ranks());
        assertEquals("app.Hang.stuck(Hang.java:20)", parted.get(1).text());
        StackTree.Node state0 = parted.get(1).children().get(0).children().get(0);
        assertEquals(StackTree.Kind.STATE, state0.kind());
        assertEquals("WAITING on java.util.concurrent.CountDownLatch$Sync", state0.text(), "no identity hash");
        StackTree.Node sleep = parted.get(0).children().get(0);
        assertEquals("java.lang.Thread.sleep(Native Method)", sleep.text());
        assertEquals("TIMED_WAITING", sleep.children().get(0).text());
    }

    @Test
    void allThreadsShowsTheHousekeepingToo() {
        StackTree tree = StackTree.merge(job(4, StackTreeTest::hang), ThreadFilter.ALL);
        assertEquals(0, tree.hiddenThreads());
        assertTrue(tree.threads().stream().anyMatch(n -> n.text().equals("Reference Handler") && n.daemon()));
    }

    @Test
    void severalThreadsOfOneRankAreCounted() {
        StackTree tree = StackTree.merge(job(2, r -> List.of(
                thread("pool-1-thread-1", false, Thread.State.WAITING, null, f("app.W", "run", 1)),
                thread("pool-1-thread-2", false, Thread.State.WAITING, null, f("app.W", "run", 1)),
                thread("pool-1-thread-3", false, Thread.State.WAITING, null, f("app.W", "run", r == 0 ? 1 : 2)))),
                ThreadFilter.PROGRAM);
        StackTree.Node pool = tree.threads().get(0);
        assertEquals("pool-1-thread-*", pool.text());
        assertEquals(3, pool.threadsPerRank());
        List<StackTree.Node> runs = pool.children();
        assertEquals(ranks(0, 1), runs.get(0).ranks());
        assertEquals(3, runs.get(0).threads(0));
        assertEquals(2, runs.get(0).threads(1));
        assertEquals(0, runs.get(0).threadsPerRank(), "uneven counts");
        assertEquals(ranks(1), runs.get(1).ranks());
    }

    @Test
    void threadNamesAreNormalisedByWhatTheJobShows() {
        JobStacks job = job(4, r -> List.of(
                thread("cohort-progress-" + r, true, Thread.State.RUNNABLE, null),
                thread("worker-" + r + "-0", false, Thread.State.RUNNABLE, null),
                thread("worker-" + r + "-1", false, Thread.State.RUNNABLE, null),
                thread("Thread-" + (5 + r), false, Thread.State.RUNNABLE, null),
                thread("pool-1-thread-1", false, Thread.State.RUNNABLE, null),
                thread("rank-" + (r == 3 ? 0 : r) + "-odd", false, Thread.State.RUNNABLE, null)));
        ThreadNames names = ThreadNames.of(job, ThreadFilter.PROGRAM);
        assertEquals("cohort-progress-N", names.normalise("cohort-progress-2"));
        assertEquals("worker-N-*", names.normalise("worker-3-1"));
        assertEquals("Thread-*", names.normalise("Thread-6"));
        assertEquals("pool-1-thread-1", names.normalise("pool-1-thread-1"), "the same everywhere: kept");
        assertEquals("rank-*-odd", names.normalise("rank-0-odd"), "not the rank on rank 3: an index, not a rank");
        assertEquals("main", names.normalise("main"));
        assertEquals("other-7", names.normalise("other-7"), "a name not in the job is kept");
    }

    @Test
    void aNumberOnOneRankOnlyIsNotTakenForTheRank() {
        JobStacks job = job(2, r -> r == 1 ? List.of(thread("helper-1", false, Thread.State.RUNNABLE, null)) : List.of());
        assertEquals("helper-1", ThreadNames.of(job, ThreadFilter.PROGRAM).normalise("helper-1"));
    }

    @Test
    void blockedThreadsNameTheOwnerNormalised() {
        JobStacks job = job(2, r -> List.of(new ThreadStack("main", 1, false, Thread.State.BLOCKED, "java.lang.Object@1b6d3586",
                "cohort-progress-" + r, List.of(f("app.M", "m", 1))), thread("cohort-progress-" + r, true, Thread.State.RUNNABLE, null)));
        StackTree tree = StackTree.merge(job, ThreadFilter.PROGRAM);
        StackTree.Node state = tree.threads().get(0).children().get(0).children().get(0);
        assertEquals("BLOCKED on java.lang.Object held by \"cohort-progress-N\"", state.text());
        assertEquals(ranks(0, 1), state.ranks());
    }

    @Test
    void rankSetsAreCompact() {
        assertEquals("[]", RankSets.format(ranks()));
        assertEquals("[0]", RankSets.format(ranks(0)));
        assertEquals("[0,1]", RankSets.format(ranks(0, 1)));
        assertEquals("[0-2]", RankSets.format(ranks(0, 1, 2)));
        assertEquals("[0,2-15]", RankSets.format(ranks(0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
        assertEquals("[1,3,5,6,8-10]", RankSets.format(ranks(1, 3, 5, 6, 8, 9, 10)));
    }
}

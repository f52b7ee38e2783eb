package io.cohort.tools.stacks;

import io.cohort.stacks.JobStacks;
import io.cohort.stacks.PeerStacks;
import io.cohort.stacks.RankStacks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.cohort.tools.stacks.StackTreeTest.f;
import static io.cohort.tools.stacks.StackTreeTest.thread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class StackTreeFormatterTest {
    @Test
    void aHangReadsAtAGlance() {
        JobStacks job = StackTreeTest.job(4, StackTreeTest::hang);
        String text = StackTreeFormatter.format(job, StackTree.merge(job, ThreadFilter.PROGRAM));
        assertEquals(String.join("\n",
                "job 3fa2c1d9 (app.Hang, 4 peers): 4 of 4 ranks answered",
                "4 threads of JVM housekeeping hidden (--all-threads shows them)",
                "",
                "[0-3] \"main\"",
                "      app.Hang.main(Hang.java:10)",
                "  [1-3] io.cohort.Comm.recv(Comm.java:30)",
                "        java.lang.Thread.sleep(Native Method)",
                "        TIMED_WAITING",
                "  [0]   app.Hang.stuck(Hang.java:20)",
                "        java.util.concurrent.CountDownLatch.await(CountDownLatch.java:230)",
                "        WAITING on java.util.concurrent.CountDownLatch$Sync",
                "[0-3] \"cohort-progress-N\" daemon",
                "      io.cohort.Agent.run(Agent.java:5)",
                "      RUNNABLE",
                ""), text);
    }

    @Test
    void silentRanksAreListedAtTheTopByReason() {
        List<RankStacks> ranks = new ArrayList<>();
        ranks.add(RankStacks.answered(0, "h", 1, PeerStacks.of(List.of(thread("main", false, Thread.State.RUNNABLE, null,
                f("app.M", "main", 1))))));
        ranks.add(RankStacks.silent(1, "h", 2, RankStacks.Answer.NO_ANSWER, "did not answer within 1500 ms"));
        ranks.add(RankStacks.silent(2, "h", -1, RankStacks.Answer.NOT_JOINED, "has not joined the job"));
        ranks.add(RankStacks.silent(3, "h", -1, RankStacks.Answer.NOT_JOINED, "has not joined the job"));
        ranks.add(RankStacks.silent(4, "h", -1, RankStacks.Answer.NOT_JOINED, "has not joined the job"));
        ranks.add(RankStacks.silent(5, "h", 6, RankStacks.Answer.EXITED, "exited with status 0"));
        JobStacks job = new JobStacks("3fa2c1d9", 6, "app.M", ranks);
        String text = StackTreeFormatter.format(job, StackTree.merge(job, ThreadFilter.PROGRAM));
        assertEquals(String.join("\n",
                "job 3fa2c1d9 (app.M, 6 peers): 1 of 6 ranks answered",
                "no stacks from:",
                "  [1]   did not answer within 1500 ms",
                "  [2-4] has not joined the job",
                "  [5]   exited with status 0",
                "",
                "[0] \"main\"",
                "    app.M.main(M.java:1)",
                "    RUNNABLE",
                ""), text);
    }

    @Test
    void threadCountsShowInTheLabel() {
        JobStacks job = StackTreeTest.job(2, r -> List.of(
                thread("w-1", false, Thread.State.WAITING, null, f("app.W", "run", 1)),
                thread("w-2", false, Thread.State.WAITING, null, f("app.W", "run", r == 0 ? 1 : 2))));
        String text = StackTreeFormatter.format(job, StackTree.merge(job, ThreadFilter.PROGRAM));
        assertTrue(text.contains("[0,1] x2 \"w-*\"\n"), text);
        assertTrue(text.contains("  [0,1] (3 threads) app.W.run(W.java:1)\n"), text);
        assertTrue(text.contains("  [1]               app.W.run(W.java:2)\n"), text);
    }

    @Test
    void rawShowsEachRankAsAThreadDump() {
        JobStacks job = StackTreeTest.job(2, StackTreeTest::hang);
        String raw = RawStacksFormatter.format(job, ThreadFilter.PROGRAM);
        assertTrue(raw.contains("--- rank 0 (pid 100 on h) ---\n\"main\" #"), raw);
        assertTrue(raw.contains(" WAITING on java.util.concurrent.CountDownLatch$Sync@4d\n"
                + "    at java.util.concurrent.CountDownLatch.await(CountDownLatch.java:230)\n"
                + "    at app.Hang.stuck(Hang.java:20)\n    at app.Hang.main(Hang.java:10)\n"), raw);
        assertTrue(raw.contains("(1 thread of JVM housekeeping hidden)"), raw);
    }
}

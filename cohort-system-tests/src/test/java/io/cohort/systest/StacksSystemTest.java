package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cohort stacks} and SIGUSR1 on deliberately hung jobs. Each test gets its own job registry
 * ({@code XDG_RUNTIME_DIR} in a temporary directory), so jobs of other tests on this machine are not
 * seen and {@code cohort stacks} without a job id finds exactly this one.
 */
class StacksSystemTest {
    private static final String HANG = "io.cohort.systest.programs.Hang";
    private static final String SLEEPER = "io.cohort.systest.programs.Sleeper";
    private static final String RECV = "io.cohort.comm.EngineCommunicator.recv(";
    private static final String STUCK = "io.cohort.systest.programs.Hang.stuck(";
    private static final int ATTEMPTS = 10;

    /**
     * Runs {@code cohort stacks ARGS} until its tree satisfies {@code done}: "ready" is printed just
     * before a rank blocks, so the first answer may still see one on its way (each try is an event,
     * not a sleep).
     */
    private static StackBlocks stacksUntil(Map<String, String> env, java.util.function.Predicate<StackBlocks> done,
                                           String... args) throws Exception {
        CohortProcess last = null;
        for (int i = 0; i < ATTEMPTS; i++) {
            String[] command = new String[args.length + 1];
            command[0] = "stacks";
            System.arraycopy(args, 0, command, 1, args.length);
            CohortProcess p = CohortProcess.start(env, command);
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.toString());
            StackBlocks tree = StackBlocks.parse(p.out());
            if (done.test(tree)) {
                return tree;
            }
            last = p;
        }
        throw new AssertionError("the stacks never showed the expected tree: " + last);
    }

    private static boolean hungAsExpected(StackBlocks t) {
        return t.find("[1-3]", RECV) != null && t.find("[0]", STUCK) != null;
    }

    @Test
    @Timeout(90)
    void aHungJobShowsWhichRanksWaitWhere(@TempDir Path runtime) throws Exception {
        Map<String, String> env = Map.of("XDG_RUNTIME_DIR", runtime.toString());
        try (CohortProcess job = CohortProcess.start(env, "run", "-n", "4", "-cp", CohortProcess.TEST_CLASSES, HANG)) {
            assertTrue(job.awaitOut(l -> l.endsWith(" ready"), 4), job.toString());

            long started = System.nanoTime();
            StackBlocks tree = stacksUntil(env, StacksSystemTest::hungAsExpected);
            System.out.printf("cohort stacks on a 4-peer job: %d ms (JVM start included)%n", (System.nanoTime() - started) / 1_000_000);
            assertTrue(tree.header().endsWith(": 4 of 4 ranks answered"), tree.header());
            assertTrue(tree.silent().isEmpty(), tree.silent().toString());
            // Below the receive the ranks may part (the backoff idle strategy wakes now and then), so
            // only rank 0's wait, a latch nobody counts down, has a fixed last line.
            assertEquals(1, tree.count(RECV), "one node for the receive path: " + tree);
            assertEquals(1, tree.count(STUCK), "one node for rank 0's method: " + tree);
            assertTrue(tree.find("[0]", STUCK).lines().get(tree.find("[0]", STUCK).lines().size() - 1)
                    .startsWith("WAITING on java.util.concurrent.CountDownLatch$Sync"), tree.toString());
            assertNotNull(tree.find("[0-3]", "\"cohort-progress-N\" daemon"), "the progress agents, merged: " + tree);
            assertFalse(tree.blocks().stream().anyMatch(b -> b.has("\"Reference Handler\"")), "housekeeping hidden by default");

            CohortProcess list = CohortProcess.start(env, "stacks", "--list");
            list.closeStdin();
            assertEquals(0, list.waitFor(), list.toString());
            assertEquals(2, list.out().size(), list.toString());
            assertTrue(list.out().get(1).matches("[0-9a-f]{8} +" + job.process().pid() + " +4 +.* " + HANG), list.toString());
            String jobId = list.out().get(1).substring(0, 8);

            // By id, with every thread, in the raw form.
            CohortProcess raw = CohortProcess.start(env, "stacks", "--raw", "--all-threads", jobId.substring(0, 4));
            raw.closeStdin();
            assertEquals(0, raw.waitFor(), raw.toString());
            assertEquals(4, raw.out().stream().filter(l -> l.startsWith("--- rank ")).count(), raw.toString());
            assertEquals(4, raw.out().stream().filter(l -> l.startsWith("\"Reference Handler\" daemon")).count(), raw.toString());

            // By the pid of what started the launcher (the cohort script in a shell; this test's JVM here).
            CohortProcess byParent = CohortProcess.start(env, "stacks", "--raw",
                    Long.toString(ProcessHandle.current().pid()));
            byParent.closeStdin();
            assertEquals(0, byParent.waitFor(), byParent.toString());
            assertEquals(4, byParent.out().stream().filter(l -> l.startsWith("--- rank ")).count(), byParent.toString());

            CohortProcess none = CohortProcess.start(env, "stacks", "ffffffff");
            none.closeStdin();
            assertEquals(6, none.waitFor(), none.toString());
            assertEquals(List.of("cohort: no running job ffffffff of user " + System.getProperty("user.name")
                    + " on this machine; 'cohort stacks --list' shows the 1 there are"), none.err());

            // SIGUSR1 to the launcher: the same tree on its stderr, and the job goes on.
            int before = job.err().size();
            new ProcessBuilder("kill", "-USR1", Long.toString(job.process().pid())).start().waitFor();
            assertTrue(job.awaitErr(l -> l.contains(STUCK), 1), job.toString());
            assertTrue(job.awaitErr(l -> l.startsWith("      RUNNABLE") || l.startsWith("      TIMED_WAITING"), 1), job.toString());
            StackBlocks onSignal = StackBlocks.parse(job.err().subList(before, job.err().size()));
            assertTrue(hungAsExpected(onSignal), onSignal.toString());
            assertTrue(job.process().isAlive(), "the job goes on after SIGUSR1");

            job.process().toHandle().destroy(); // SIGTERM: stops the job in order
            assertEquals(143, job.waitFor(), job.toString());
        }
        CohortProcess after = CohortProcess.start(env, "stacks");
        after.closeStdin();
        assertEquals(6, after.waitFor(), after.toString());
        assertTrue(after.err().get(0).startsWith("cohort: no running Cohort job of user "), after.toString());
    }

    @Tag("long")
    @Test
    @Timeout(90)
    void ranksThatCallDifferentCollectivesAreNamedWithTheCallsTheyWaitIn(@TempDir Path runtime) throws Exception {
        Map<String, String> env = Map.of("XDG_RUNTIME_DIR", runtime.toString());
        // The linear shapes, so that no message of one collective can match the other's receive.
        try (CohortProcess job = CohortProcess.start(env, "run", "-n", "4", "-cp", CohortProcess.TEST_CLASSES,
                "--jvm-opt", "-Dcohort.collectives.algorithms=barrier-linear,bcast-linear",
                "io.cohort.systest.programs.MismatchedCollectives")) {
            assertTrue(job.awaitOut(l -> l.matches("rank \\d calls .*"), 4), job.toString());
            StackBlocks tree = stacksUntil(env, t -> t.collectives().size() == 3);
            List<String> in = tree.collectives();
            assertTrue(in.get(0).matches("  \\[0-2] barrier #(\\d+) on world"), tree.toString());
            String number = in.get(0).replaceAll(".*#(\\d+).*", "$1");
            assertEquals("  [3]   bcast #" + number + " on world: root 0, 4 elements of int[]", in.get(1), tree.toString());
            assertEquals("ranks disagree about collective #" + number + " on world: [0-2] barrier; [3] bcast from root 0 of"
                    + " 4 ints (every rank must make the same call)", in.get(2), tree.toString());
            // Rank 0 waits in the barrier's fan-in for rank 3, which waits in the bcast for rank 0.
            assertEquals(List.of("  ranks 0 and 3: rank 0 to receive from rank 3, rank 3 to receive from rank 0"),
                    tree.waitCycles(), tree.toString());
            // In the tree, each waiting thread carries its call above its state.
            assertNotNull(tree.blocks().stream().filter(b -> b.has("in barrier #" + number + " on world")).findFirst()
                    .orElse(null), tree.toString());
            assertNotNull(tree.blocks().stream().filter(b -> b.ranks().equals("[3]")
                    && b.has("in bcast #" + number + " on world: root 0")).findFirst().orElse(null), tree.toString());

            // SIGUSR1: the same section on the launcher's stderr.
            int before = job.err().size();
            new ProcessBuilder("kill", "-USR1", Long.toString(job.process().pid())).start().waitFor();
            assertTrue(job.awaitErr(l -> l.startsWith("ranks disagree about collective #" + number), 1), job.toString());
            job.process().toHandle().destroy();
            assertEquals(143, job.waitFor(), job.toString());
            assertTrue(before < job.err().size());
        }
    }

    @Tag("long")
    @ParameterizedTest(name = "--bcast-protocol {0}")
    @ValueSource(strings = {"pcode", "eqa"})
    @Timeout(90)
    void ranksWaitingOnACommunicatorsBroadcastDomainAreNamedInTheWorldsNumbering(String protocol, @TempDir Path runtime)
            throws Exception {
        Map<String, String> env = Map.of("XDG_RUNTIME_DIR", runtime.toString());
        try (CohortProcess job = CohortProcess.start(env, "run", "-n", "4", "--transport", "udp", "--collectives", "bcast",
                "--bcast-protocol", protocol, "-cp", CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.MismatchedDomainBcasts")) {
            assertTrue(job.awaitOut(l -> l.matches("rank \\d calls bcast"), 3), job.toString());
            StackBlocks tree = stacksUntil(env, t -> t.waitCycles().size() == 1);
            // World rank 3 is the communicator's rank 0 and waits for its rank 2, world rank 1.
            assertEquals(List.of("  ranks 1 and 3: rank 1 to get a multicast from rank 3, rank 3 to get a multicast from rank 1"),
                    tree.waitCycles(), tree.toString());
            assertNotNull(tree.blocks().stream().filter(b -> b.ranks().equals("[3]")
                    && b.has("waiting for a multicast from rank 1 (broadcast domain)")).findFirst().orElse(null), tree.toString());
            assertNotNull(tree.blocks().stream().filter(b -> b.ranks().equals("[1,2]")
                    && b.has("waiting for a multicast from rank 3 (broadcast domain)")).findFirst().orElse(null), tree.toString());
            job.process().toHandle().destroy();
            assertEquals(143, job.waitFor(), job.toString());
        }
    }

    @Tag("long")
    @Test
    @Timeout(90)
    void aJobPastItsTimeoutShowsItsStacksBeforeItIsStopped(@TempDir Path runtime) throws Exception {
        Map<String, String> env = Map.of("XDG_RUNTIME_DIR", runtime.toString());
        CohortProcess job = CohortProcess.start(env, "run", "-n", "4", "-cp", CohortProcess.TEST_CLASSES,
                "--timeout", "15", "--stacks-on-timeout", "--grace-period", "500",
                "--jvm-opt", "-Dcohort.collectives.algorithms=barrier-linear,bcast-linear",
                "io.cohort.systest.programs.MismatchedCollectives");
        job.closeStdin();
        assertEquals(124, job.waitFor(), job.toString());
        assertEquals(4, job.out().size(), job.toString());
        StackBlocks tree = StackBlocks.parse(job.err());
        assertTrue(tree.header().endsWith(": 4 of 4 ranks answered"), job.toString());
        assertTrue(tree.collectives().stream().anyMatch(l -> l.startsWith("ranks disagree about collective #")), job.toString());
        assertNotNull(tree.find("[3]", "MismatchedCollectives.main(MismatchedCollectives.java:"), job.toString());
        List<String> err = job.err();
        assertTrue(err.get(err.size() - 1).matches("cohort: job [0-9a-f]{8} exceeded the time limit of 15 s \\(--timeout\\) and was"
                + " stopped"), "the summary comes last, without the hint: " + job);
    }

    @Tag("long")
    @Test
    @Timeout(90)
    void aRankStoppedBehindTheLaunchersBackIsNamedAsStoppedWithItsPid(@TempDir Path runtime) throws Exception {
        Map<String, String> env = Map.of("XDG_RUNTIME_DIR", runtime.toString());
        try (CohortProcess job = CohortProcess.start(env, "run", "-n", "3", "-cp", CohortProcess.TEST_CLASSES, HANG)) {
            assertTrue(job.awaitOut(l -> l.endsWith(" ready"), 3), job.toString());
            CohortProcess raw = CohortProcess.start(env, "stacks", "--raw");
            raw.closeStdin();
            assertEquals(0, raw.waitFor(), raw.toString());
            String pid = raw.out().stream().filter(l -> l.startsWith("--- rank 1 (pid ")).findFirst()
                    .orElseThrow(() -> new AssertionError(raw.toString())).replaceAll("--- rank 1 \\(pid (\\d+) .*", "$1");

            assertEquals(0, new ProcessBuilder("kill", "-STOP", pid).start().waitFor());
            StackBlocks tree = stacksUntil(env, t -> !t.silent().isEmpty(), "--timeout", "1");
            assertTrue(tree.header().endsWith(": 2 of 3 ranks answered"), tree.header());
            assertEquals(Map.of("[1]", "is stopped (state T: SIGSTOP or SIGTSTP sent to its process); kill -CONT " + pid
                    + " continues it"), tree.silent());

            assertEquals(0, new ProcessBuilder("kill", "-CONT", pid).start().waitFor());
            stacksUntil(env, t -> t.header().endsWith(": 3 of 3 ranks answered")); // continued, it answers again
            job.process().toHandle().destroy();
            assertEquals(143, job.waitFor(), job.toString());
        }
    }

    @Test
    @Timeout(90)
    void aWireUpHangShowsTheRankThatNeverJoinedAndTheOthersWaitingForTheTable(@TempDir Path runtime) throws Exception {
        Map<String, String> env = Map.of("XDG_RUNTIME_DIR", runtime.toString());
        try (CohortProcess job = CohortProcess.start(env, "run", "-n", "3", "-cp", CohortProcess.TEST_CLASSES, SLEEPER,
                "noinit-rank", "1")) {
            assertTrue(job.awaitOut(l -> l.equals("rank 1 ready"), 1), job.toString());
            StackBlocks tree = stacksUntil(env, t -> t.find("[0,2]", "io.cohort.wireup.WireupClient.exchange(") != null);
            assertTrue(tree.header().endsWith(": 2 of 3 ranks answered"), tree.header());
            assertEquals(Map.of("[1]", "has not joined the job: not in Cohort.init() yet, or not calling it"), tree.silent());
            job.process().toHandle().destroy();
            assertEquals(143, job.waitFor(), job.toString());
        }
    }
}

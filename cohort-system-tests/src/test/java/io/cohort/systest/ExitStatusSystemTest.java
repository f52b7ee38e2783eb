package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExitStatusSystemTest {
    private static final String FAILING = "io.cohort.systest.programs.FailingPeer";
    private static final String SLEEPER = "io.cohort.systest.programs.Sleeper";

    private static List<String> summaries(CohortProcess p) {
        return p.err().stream().filter(l -> l.startsWith("cohort: job ")).toList();
    }

    @Tag("long")
    @Test
    @Timeout(150)
    void rootCauseIsThePeerThatExitedNotTheOnesThatLostIt() throws Exception {
        // Repeated: the collateral peers' EXITED often overtakes the root cause's PEER_FAILURE ordering.
        for (int i = 0; i < 5; i++) {
            CohortProcess p = CohortProcess.run("run", "-n", "3", "-cp", CohortProcess.TEST_CLASSES, FAILING, "1", "exit", "3");
            assertEquals(3, p.exitCode(), "run " + i + ": " + p);
            List<String> s = summaries(p);
            assertEquals(1, s.size(), "run " + i + ": " + p);
            assertTrue(s.get(0).matches("cohort: job [0-9a-f]{8} failed: rank 1 on \\S+ exited with status 3 \\(root cause\\); "
                    + "2 other peers were stopped"), "run " + i + ": " + s.get(0));
        }
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void aPeerThatFailsInsideTryWithResourcesIsTheRootCauseThoughTheOthersExitFirst() throws Exception {
        // Its world closes before its exception leaves main, so the others' receives fail on a clean
        // goodbye; its clean-up of 1 s lets them exit first, as they often do anyway.
        CohortProcess p = CohortProcess.run("run", "-n", "3", "-cp", CohortProcess.TEST_CLASSES, FAILING, "1", "throw", "1000");
        assertEquals(1, p.exitCode(), p.toString());
        List<String> s = summaries(p);
        assertEquals(1, s.size(), p.toString());
        assertTrue(s.get(0).matches("cohort: job [0-9a-f]{8} failed: rank 1 on \\S+ exited with status 1 \\(root cause\\); "
                + "2 other peers were stopped"), s.get(0));
        assertEquals(2, p.err().stream().filter(l -> l.matches("cohort: rank [02]: rank 1 closed its world .*")).count(), p.toString());
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void aPeerThatFailsInsideTryWithResourcesIsTheRootCauseAlsoWhenTheOthersWaitOnTheBroadcastDomain() throws Exception {
        // Their requests fail with the domain's GlobalProgramException ("has ended its program"), and the
        // failing rank, still closing its domain, must not report the others' exits as its own cause.
        CohortProcess p = CohortProcess.run("run", "-n", "3", "--transport", "udp", "--collectives", "bcast",
                "-cp", CohortProcess.TEST_CLASSES, FAILING, "1", "throw", "1000", "bcast");
        assertEquals(1, p.exitCode(), p.toString());
        List<String> s = summaries(p);
        assertEquals(1, s.size(), p.toString());
        assertTrue(s.get(0).matches("cohort: job [0-9a-f]{8} failed: rank 1 on \\S+ exited with status 1 \\(root cause\\); "
                + "2 other peers were stopped"), s.get(0));
        assertEquals(2, p.err().stream().filter(l -> l.matches("cohort: rank [02]: rank [02], call #\\d+: request\\(source 1, .*"
                + "rank 1 has ended its program.*")).count(), p.toString());
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void inAChainOfClosedWorldsTheFirstFailureIsTheRootCause() throws Exception {
        // Rank 2 fails waiting for rank 1, rank 3 for rank 2: rank 3's failure, whose cause has exited,
        // must not stop the job while rank 1, the first, is still in its clean-up.
        CohortProcess p = CohortProcess.run("run", "-n", "4", "-cp", CohortProcess.TEST_CLASSES, FAILING, "1", "throw", "1000", "chain");
        assertEquals(1, p.exitCode(), p.toString());
        List<String> s = summaries(p);
        assertEquals(1, s.size(), p.toString());
        assertTrue(s.get(0).matches("cohort: job [0-9a-f]{8} failed: rank 1 on \\S+ exited with status 1 \\(root cause\\); "
                + "3 other peers were stopped"), s.get(0));
    }

    @Tag("long")
    @Test
    @Timeout(150)
    void peersThatAllFailOnTheirOwnAreNamedNotCountedAsStopped() throws Exception {
        // A peer that the launcher's stop (after the first exit) reaches before its own exit(4) is
        // rightly counted as stopped: each run may show that, but not every run may.
        int namedBoth = 0;
        for (int i = 0; i < 3; i++) {
            CohortProcess p = CohortProcess.run("run", "-n", "3", "-cp", CohortProcess.TEST_CLASSES, FAILING, "all", "exit", "4");
            assertEquals(4, p.exitCode(), "run " + i + ": " + p);
            List<String> s = summaries(p);
            assertEquals(1, s.size(), "run " + i + ": " + p);
            assertTrue(s.get(0).matches("cohort: job [0-9a-f]{8} failed: rank \\d on \\S+ exited with status 4 \\(root cause\\); "
                    + "(ranks \\d, \\d also failed|rank \\d also failed \\(exited with status 4\\); 1 other peer was stopped"
                    + "|2 other peers were stopped)"), "run " + i + ": " + s.get(0));
            namedBoth += s.get(0).endsWith(" also failed") ? 1 : 0;
        }
        assertTrue(namedBoth > 0, "no run named both other failures");
    }

    /**
     * The others wait for the killed rank in a barrier through shared memory (all peers on this
     * host), on its phase word, not a message: the launcher's word that it is gone ends their wait,
     * and the job ends with the same summary as for a receive.
     */
    @Test
    @Timeout(60)
    void peerKilledWhileTheOthersWaitForItInASharedMemoryBarrierEndsTheJob() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "3", "--verbose", "-cp", CohortProcess.TEST_CLASSES, FAILING, "2",
                "kill9", "0", "barrier");
        assertEquals(137, p.exitCode(), p.toString());
        assertTrue(p.err().stream().anyMatch(l -> l.contains("barrier of 0 B at 3 peers uses shared-memory-phases")),
                p.toString());
        List<String> s = summaries(p).stream().filter(l -> l.contains(" failed: ")).toList(); // --verbose has a first line
        assertEquals(1, s.size(), p.toString());
        assertTrue(s.get(0).contains("rank 2 on ") && s.get(0).contains("was killed by signal 9 (SIGKILL) or exited with status 137 (root cause)"),
                s.get(0));
        assertFalse(p.out().stream().anyMatch(l -> l.contains("unexpectedly")), p.toString());
    }

    @Test
    @Timeout(60)
    void peerKilledBySigkillIsReportedAsSignal9() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "3", "-cp", CohortProcess.TEST_CLASSES, FAILING, "2", "kill9", "0");
        assertEquals(137, p.exitCode(), p.toString());
        List<String> s = summaries(p);
        assertEquals(1, s.size(), p.toString());
        assertTrue(s.get(0).contains("rank 2 on ") && s.get(0).contains("was killed by signal 9 (SIGKILL) or exited with status 137 (root cause)"),
                s.get(0));
    }

    @Test
    @Timeout(60)
    void timeoutStopsTheJobWith124() throws Exception {
        long start = System.nanoTime();
        CohortProcess p = CohortProcess.run("run", "-n", "2", "--timeout", "2", "--grace-period", "500",
                "-cp", CohortProcess.TEST_CLASSES, SLEEPER, "init");
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        assertEquals(124, p.exitCode(), p.toString());
        assertTrue(seconds < 20, "took " + seconds + " s");
        List<String> s = summaries(p);
        assertEquals(1, s.size(), p.toString());
        assertTrue(s.get(0).endsWith("exceeded the time limit of 2 s (--timeout) and was stopped;"
                + " --stacks-on-timeout shows where its peers were"), s.get(0));
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void peerThatNeverConnectsIsAWireupTimeout() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "3", "--wireup-timeout", "10", "--grace-period", "500",
                "-cp", CohortProcess.TEST_CLASSES, SLEEPER, "noinit-rank", "2");
        assertEquals(4, p.exitCode(), p.toString());
        List<String> s = summaries(p);
        assertEquals(1, s.size(), p.toString());
        assertTrue(s.get(0).contains("rank 2 never connected within 10 s"), s.get(0));
        assertFalse(p.err().stream().anyMatch(l -> l.contains("\tat ")), p.toString());
    }

    @Test
    @Timeout(90)
    void aPeerThatSkipsACollectiveFailsTheJobWithOneLinePerWaiterNotAHang() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "3", "-cp", CohortProcess.TEST_CLASSES,
                "io.cohort.systest.programs.SkipsBarrier", "2");
        assertEquals(1, p.exitCode(), p.toString());
        List<String> waiters = p.err().stream().filter(l -> l.contains("rank 2 closed its world")).toList();
        assertFalse(waiters.isEmpty(), p.toString());
        assertTrue(waiters.stream().allMatch(l -> l.matches("cohort: rank [01]: rank 2 closed its world .* \\(at "
                + "io\\.cohort\\.systest\\.programs\\.SkipsBarrier\\.main\\(SkipsBarrier\\.java:\\d+\\)\\)")), waiters.toString());
        assertFalse(p.err().stream().anyMatch(l -> l.contains("\tat ")), "no stack trace by default: " + p);
        List<String> s = summaries(p);
        assertEquals(1, s.size(), p.toString());
        assertTrue(s.get(0).matches("cohort: job [0-9a-f]{8} failed: rank [01] on \\S+ exited with status 1 \\(root cause\\).*"),
                s.get(0));
    }

    @Test
    @Timeout(60)
    void successPrintsNoSummary() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES,
                "io.cohort.systest.programs.EnvPrinter");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of(), summaries(p));
    }

    /**
     * What a peer leaves running in its process group ends with it. Before, a child that held the peer's
     * stdout kept the job running for the child's 600 s, and one that did not was left on the host.
     */
    @Tag("long")
    @Test
    @Timeout(90)
    void whatAPeerLeavesRunningEndsWithIt() throws Exception {
        for (String output : List.of("inherit", "discard")) {
            String marker = "cohort-leftover-" + output + "-" + ProcessHandle.current().pid();
            CohortProcess p = CohortProcess.run("run", "-n", "2", "--timeout", "60", "-cp", CohortProcess.TEST_CLASSES,
                    "io.cohort.systest.programs.Spawner", output, marker);
            assertEquals(0, p.exitCode(), output + ": " + p);
            assertTrue(p.out().contains("rank 0 spawned") && p.out().contains("rank 1 spawned"), output + ": " + p);
            assertTrue(CohortProcess.awaitNoProcessWith(marker, java.time.Duration.ofSeconds(10)),
                    output + ": the peers' children still run after the job");
        }
    }

    /**
     * A peer frozen in a broadcast-domain collective: the others' calls give up after the call time-out
     * naming it, and the job ends. Before, their close() then waited for the frozen peer's goodbye for
     * ever, and the job ran into --timeout with nothing said.
     */
    @Tag("long")
    @Test
    @Timeout(90)
    void aPeerFrozenInBroadcastDomainCollectivesEndsTheJob() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "4", "--collectives", "bcast", "--timeout", "60", "--grace-period", "500",
                "--jvm-opt", "-Dcohort.bcast.callTimeoutMillis=3000", "-cp", CohortProcess.TEST_CLASSES,
                "io.cohort.systest.programs.FreezesInAllgather", "2");
        assertTrue(p.exitCode() != 0 && p.exitCode() != 124, p.toString());
        assertTrue(p.err().stream().anyMatch(l -> l.contains("Either rank 2 is stopped or unreachable")), p.toString());
        assertEquals(1, summaries(p).size(), p.toString());
    }
}

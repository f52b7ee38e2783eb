package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * EQA broadcast in real multi-process jobs ({@code --bcast-protocol eqa}): the collectives over
 * the broadcast domain against the sequential reference, with and without injected loss, on two
 * communicators at once; a receiver killed in the middle of a stream of bcasts; and bad
 * {@code cohort.eqa.*} settings refused before anything starts. The full sweep of N = 2..9 is a
 * soak; the normal suite runs N = 3 and 4.
 */
class EqaBroadcastSystemTest {
    private static final String PROGRAM = "io.cohort.systest.programs.DomainCollectivesCheck";

    private static CohortProcess check(int n, String fault, String... jvmOptions) throws Exception {
        long seed = System.nanoTime();
        List<String> args = new ArrayList<>(List.of("run", "-n", Integer.toString(n), "--collectives", "bcast",
                "--bcast-protocol", "eqa", "--verbose", "--timeout", "120"));
        if (fault != null) {
            args.addAll(List.of("--fault", fault + ",seed=" + (seed & 0xFFFF)));
        }
        for (String o : jvmOptions) {
            args.addAll(List.of("--jvm-opt", o));
        }
        args.addAll(List.of("-cp", CohortProcess.TEST_CLASSES, PROGRAM, Long.toString(seed)));
        CohortProcess p = CohortProcess.run(args.toArray(String[]::new));
        assertEquals(0, p.exitCode(), "seed " + seed + ": " + p);
        assertEquals(n, p.out().stream().filter(l -> l.matches("(\\[\\d+\\] )?rank \\d+ ok")).count(), p.toString());
        assertFalse(Stream.of(p.out(), p.err()).flatMap(List::stream).anyMatch(l -> l.contains("MISMATCH")), p.toString());
        return p;
    }

    private static long linesWith(CohortProcess p, String s) {
        return p.err().stream().filter(l -> l.contains(s)).count();
    }

    @Test
    @Timeout(120)
    void collectivesOverEqaUnderLossMatchTheReferenceAndVerboseNamesTheProtocolPerCommunicator() throws Exception {
        CohortProcess p = check(4, "loss=0.05");
        // rank 0 of the world, of the even ranks and of the odd ranks each say how theirs broadcasts
        assertEquals(3, linesWith(p, "broadcasts over eqa (mode auto, shared buffer, window 16)"), p.toString());
        assertEquals(0, linesWith(p, "broadcasts over pcode"), p.toString());
        assertTrue(linesWith(p, "bcast of") > 0 && p.err().stream().anyMatch(l -> l.contains("uses domain")), p.toString());
    }

    @Test
    @Timeout(120)
    void pushPullWithPerChannelBuffersAtThreePeers() throws Exception {
        CohortProcess p = check(3, null, "-Dcohort.eqa.mode=push_pull", "-Dcohort.eqa.bufferDesign=per-channel");
        assertEquals(2, linesWith(p, "broadcasts over eqa (mode push_pull, per-channel buffer, window 16)"), p.toString());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8, 9})
    @Tag("soak")
    @Timeout(300)
    void everySizeFromTwoToNineWithAndWithoutLoss(int n) throws Exception {
        check(n, null);
        check(n, "loss=0.05,dup=0.01,reorder=0.01");
        check(n, "loss=0.02", "-Dcohort.eqa.mode=simple");
    }

    @Tag("long") // about 10 s: the killed receiver's stream must time out at its sender
    @Test
    @Timeout(120)
    void aReceiverKilledInTheMiddleOfAStreamIsTheRootCauseAndNobodyHangs() throws Exception {
        long start = System.nanoTime();
        CohortProcess p = CohortProcess.run("run", "-n", "3", "--collectives", "bcast", "--bcast-protocol", "eqa",
                "-cp", CohortProcess.TEST_CLASSES, PROGRAM, "7", "2", "3");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertEquals(137, p.exitCode(), p.toString());
        assertTrue(seconds < 60, "the job took " + seconds + " s to end: " + p);
        List<String> summaries = p.err().stream().filter(l -> l.matches("cohort: job [0-9a-f]{8} .*")).toList();
        assertEquals(1, summaries.size(), p.toString());
        assertTrue(summaries.get(0).contains("rank 2 on ")
                && summaries.get(0).contains("killed by signal 9 (SIGKILL) or exited with status 137 (root cause)"),
                summaries.get(0));
    }

    @Test
    @Timeout(60)
    void badEqaSettingsAreOneLineEachAndTheJobDoesNotStart() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "--bcast-protocol", "eqa",
                "--jvm-opt", "-Dcohort.eqa.mode=BOGUS", "--jvm-opt", "-Dcohort.eqa.window=0",
                "--example", "pi");
        assertEquals(2, p.exitCode(), p.toString());
        assertEquals(List.of(
                "cohort: --jvm-opt: cohort.eqa.mode = \"BOGUS\" is not one of [SIMPLE, PUSH_PULL, AUTO].",
                "cohort: --jvm-opt: cohort.eqa.window = 0 is out of range; use 1 to 65536 packets."), p.err(), p.toString());
        assertTrue(p.out().isEmpty(), p.toString());
        CohortProcess q = CohortProcess.run("run", "-n", "2", "--bcast-protocol", "tree", "--example", "pi");
        assertEquals(2, q.exitCode(), q.toString());
        assertEquals(List.of("cohort: --bcast-protocol: 'tree' names no broadcast protocol; choose one of [pcode, eqa]"),
                q.err(), q.toString());
    }
}

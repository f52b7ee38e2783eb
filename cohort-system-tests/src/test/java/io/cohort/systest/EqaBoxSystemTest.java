package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * EQA broadcast across cluster-in-a-box hosts ({@code --bcast-protocol eqa}): peers on three hosts
 * (network namespaces on one bridge), two per host, whose kernels drop 5 % of the packets each host
 * receives (nftables). The collectives over the broadcast domain are checked against the sequential
 * reference by {@code DomainCollectivesCheck}, over real multicast and over subnet broadcast, in
 * each of EQA's modes; a receiver killed on another host ends the job with the usual root cause.
 * The loss is the kernel's, not {@code --fault}'s: the tests also check that the hosts' rules did
 * drop packets while the job ran.
 */
@Tag("long")
class EqaBoxSystemTest {
    private static final String PROGRAM = "io.cohort.systest.programs.DomainCollectivesCheck";

    @RegisterExtension
    static final ClusterInABox.Extension BOX = new ClusterInABox.Extension(3, 5);

    private static List<String> job(int n, String... jvmOpts) {
        List<String> args = new ArrayList<>(List.of("run", "-n", Integer.toString(n), "--hosts", BOX.box().hostList(3),
                "--launch-agent", "netns", "--collectives", "bcast", "--bcast-protocol", "eqa", "--verbose",
                "--timeout", "150"));
        for (String o : jvmOpts) {
            args.addAll(List.of("--jvm-opt", o));
        }
        return args;
    }

    private static CohortProcess run(List<String> args) throws Exception {
        CohortProcess p = CohortProcess.start(args.toArray(String[]::new));
        p.closeStdin();
        p.waitFor();
        return p;
    }

    private static long dropped() throws Exception {
        long n = 0;
        for (ClusterInABox.Host h : BOX.box().hosts()) {
            n += BOX.box().dropped(h);
        }
        return n;
    }

    /**
     * Every collective that runs over the domain, against the reference, at lengths 0, 1, odd, one
     * packet and many packets (the program's own list), on the world and on two interleaved halves.
     */
    @ParameterizedTest(name = "medium {0}, mode {1}")
    @CsvSource({"multicast, auto", "broadcast, auto", "multicast, simple", "broadcast, push_pull"})
    @Timeout(240)
    void collectivesAcrossThreeLossyHostsMatchTheReference(String medium, String mode) throws Exception {
        long seed = System.nanoTime() & 0xFFFF;
        long before = dropped();
        List<String> args = job(6, "-Dcohort.bcast.medium=" + medium, "-Dcohort.eqa.mode=" + mode);
        args.addAll(List.of("-cp", CohortProcess.TEST_CLASSES, PROGRAM, Long.toString(seed)));
        CohortProcess p = run(args);
        assertEquals(0, p.exitCode(), "seed " + seed + ": " + p);
        assertEquals(6, p.out().stream().filter(l -> l.matches("(\\[\\d+\\] )?rank \\d+ ok")).count(), p.toString());
        assertFalse(Stream.of(p.out(), p.err()).flatMap(List::stream).anyMatch(l -> l.contains("MISMATCH")), p.toString());
        assertTrue(p.err().stream().anyMatch(l -> l.contains("broadcasts over eqa (mode " + mode + ",")), p.toString());
        assertTrue(dropped() > before, "the hosts' loss rules dropped nothing: the job did not run through the loss");
    }

    /** A receiver on the third host SIGKILLed in a stream of bcasts: one root-cause summary, nobody hangs. */
    @Test
    @Timeout(150)
    void aReceiverKilledOnAnotherHostIsTheRootCauseAndNobodyHangs() throws Exception {
        long start = System.nanoTime();
        List<String> args = job(3);
        args.addAll(List.of("-cp", CohortProcess.TEST_CLASSES, PROGRAM, "7", "2", "3"));
        CohortProcess p = run(args);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertEquals(137, p.exitCode(), p.toString());
        assertTrue(seconds < 90, "the job took " + seconds + " s to end: " + p);
        List<String> summaries = p.err().stream().filter(l -> l.matches("cohort: job [0-9a-f]{8} .*")).toList();
        assertEquals(1, summaries.size(), p.toString());
        assertTrue(summaries.get(0).contains("rank 2 on ")
                && summaries.get(0).contains("killed by signal 9 (SIGKILL) or exited with status 137 (root cause)"),
                summaries.get(0));
    }
}

package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code cohort run --bind-to}: with {@code core} every peer confined to one processor of those its
 * io-manager may use, by local rank; with {@code auto}, the default, the processors no other job
 * holds split among the peers. The jobs run under {@code taskset -c A,B}, the first two processors
 * this JVM may use, so what the peers may use is known whatever the machine has, and claim their
 * processors in a directory of this test's own, so that jobs elsewhere on the machine do not count.
 */
class CoreBindingSystemTest {
    private static final String PROGRAMS = "io.cohort.systest.programs.";
    private static int a;
    private static int b;

    @BeforeAll
    static void twoProcessors() throws Exception {
        String allowed = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                .findFirst().orElse("");
        BitSet set = io.cohort.engine.MachineMap.cpuSet(allowed);
        assumeTrue(set != null && set.cardinality() >= 2, "needs two processors, has " + allowed);
        a = set.nextSetBit(0);
        b = set.nextSetBit(a + 1);
    }

    /** What Linux lists for processors a and b together. */
    private static String both() {
        return b == a + 1 ? a + "-" + b : a + "," + b;
    }

    @TempDir
    static Path claims;

    private static CohortProcess start(String... args) throws Exception {
        return CohortProcess.startUnder(List.of("taskset", "-c", a + "," + b), Map.of("COHORT_CPU_CLAIMS", claims.toString()),
                args);
    }

    private static CohortProcess run(String... args) throws Exception {
        CohortProcess p = start(args);
        p.closeStdin();
        p.waitFor();
        return p;
    }

    @Test
    @Timeout(60)
    void eachPeerRunsOnTheProcessorOfItsLocalRankInTurn() throws Exception {
        CohortProcess p = run("run", "-n", "3", "--bind-to", "core", "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "WhichCpus");
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.out().containsAll(List.of("rank 0 cpus " + a, "rank 1 cpus " + b, "rank 2 cpus " + a)), p.toString());
        assertEquals(List.of("rank 0 shares its processor", "rank 2 shares its processor"), shared(p), p.toString());
    }

    /** The "shares its processor" lines, sorted. */
    private static List<String> shared(CohortProcess p) {
        return p.out().stream().filter(l -> l.endsWith(" shares its processor")).sorted().toList();
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void hostsThatShareThisMachineShareItsProcessorsByRank() throws Exception {
        // Two hosts started here by the local agent: each has a local rank 0, but one machine's processors.
        CohortProcess p = run("run", "-n", "2", "--hosts", "ha,hb", "--launch-agent", "local", "--bind-to", "core",
                "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "WhichCpus");
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.out().containsAll(List.of("rank 0 cpus " + a, "rank 1 cpus " + b)), p.toString());
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void byDefaultThePeersSplitTheProcessorsTheLauncherMayUse() throws Exception {
        CohortProcess p = run("run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "WhichCpus");
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.out().containsAll(List.of("rank 0 cpus " + a, "rank 1 cpus " + b)), p.toString());
        assertEquals(List.of(), shared(p), "one processor each: " + p);
        CohortProcess one = run("run", "-n", "1", "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "WhichCpus");
        assertEquals(List.of("rank 0 cpus " + both()), one.out(), "one peer has them all: " + one);
        CohortProcess three = run("run", "-n", "3", "--bind-to", "auto", "-cp", CohortProcess.TEST_CLASSES,
                PROGRAMS + "WhichCpus");
        assertTrue(three.out().containsAll(List.of("rank 0 cpus " + a, "rank 1 cpus " + b, "rank 2 cpus " + a)),
                "more peers than processors: in turn: " + three);
        assertEquals(List.of("rank 0 shares its processor", "rank 2 shares its processor"), shared(three),
                "told, so that backoff yields at once: " + three);
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void withNoneThePeersMayRunOnEveryProcessorTheLauncherMay() throws Exception {
        CohortProcess none = run("run", "-n", "2", "--bind-to", "none", "-cp", CohortProcess.TEST_CLASSES,
                PROGRAMS + "WhichCpus");
        assertEquals(0, none.exitCode(), none.toString());
        assertTrue(none.out().containsAll(List.of("rank 0 cpus " + both(), "rank 1 cpus " + both())), none.toString());
    }

    @Tag("long")
    @Test
    @Timeout(90)
    void aJobStartedWhileAnotherHoldsTheProcessorsRunsUnboundAndTheNextOneBindsAgain() throws Exception {
        try (CohortProcess holder = start("run", "-n", "1", "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "WhichCpus",
                "wait")) {
            assertTrue(holder.awaitOut(l -> l.equals("rank 0 cpus " + both()), 1), holder.toString());
            CohortProcess second = run("run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "WhichCpus");
            assertEquals(0, second.exitCode(), second.toString());
            assertTrue(second.out().containsAll(List.of("rank 0 cpus " + both(), "rank 1 cpus " + both())),
                    "not bound onto the first job's processors: " + second);
            assertEquals(List.of(), shared(second), "unbound peers are not told they share: " + second);
            holder.closeStdin();
            assertEquals(0, holder.waitFor(), holder.toString());
        }
        // The first job's io-manager gave its processors up before it reported the exit its launcher ended on.
        CohortProcess third = run("run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "WhichCpus");
        assertTrue(third.out().containsAll(List.of("rank 0 cpus " + a, "rank 1 cpus " + b)), third.toString());
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void hostsThatShareThisMachineAreLeftUnboundByDefault() throws Exception {
        // Each host's io-manager would claim the machine's processors for its own peers.
        CohortProcess p = run("run", "-n", "2", "--hosts", "ha,hb", "--launch-agent", "local", "-cp",
                CohortProcess.TEST_CLASSES, PROGRAMS + "WhichCpus");
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.out().containsAll(List.of("rank 0 cpus " + both(), "rank 1 cpus " + both())), p.toString());
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void boundPeersStillCountTheCoresOfTheirHostBetweenThem() throws Exception {
        // Each bound JVM sees one processor; collectives must still see two cores for two peers.
        CohortProcess p = run("run", "-n", "2", "--bind-to", "core", "--verbose", "-cp", CohortProcess.TEST_CLASSES,
                PROGRAMS + "ChecksumAllToAll", "1", "1");
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.err().contains("cohort: 2 peers on 1 machine (cores: 2); bound: rank 0 to " + a + ", rank 1 to " + b),
                p.toString());
    }

    @Test
    @Timeout(60)
    void anUnknownModeIsOneSentenceBeforeAnythingStarts() throws Exception {
        CohortProcess p = run("run", "-n", "2", "--bind-to", "socket", "--example", "hello");
        assertEquals(2, p.exitCode(), p.toString());
        assertEquals(List.of("cohort: --bind-to socket is not one of [auto, none, core]"), p.err(), p.toString());
        assertFalse(p.out().stream().anyMatch(l -> l.contains("hello")), p.toString());
        CohortProcess x = run("run", "-n", "1", "-x", "COHORT_BIND_TO=bogus", "--example", "hello");
        assertEquals(2, x.exitCode(), x.toString());
        assertEquals(List.of("cohort: -x COHORT_BIND_TO=bogus is not one of [auto, none, core]"), x.err(), x.toString());
    }
}

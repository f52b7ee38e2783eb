package io.cohort.systest;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code cohort run --bind-to core}: every peer confined to one processor of those its io-manager
 * may use, by local rank. The jobs run under {@code taskset -c 0,1}, so the processors they may use
 * are known whatever the machine has.
 */
class CoreBindingSystemTest {
    private static final String PROGRAMS = "io.cohort.systest.programs.";
    private static final List<String> TWO_CPUS = List.of("taskset", "-c", "0,1");

    @BeforeAll
    static void twoProcessors() {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs processors 0 and 1");
    }

    private static CohortProcess run(String... args) throws Exception {
        CohortProcess p = CohortProcess.startUnder(TWO_CPUS, Map.of(), args);
        p.closeStdin();
        p.waitFor();
        return p;
    }

    @Test
    @Timeout(60)
    void eachPeerRunsOnTheProcessorOfItsLocalRankInTurn() throws Exception {
        CohortProcess p = run("run", "-n", "3", "--bind-to", "core", "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "WhichCpus");
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.out().containsAll(List.of("rank 0 cpus 0", "rank 1 cpus 1", "rank 2 cpus 0")), p.toString());
    }

    @Test
    @Timeout(60)
    void withoutItPeersMayRunOnEveryProcessorTheLauncherMay() throws Exception {
        CohortProcess p = run("run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "WhichCpus");
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.out().containsAll(List.of("rank 0 cpus 0-1", "rank 1 cpus 0-1")), p.toString());
        CohortProcess none = run("run", "-n", "1", "--bind-to", "none", "-cp", CohortProcess.TEST_CLASSES,
                PROGRAMS + "WhichCpus");
        assertEquals(List.of("rank 0 cpus 0-1"), none.out(), none.toString());
    }

    @Test
    @Timeout(60)
    void boundPeersStillCountTheCoresOfTheirHostBetweenThem() throws Exception {
        // Each bound JVM sees one processor; collectives must still see two cores for two peers.
        CohortProcess p = run("run", "-n", "2", "--bind-to", "core", "--verbose", "-cp", CohortProcess.TEST_CLASSES,
                PROGRAMS + "ChecksumAllToAll", "1", "1");
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.err().contains("cohort: 2 peers on 1 machine (cores: 2)"), p.toString());
    }

    @Test
    @Timeout(60)
    void anUnknownModeIsOneSentenceBeforeAnythingStarts() throws Exception {
        CohortProcess p = run("run", "-n", "2", "--bind-to", "socket", "--example", "hello");
        assertEquals(2, p.exitCode(), p.toString());
        assertEquals(List.of("cohort: --bind-to socket is not one of [none, core]"), p.err(), p.toString());
        assertFalse(p.out().stream().anyMatch(l -> l.contains("hello")), p.toString());
    }
}

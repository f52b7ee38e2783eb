package io.cohort.systest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cohort run --serial-filter}: the pattern reaches every peer, a refused class fails that
 * receive alone with a sentence, the JVM-wide jdk.serialFilter is honoured alongside, and a bad
 * pattern is one line and exit 2 before anything starts.
 */
class SerialFilterSystemTest {
    private static final String PROGRAM = "io.cohort.systest.programs.SendsObjects";

    @Test
    @Timeout(90)
    void aRefusedClassFailsOneReceiveAndTheJobGoesOn() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "--serial-filter", "!java.util.TreeMap",
                "--jvm-opt", "-Djdk.serialFilter=!java.util.LinkedList", "-cp", CohortProcess.TEST_CLASSES, PROGRAM);
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of(
                "tag 1 refused: refused to deserialize a message from rank 0 (tag 1): class java.util.TreeMap is rejected by"
                        + " the serial filter 'maxdepth=20;maxrefs=10000000;!java.util.TreeMap'; cohort run --serial-filter"
                        + " can widen it",
                "tag 2 refused: refused to deserialize a message from rank 0 (tag 2): class java.util.LinkedList is rejected"
                        + " by jdk.serialFilter '!java.util.LinkedList'",
                "tag 3: three"), p.out(), p.toString());
    }

    @Test
    @Timeout(90)
    void anUncaughtRefusalIsOneLineNamingTheRankAndTheCall() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "--serial-filter", "!java.util.TreeMap",
                "-cp", CohortProcess.TEST_CLASSES, PROGRAM, "uncaught");
        assertEquals(1, p.exitCode(), p.toString());
        List<String> rank1 = p.err().stream().filter(l -> l.startsWith("cohort: rank 1: ")).toList();
        assertEquals(1, rank1.size(), p.toString());
        assertTrue(rank1.get(0).matches("cohort: rank 1: refused to deserialize a message from rank 0 \\(tag 1\\): class"
                + " java\\.util\\.TreeMap is rejected by the serial filter '.*!java\\.util\\.TreeMap'; cohort run"
                + " --serial-filter can widen it \\(at io\\.cohort\\.systest\\.programs\\.SendsObjects\\.main\\(SendsObjects"
                + "\\.java:\\d+\\)\\)"), rank1.get(0));
        assertFalse(p.err().stream().anyMatch(l -> l.contains("\tat ")), "no stack trace: " + p);
    }

    @Test
    @Timeout(30)
    void aBadPatternIsOneLineAndExit2() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "--serial-filter", "maxdepth=deep", "--example", "pi");
        assertEquals(2, p.exitCode(), p.toString());
        assertEquals(1, p.err().size(), p.toString());
        assertTrue(p.err().get(0).startsWith("cohort: --serial-filter: serial filter 'maxdepth=deep' is not a"
                + " jdk.serialFilter pattern ("), p.toString());
        CohortProcess jvm = CohortProcess.run("run", "-n", "2", "--jvm-opt", "-Djdk.serialFilter=maxfoo=1",
                "--example", "pi");
        assertEquals(2, jvm.exitCode(), jvm.toString());
        assertEquals(1, jvm.err().size(), jvm.toString());
        assertTrue(jvm.err().get(0).startsWith("cohort: --jvm-opt -Djdk.serialFilter=maxfoo=1: serial filter"), jvm.toString());
    }
}

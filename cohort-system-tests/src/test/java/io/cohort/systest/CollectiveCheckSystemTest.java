package io.cohort.systest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cohort run --check-collectives}: the deadlock of {@code MismatchedCollectives} (the last
 * rank in a bcast, the others in a barrier) becomes a failed job with one sentence (every rank
 * throws it; the launcher may stop the others before they print it).
 */
class CollectiveCheckSystemTest {
    private static final String EXPECTED = "the ranks of world disagree about collective #1: [0-2] barrier; [3] bcast from root 0"
            + " of 4 ints; every rank must make the same collective calls in the same order (--check-collectives)";

    @Test
    @Timeout(90)
    void aMismatchFailsEveryRankWithOneSentenceInsteadOfHanging() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "4", "--check-collectives", "--timeout", "60",
                "-cp", CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.MismatchedCollectives");
        assertEquals(1, p.exitCode(), p.toString());
        long ranksSaying = p.err().stream().filter(l -> l.matches("cohort: rank \\d: " + java.util.regex.Pattern.quote(EXPECTED)
                + " \\(at io\\.cohort\\.systest\\.programs\\.MismatchedCollectives\\.main\\(MismatchedCollectives\\.java:\\d+\\)\\)")).count();
        assertTrue(ranksSaying >= 1, "the sentence: " + p);
        assertTrue(p.err().stream().noneMatch(l -> l.startsWith("\tat ") || l.startsWith("Exception in thread")),
                "one line per rank, no stack trace: " + p);
        String summary = p.err().get(p.err().size() - 1);
        assertTrue(summary.startsWith("cohort: job ") && summary.contains("exited with status 1 (root cause)"), p.toString());
    }
}

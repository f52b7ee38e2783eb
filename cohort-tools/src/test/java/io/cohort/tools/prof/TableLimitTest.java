package io.cohort.tools.prof;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(10)
class TableLimitTest {
    private static final List<Integer> WEIGHTS = List.of(50, 30, 10, 5, 5);

    private static List<Integer> keep(int top, double share) {
        return new TableLimit(top, share).apply(WEIGHTS, Integer::doubleValue).rows();
    }

    @Test
    void topCutsTheCount() {
        assertEquals(List.of(50, 30), keep(2, 100));
        assertEquals(WEIGHTS, keep(20, 100));
        assertEquals(" (2 of 5)", new TableLimit(2, 100).apply(WEIGHTS, Integer::doubleValue).shownOf());
        assertEquals("", new TableLimit(9, 100).apply(WEIGHTS, Integer::doubleValue).shownOf());
    }

    @Test
    void shareKeepsEntriesUntilTheyCoverIt() {
        assertEquals(List.of(50), keep(20, 50), "the first entry alone covers half");
        assertEquals(List.of(50, 30), keep(20, 51));
        assertEquals(List.of(50, 30, 10), keep(20, 90));
        assertEquals(List.of(50), keep(20, 1), "the first entry is always shown");
        assertEquals(List.of(50, 30), keep(2, 95), "whichever limit comes first");
    }

    @Test
    void atTheFullShareEntriesOfNoWeightAreShownToo() {
        List<Integer> withZeros = List.of(70, 30, 0, 0);
        assertEquals(withZeros, new TableLimit(20, 100).apply(withZeros, Integer::doubleValue).rows(),
                "an operation called but of no measurable time is still listed");
        assertEquals(List.of(70, 30), new TableLimit(20, 99).apply(withZeros, Integer::doubleValue).rows());
    }

    @Test
    void badLimitsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TableLimit(0, 100));
        assertThrows(IllegalArgumentException.class, () -> new TableLimit(5, 0));
        assertThrows(IllegalArgumentException.class, () -> new TableLimit(5, 100.5));
        assertThrows(IllegalArgumentException.class, () -> new TableLimit(5, Double.NaN));
    }
}

package io.cohort.daemon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(10)
class RingPlanTest {
    private static final List<String> ORDER = List.of("a", "b", "c", "d");

    @Test
    void successorsFollowTheDatabaseOrderAndWrapAround() {
        assertEquals(List.of("b", "c", "d"), RingPlan.candidates(ORDER, "a"));
        assertEquals(List.of("d", "a", "b"), RingPlan.candidates(ORDER, "c"));
        assertEquals(List.of("a", "b", "c"), RingPlan.candidates(ORDER, "d"));
        assertEquals(List.of(), RingPlan.candidates(List.of("a"), "a"));
        assertThrows(IllegalArgumentException.class, () -> RingPlan.candidates(ORDER, "x"));
    }

    @Test
    void unreachableMembersAreSkipped() {
        List<String> c = RingPlan.candidates(ORDER, "c");
        assertEquals(0, RingPlan.firstReachable(c, m -> true));
        assertEquals(2, RingPlan.firstReachable(c, m -> Set.of("b").contains(m)), "d and a are down: c links to b");
        assertEquals(-1, RingPlan.firstReachable(c, m -> false));
    }
}

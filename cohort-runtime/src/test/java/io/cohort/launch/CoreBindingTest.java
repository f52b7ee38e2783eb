package io.cohort.launch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoreBindingTest {
    @Test
    void localRanksTakeTheAllowedProcessorsInOrderThenInTurn() {
        String allowed = "2-3,6";
        assertEquals(2, CoreBinding.cpuFor(0, allowed));
        assertEquals(3, CoreBinding.cpuFor(1, allowed));
        assertEquals(6, CoreBinding.cpuFor(2, allowed));
        assertEquals(2, CoreBinding.cpuFor(3, allowed));
        assertEquals(6, CoreBinding.cpuFor(5, allowed));
    }

    @Test
    void anUnreadableListIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CoreBinding.cpuFor(0, "zero"));
        assertTrue(e.getMessage().contains("\"zero\""), e.getMessage());
    }

    @Test
    void onlyCoreAsksForBinding() {
        assertFalse(CoreBinding.wanted(Map.of()));
        assertFalse(CoreBinding.wanted(Map.of("COHORT_BIND_TO", "none")));
        assertTrue(CoreBinding.wanted(Map.of("COHORT_BIND_TO", "core")));
        assertThrows(IllegalArgumentException.class, () -> CoreBinding.wanted(Map.of("COHORT_BIND_TO", "socket")));
    }

    @Test
    void thePrefixNamesTasksetAndTheProcessorOfTheLocalRank() throws IOException {
        String first = Integer.toString(CoreBinding.cpuFor(0, CoreBinding.allowedCpus()));
        java.util.List<String> prefix = CoreBinding.prefix(Map.of("COHORT_BIND_INDEX", "0"));
        assertEquals(3, prefix.size(), prefix.toString());
        assertTrue(prefix.get(0).endsWith("/taskset"), prefix.toString());
        assertEquals(java.util.List.of("-c", first), prefix.subList(1, 3));
    }

    @Test
    void aPeerWithoutItsIndexIsRefusedInOneSentence() {
        IOException e = assertThrows(IOException.class, () -> CoreBinding.prefix(Map.of("COHORT_LOCAL_RANK", "0")));
        assertEquals("--bind-to core needs the peer's COHORT_BIND_INDEX, which is not set", e.getMessage());
    }
}

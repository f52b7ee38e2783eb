package io.cohort.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class PlacementTest {
    @Test
    void peersOfOneKernelCountAgainstItsCoresWhateverTheirHostNames() {
        // The cluster in a box: eight namespaces of one kernel with two cores.
        String[] machine = new String[8];
        int[] cores = new int[8];
        java.util.Arrays.fill(machine, "boot-a");
        java.util.Arrays.fill(cores, 2);
        Placement box = Placement.of(machine, cores);
        assertEquals(1, box.machines());
        assertTrue(box.peersOutnumberCores(new int[] {0, 1, 2, 3, 4, 5, 6, 7}));
        assertTrue(box.peersOutnumberCores(new int[] {1, 5, 7}));
        assertFalse(box.peersOutnumberCores(new int[] {2, 6}), "two peers on two cores");
        assertEquals("8 peers on 1 machine (cores: 2); more peers than cores, so collectives send fewer messages",
                box.describe());
    }

    @Test
    void eachMachineIsCountedOnItsOwnAtItsLargestReportedCoreCount() {
        Placement p = Placement.of(new String[] {"a", "a", "b", "b", "b"}, new int[] {2, 2, 1, 4, 2});
        assertEquals(2, p.machines());
        assertEquals("5 peers on 2 machines (cores: 2, 4)", p.describe());
        assertFalse(p.peersOutnumberCores(new int[] {0, 1, 2, 3, 4}), "b has 4 cores for its 3 peers");
        Placement q = Placement.of(new String[] {"a", "a", "a", "b"}, new int[] {2, 2, 2, 8});
        assertTrue(q.peersOutnumberCores(new int[] {0, 1, 2, 3}));
        assertFalse(q.peersOutnumberCores(new int[] {0, 3}));
    }

    @Test
    void unknownCoresOrRanksNeverCountAsCrowded() {
        assertFalse(Placement.UNKNOWN.peersOutnumberCores(new int[] {0, 1, 2}));
        assertFalse(Placement.of(new String[] {"a", "a", "a"}, new int[] {0, 0, 0}).peersOutnumberCores(new int[] {0, 1, 2}));
        assertFalse(Placement.oneMachine(2, 1).peersOutnumberCores(new int[] {0, 5}), "rank 5 is not in the job");
        assertTrue(Placement.oneMachine(3, 2).peersOutnumberCores(new int[] {0, 1, 2}));
        assertThrows(IllegalArgumentException.class, () -> Placement.of(new String[] {"a"}, new int[0]));
    }
}

package io.cohort.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class PlacementTest {
    private static int[] all(int n, int v) {
        int[] a = new int[n];
        Arrays.fill(a, v);
        return a;
    }

    private static String[] all(int n, String v) {
        String[] a = new String[n];
        Arrays.fill(a, v);
        return a;
    }

    @Test
    void peersOfOneKernelCountAgainstItsCoresWhateverTheirHostNames() {
        // The cluster in a box: eight namespaces of one kernel with two cores, no limits of their own.
        String[] machine = new String[8];
        Arrays.fill(machine, "boot-a");
        Placement box = Placement.of(machine, all(8, 2), all(8, "0-1"));
        assertEquals(1, box.machines());
        assertTrue(box.peersOutnumberCores(new int[] {0, 1, 2, 3, 4, 5, 6, 7}));
        assertTrue(box.peersOutnumberCores(new int[] {1, 5, 7}));
        assertFalse(box.peersOutnumberCores(new int[] {2, 6}), "two peers on two cores");
        assertEquals("8 peers on 1 machine (cores: 2); more peers than cores, so collectives send fewer messages",
                box.describe());
    }

    @Test
    void eachMachineIsCountedOnItsOwn() {
        Placement p = Placement.of(new String[] {"a", "a", "b", "b", "b"}, new int[] {2, 2, 4, 4, 4},
                new String[] {"0-1", "0-1", "0-3", "0-3", "0-3"});
        assertEquals(2, p.machines());
        assertFalse(p.peersOutnumberCores(new int[] {0, 1, 2, 3, 4}), "b has 4 cores for its 3 peers");
        assertEquals("5 peers on 2 machines (cores: 2, 4)", p.describe());
        Placement q = Placement.of(new String[] {"a", "a", "a", "b"}, new int[] {2, 2, 2, 8},
                new String[] {"0-1", "0-1", "0-1", "0-7"});
        assertTrue(q.peersOutnumberCores(new int[] {0, 1, 2, 3}));
        assertFalse(q.peersOutnumberCores(new int[] {0, 3}));
    }

    @Test
    void peersHaveTheProcessorsOfTheirSetsTogetherAndNoMoreThanTheirCounts() {
        String[] host = all(8, "boot-big");
        int[] everyPeer = {0, 1, 2, 3, 4, 5, 6, 7};
        // A batch system's cpuset of four processors on a 64-core node, shared by the job's peers.
        assertTrue(Placement.of(host, all(8, 4), all(8, "8-11")).peersOutnumberCores(everyPeer));
        // Each peer pinned to a processor of its own.
        String[] pinned = {"0", "1", "2", "3", "4", "5", "6", "7"};
        Placement p = Placement.of(host, all(8, 1), pinned);
        assertFalse(p.peersOutnumberCores(everyPeer));
        assertEquals("8 peers on 1 machine (cores: 8)", p.describe());
        // Containers with a quota of one CPU each and no cpuset: they see every processor, may use one.
        assertFalse(Placement.of(host, all(8, 1), all(8, "0-63")).peersOutnumberCores(everyPeer));
        // A job started under taskset -c 0: one processor for all.
        assertTrue(Placement.of(host, all(8, 1), all(8, "0")).peersOutnumberCores(new int[] {0, 1}));
        // Sets unknown: assumed shared, the largest count.
        assertTrue(Placement.of(host, all(8, 4), all(8, "")).peersOutnumberCores(new int[] {0, 1, 2, 3, 4}));
        assertFalse(Placement.of(host, all(8, 4), all(8, "")).peersOutnumberCores(new int[] {0, 1, 2, 3}));
    }

    @Test
    void partOfAMachinesRanksHasTheUnionOfItsOwnSets() {
        // cohort run -n 4 --bind-to core on two processors: ranks 0 and 2 share processor 0.
        String[] host = all(4, "m");
        Placement p = Placement.of(host, all(4, 1), new String[] {"0", "1", "0", "1"});
        assertTrue(p.peersOutnumberCores(new int[] {0, 1, 2, 3}));
        assertTrue(p.peersOutnumberCores(new int[] {0, 2}));
        assertFalse(p.peersOutnumberCores(new int[] {0, 1}));
        assertEquals("4 peers on 1 machine (cores: 2); more peers than cores, so collectives send fewer messages", p.describe());
    }

    @Test
    void linuxCpuListsParse() {
        assertEquals(1, Placement.cpuSet("0").cardinality());
        assertEquals(2, Placement.cpuSet("0-1").cardinality());
        assertEquals(5, Placement.cpuSet("0-3,6").cardinality());
        assertEquals(null, Placement.cpuSet(""));
        assertEquals(null, Placement.cpuSet("3-1"));
        assertEquals(null, Placement.cpuSet("a-b"));
        assertEquals(null, Placement.cpuSet("0-99999999"), "no giant sets from a malformed record");
    }

    @Test
    void unknownCoresOrRanksNeverCountAsCrowded() {
        assertFalse(Placement.UNKNOWN.peersOutnumberCores(new int[] {0, 1, 2}));
        Placement unknown = Placement.of(new String[] {"a", "a", "a"}, all(3, 0), all(3, "0-1"));
        assertFalse(unknown.peersOutnumberCores(new int[] {0, 1, 2}));
        assertEquals("3 peers on 1 machine (cores: ?)", unknown.describe());
        assertFalse(Placement.oneMachine(2, 1).peersOutnumberCores(new int[] {0, 5}), "rank 5 is not in the job");
        assertTrue(Placement.oneMachine(3, 2).peersOutnumberCores(new int[] {0, 1, 2}));
        assertThrows(IllegalArgumentException.class, () -> Placement.of(new String[] {"a"}, new int[0], new String[1]));
    }
}

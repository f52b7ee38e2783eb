package io.cohort.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class MachineMapTest {
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
        MachineMap box = MachineMap.of(machine, all(8, 2), all(8, "0-1"));
        assertEquals(1, box.machines());
        assertTrue(box.peersOutnumberCores(new int[] {0, 1, 2, 3, 4, 5, 6, 7}));
        assertTrue(box.peersOutnumberCores(new int[] {1, 5, 7}));
        assertFalse(box.peersOutnumberCores(new int[] {2, 6}), "two peers on two cores");
        assertEquals("8 peers on 1 machine (cores: 2); more peers than cores, so collectives send fewer messages",
                box.describe());
    }

    @Test
    void eachMachineIsCountedOnItsOwn() {
        MachineMap p = MachineMap.of(new String[] {"a", "a", "b", "b", "b"}, new int[] {2, 2, 4, 4, 4},
                new String[] {"0-1", "0-1", "0-3", "0-3", "0-3"});
        assertEquals(2, p.machines());
        assertFalse(p.peersOutnumberCores(new int[] {0, 1, 2, 3, 4}), "b has 4 cores for its 3 peers");
        assertEquals("5 peers on 2 machines (cores: 2, 4)", p.describe());
        MachineMap q = MachineMap.of(new String[] {"a", "a", "a", "b"}, new int[] {2, 2, 2, 8},
                new String[] {"0-1", "0-1", "0-1", "0-7"});
        assertTrue(q.peersOutnumberCores(new int[] {0, 1, 2, 3}));
        assertFalse(q.peersOutnumberCores(new int[] {0, 3}));
    }

    @Test
    void peersHaveTheProcessorsOfTheirSetsTogetherAndNoMoreThanTheirCounts() {
        String[] host = all(8, "boot-big");
        int[] everyPeer = {0, 1, 2, 3, 4, 5, 6, 7};
        // A batch system's cpuset of four processors on a 64-core node, shared by the job's peers.
        assertTrue(MachineMap.of(host, all(8, 4), all(8, "8-11")).peersOutnumberCores(everyPeer));
        // Each peer pinned to a processor of its own.
        String[] pinned = {"0", "1", "2", "3", "4", "5", "6", "7"};
        MachineMap p = MachineMap.of(host, all(8, 1), pinned);
        assertFalse(p.peersOutnumberCores(everyPeer));
        assertEquals("8 peers on 1 machine (cores: 8); bound: rank 0 to 0, rank 1 to 1, rank 2 to 2, rank 3 to 3,"
                + " rank 4 to 4, rank 5 to 5, rank 6 to 6, rank 7 to 7", p.describe());
        // Containers with a quota of one CPU each and no cpuset: they see every processor, may use one.
        assertFalse(MachineMap.of(host, all(8, 1), all(8, "0-63")).peersOutnumberCores(everyPeer));
        // A job started under taskset -c 0: one processor for all.
        assertTrue(MachineMap.of(host, all(8, 1), all(8, "0")).peersOutnumberCores(new int[] {0, 1}));
        // Sets unknown: assumed shared, the largest count.
        assertTrue(MachineMap.of(host, all(8, 4), all(8, "")).peersOutnumberCores(new int[] {0, 1, 2, 3, 4}));
        assertFalse(MachineMap.of(host, all(8, 4), all(8, "")).peersOutnumberCores(new int[] {0, 1, 2, 3}));
    }

    @Test
    void partOfAMachinesRanksHasTheUnionOfItsOwnSets() {
        // cohort run -n 4 --bind-to core on two processors: ranks 0 and 2 share processor 0.
        String[] host = all(4, "m");
        MachineMap p = MachineMap.of(host, all(4, 1), new String[] {"0", "1", "0", "1"});
        assertTrue(p.peersOutnumberCores(new int[] {0, 1, 2, 3}));
        assertTrue(p.peersOutnumberCores(new int[] {0, 2}));
        assertFalse(p.peersOutnumberCores(new int[] {0, 1}));
        assertEquals("4 peers on 1 machine (cores: 2); more peers than cores, so collectives send fewer messages;"
                + " bound: rank 0 to 0, rank 1 to 1, rank 2 to 0, rank 3 to 1", p.describe());
    }

    @Test
    void aBindingIsNamedOnlyWherePeersOfOneMachineHaveDifferentSets() {
        // Two machines of one processor set each: nothing bound.
        assertEquals("2 peers on 2 machines (cores: 2, 2)",
                MachineMap.of(new String[] {"a", "b"}, all(2, 2), new String[] {"0-1", "2-3"}).describe());
        // Blocks of a 64-core machine; more than eight ranks are cut short.
        String[] blocks = new String[9];
        for (int r = 0; r < blocks.length; r++) {
            blocks[r] = (7 * r) + "-" + (7 * r + 6);
        }
        assertEquals("9 peers on 1 machine (cores: 63); bound: rank 0 to 0-6, rank 1 to 7-13, rank 2 to 14-20,"
                + " rank 3 to 21-27, rank 4 to 28-34, rank 5 to 35-41, rank 6 to 42-48, rank 7 to 49-55, ...",
                MachineMap.of(all(9, "m"), all(9, 7), blocks).describe());
    }

    @Test
    void cpuListsAreWrittenAsLinuxWritesThem() {
        for (String list : new String[] {"0", "0-1", "0-3,6", "1,3,5", "2-4,8-9,11", "63"}) {
            assertEquals(list, MachineMap.cpuList(MachineMap.cpuSet(list)));
        }
        assertEquals("", MachineMap.cpuList(new java.util.BitSet()));
    }

    @Test
    void linuxCpuListsParse() {
        assertEquals(1, MachineMap.cpuSet("0").cardinality());
        assertEquals(2, MachineMap.cpuSet("0-1").cardinality());
        assertEquals(5, MachineMap.cpuSet("0-3,6").cardinality());
        assertEquals(null, MachineMap.cpuSet(""));
        assertEquals(null, MachineMap.cpuSet("3-1"));
        assertEquals(null, MachineMap.cpuSet("a-b"));
        assertEquals(null, MachineMap.cpuSet("0-99999999"), "no giant sets from a malformed record");
    }

    @Test
    void unknownCoresOrRanksNeverCountAsCrowded() {
        assertFalse(MachineMap.UNKNOWN.peersOutnumberCores(new int[] {0, 1, 2}));
        MachineMap unknown = MachineMap.of(new String[] {"a", "a", "a"}, all(3, 0), all(3, "0-1"));
        assertFalse(unknown.peersOutnumberCores(new int[] {0, 1, 2}));
        assertEquals("3 peers on 1 machine (cores: ?)", unknown.describe());
        assertFalse(MachineMap.oneMachine(2, 1).peersOutnumberCores(new int[] {0, 5}), "rank 5 is not in the job");
        assertTrue(MachineMap.oneMachine(3, 2).peersOutnumberCores(new int[] {0, 1, 2}));
        assertThrows(IllegalArgumentException.class, () -> MachineMap.of(new String[] {"a"}, new int[0], new String[1]));
    }
}

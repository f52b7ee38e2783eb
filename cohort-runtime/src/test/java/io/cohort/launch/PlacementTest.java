package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(5)
class PlacementTest {
    private static String[] hosts(Placement p) {
        return p.hostPerRank();
    }

    @Test
    void hostsWithoutSlotsShareTheRanksAsEquallyAsPossibleInBlocks() {
        assertArrayEquals(new String[] {"a", "a", "b", "c"}, hosts(Placement.parse("a,b,c", 4)));
        assertArrayEquals(new String[] {"a", "a", "b", "b"}, hosts(Placement.parse("a,b", 4)));
        assertArrayEquals(new String[] {"a", "a", "a", "b", "b"}, hosts(Placement.parse("a,b", 5)));
    }

    @Test
    void explicitSlotsComeFirstAndTheRestIsShared() {
        Placement p = Placement.parse("a:2,b,c", 8);
        assertArrayEquals(new String[] {"a", "a", "b", "b", "b", "c", "c", "c"}, hosts(p));
        assertEquals("a: ranks 0-1, b: ranks 2-4, c: ranks 5-7", p.toString());
    }

    @Test
    void hostsLeftWithoutRanksGetNoIoManager() {
        Placement p = Placement.parse("a:4,b", 3);
        assertEquals(List.of("a"), p.hosts());
        assertEquals(List.of("a", "b"), Placement.parse("a,b,c", 2).hosts());
    }

    @Test
    void localRankAndSizeArePerHost() {
        Placement p = Placement.parse("x:1,y:3", 4);
        assertEquals(0, p.localRank(0));
        assertEquals(1, p.localSize(0));
        assertEquals(2, p.localRank(3));
        assertEquals(3, p.localSize(3));
        assertArrayEquals(new int[] {1, 2, 3}, p.ranksOn(1));
        assertEquals("y", p.hostOf(2));
    }

    @Test
    void singleHostHoldsEveryRank() {
        Placement p = Placement.singleHost("me", 3);
        assertEquals(List.of("me"), p.hosts());
        assertEquals(3, p.localSize(2));
        assertEquals(2, p.localRank(2));
    }

    @Test
    void badListsAreOneSentenceEach() {
        assertMessage("a:1,b:1", 3, "offers 2 slots for 3 peers");
        assertMessage("a,a", 2, "names a twice");
        assertMessage("a,,b", 2, "empty entry");
        assertMessage("a:0", 2, "number of slots from 1");
        assertMessage("a:x", 2, "number of slots from 1");
        assertMessage("-a", 2, "not a host name");
        assertMessage("a b", 2, "not a host name");
        assertMessage(" ", 2, "--hosts needs a list");
    }

    private static void assertMessage(String list, int n, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Placement.parse(list, n));
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void ofPlacesRanksInBlocksOnChosenHosts() {
        Placement p = Placement.of(List.of("b", "a"), new int[] {2, 1});
        assertArrayEquals(new String[] {"b", "b", "a"}, hosts(p));
        assertEquals(2, p.localSize(0));
        assertThrows(IllegalArgumentException.class, () -> Placement.of(List.of("a", "a"), new int[] {1, 1}));
        assertThrows(IllegalArgumentException.class, () -> Placement.of(List.of("a"), new int[] {0}));
    }

    @Test
    void hostfilesReadOpenMpiAndColonFormsWithComments() {
        String text = "# the lab\r\nnode1 slots=2\n\n  node2:3   # fast one\nnode3\nnode4 slots=1 max_slots=4\n";
        Placement p = Placement.parseHostfile(text, "hosts.txt", 7);
        assertArrayEquals(new String[] {"node1", "node1", "node2", "node2", "node2", "node3", "node4"}, hosts(p));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> Placement.parseHostfile("node1\nnode2 cpu=4\n", "hosts.txt", 2));
        assertEquals("hosts.txt:2: 'cpu=4' is not understood; write 'HOST', 'HOST slots=N' or 'HOST:N'", bad.getMessage());
        IllegalArgumentException few = assertThrows(IllegalArgumentException.class,
                () -> Placement.parseHostfile("a slots=1\nb slots=1\n", "h", 3));
        assertTrue(few.getMessage().startsWith("h: hosts a:1,b:1 offers 2 slots for 3 peers"), few.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Placement.parseHostfile("# nothing\n", "h", 1));
        IllegalArgumentException slots = assertThrows(IllegalArgumentException.class,
                () -> Placement.parseHostfile("a\n# two\nb slots=x\n", "h", 2));
        assertEquals("h:3: 'b slots=x' needs a number of slots from 1 to " + Placement.MAX_SLOTS, slots.getMessage());
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
                () -> Placement.parseHostfile("a\nb@c:2\n", "h", 2));
        assertTrue(name.getMessage().startsWith("h:2: 'b@c' is not a host name"), name.getMessage());
    }
}

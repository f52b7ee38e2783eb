package io.cohort.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(5)
class PeerPlacerTest {
    private static Partition partition(String... members) {
        return new Partition("p", List.of(members), "auto", 0, 0, SchedulingPolicy.NORMAL, 1, 1, Set.of("*"), Set.of(),
                null, PlacementMode.PHYSICAL);
    }

    private static MemberLoad idle(String name, int cpus) {
        return new MemberLoad(name, true, cpus, 0.0, 4, 0);
    }

    @Test
    void physicalModeTakesTheLeastLoadedMembersOnePeerEach() {
        List<MemberLoad> loads = List.of(
                new MemberLoad("a", true, 1, 3.0, 4, 0),
                new MemberLoad("b", true, 1, 0.1, 4, 0),
                new MemberLoad("c", true, 1, 0.5, 4, 0),
                new MemberLoad("d", true, 1, 0.2, 4, 0));
        Map<String, Integer> m = PeerPlacer.place(partition("a", "b", "c", "d"), loads, 3, PlacementMode.PHYSICAL);
        assertEquals(List.of("b", "d", "c"), List.copyOf(m.keySet()), "the loaded member a is avoided");
        assertTrue(m.values().stream().allMatch(v -> v == 1));
    }

    @Test
    void loadIsComparedPerCpuThenByFreeSlotsThenByDatabaseOrder() {
        List<MemberLoad> loads = List.of(
                new MemberLoad("one", true, 1, 1.0, 4, 0),     // 1.0 per CPU
                new MemberLoad("four", true, 4, 2.0, 4, 0),    // 0.5 per CPU
                new MemberLoad("x", true, 2, 0.0, 2, 1),       // 0.0, one free slot
                new MemberLoad("y", true, 2, 0.0, 4, 0));      // 0.0, four free slots
        Map<String, Integer> m = PeerPlacer.place(partition("one", "four", "x", "y"), loads, 4, PlacementMode.PHYSICAL);
        assertEquals(List.of("y", "x", "four", "one"), List.copyOf(m.keySet()));
        Map<String, Integer> tie = PeerPlacer.place(partition("q", "p"), List.of(idle("p", 1), idle("q", 1)), 2,
                PlacementMode.PHYSICAL);
        assertEquals(List.of("q", "p"), List.copyOf(tie.keySet()), "equal members go in the partition's order");
    }

    @Test
    void downDrainedFullAndForeignMembersAreNeverUsed() {
        List<MemberLoad> loads = List.of(
                new MemberLoad("down", false, 8, 0.0, 8, 0),
                new MemberLoad("drained", true, 8, 0.0, 0, 0),
                new MemberLoad("full", true, 8, 0.0, 2, 2),
                new MemberLoad("outside", true, 8, 0.0, 8, 0),
                new MemberLoad("ok", true, 1, 5.0, 1, 0));
        Map<String, Integer> m = PeerPlacer.place(partition("down", "drained", "full", "ok", "missing"), loads, 1,
                PlacementMode.PHYSICAL);
        assertEquals(Map.of("ok", 1), m);
    }

    @Test
    void physicalModeRefusesMorePeersThanAvailableMembersWithOneSentence() {
        PlacementException e = assertThrows(PlacementException.class, () -> PeerPlacer.place(partition("a", "b", "c"),
                List.of(idle("a", 1), idle("b", 1), new MemberLoad("c", false, 1, 0, 1, 0)), 3, PlacementMode.PHYSICAL));
        assertEquals("partition p has 2 available members for 3 peers, and physical mode runs one peer per member;"
                + " use --mode virtual or fewer peers", e.getMessage());
        PlacementException none = assertThrows(PlacementException.class, () -> PeerPlacer.place(partition("a"),
                List.of(new MemberLoad("a", true, 1, 0, 0, 0)), 1, PlacementMode.VIRTUAL));
        assertTrue(none.getMessage().startsWith("partition p has no available member with a free job slot"), none.getMessage());
    }

    @Test
    void virtualModeFillsByLoadPerCpuCountingThePeersAlreadyGiven() {
        Map<String, Integer> even = PeerPlacer.place(partition("a", "b", "c", "d"),
                List.of(idle("a", 1), idle("b", 1), idle("c", 1), idle("d", 1)), 8, PlacementMode.VIRTUAL);
        assertEquals(Map.of("a", 2, "b", 2, "c", 2, "d", 2), even);
        Map<String, Integer> big = PeerPlacer.place(partition("small", "big"),
                List.of(idle("small", 1), idle("big", 4)), 5, PlacementMode.VIRTUAL);
        assertEquals(List.of("big", "small"), List.copyOf(big.keySet()), "ranking order: ties on load go to the member with more CPUs");
        assertEquals(4, big.get("big"));
        assertEquals(1, big.get("small"));
        Map<String, Integer> loaded = PeerPlacer.place(partition("a", "b"),
                List.of(new MemberLoad("a", true, 1, 3.0, 4, 0), idle("b", 1)), 5, PlacementMode.VIRTUAL);
        assertEquals(Map.of("b", 4, "a", 1), loaded, "a at load 3 gets a peer only once b carries more than 3");
        assertEquals(8, PeerPlacer.place(partition("a"), List.of(idle("a", 1)), 8, PlacementMode.VIRTUAL).get("a"));
    }

    @Test
    void accessListsAdmitUsersByNameOrGroupAndRefuseOthersWithOneSentence() {
        Partition open = partition("a");
        Partition closed = new Partition("secure", List.of("a"), "auto", 0, 0, SchedulingPolicy.NORMAL, 1, 1,
                Set.of("alice"), Set.of("hpc"), null, PlacementMode.PHYSICAL);
        new UserIdentity("bob", Set.of()).checkAllowed(open);
        new UserIdentity("alice", Set.of()).checkAllowed(closed);
        new UserIdentity("carol", Set.of("users", "hpc")).checkAllowed(closed);
        AccessDeniedException e = assertThrows(AccessDeniedException.class,
                () -> new UserIdentity("bob", Set.of("users")).checkAllowed(closed));
        assertEquals("user bob may not run jobs in partition secure (allowed: users alice, groups hpc)", e.getMessage());
    }
}

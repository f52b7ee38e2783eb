package io.cohort.deck.service;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A group server's bookkeeping alone: ids, the sync rule, the minimum. */
class GroupMembershipTest {
    @Test
    void idsAreNeverReused() {
        GroupMembership g = new GroupMembership(0);
        int a = g.join(0, 1);
        int b = g.join(1, 1);
        g.remove(a);
        int c = g.join(2, 1);
        assertEquals(List.of(1, 2, 3), List.of(a, b, c));
        assertEquals(2, g.size());
        assertEquals(b, g.memberWith(1, 1).id());
        assertNull(g.memberWith(0, 1));
    }

    @Test
    void syncReleasesWhenTheLastMemberArrivesInAnyOrder() {
        for (int[] order : new int[][] {{1, 2, 3}, {3, 1, 2}, {2, 3, 1}}) {
            GroupMembership g = new GroupMembership(3);
            for (int r = 0; r < 3; r++) {
                g.join(r, 1);
            }
            g.sync(order[0], 0, 10);
            assertTrue(g.releasable().isEmpty());
            g.sync(order[1], 0, 11);
            assertTrue(g.releasable().isEmpty());
            g.sync(order[2], 0, 12);
            assertEquals(3, g.releasable().size());
            assertTrue(g.releasable().isEmpty(), "released once");
        }
    }

    @Test
    void syncWaitsForTheMinimumAndForLateJoiners() {
        GroupMembership g = new GroupMembership(2);
        int a = g.join(0, 1);
        g.sync(a, 0, 1);
        assertTrue(g.releasable().isEmpty(), "below the minimum");
        int b = g.join(1, 1);
        assertTrue(g.releasable().isEmpty(), "the joiner must sync too");
        g.sync(b, 1, 2);
        assertEquals(2, g.releasable().size());
    }

    @Test
    void aLeaverNoLongerHoldsTheOthersBack() {
        GroupMembership g = new GroupMembership(1);
        int a = g.join(0, 1);
        int b = g.join(1, 1);
        g.sync(a, 0, 1);
        assertNull(g.remove(b), "b was not syncing");
        assertEquals(List.of(new GroupMembership.Waiter(a, 0, 1)), g.releasable());
        g.sync(a, 0, 2);
        assertEquals(new GroupMembership.Waiter(a, 0, 2), g.remove(a));
        assertTrue(g.releasable().isEmpty());
    }
}

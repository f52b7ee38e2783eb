package io.cohort.mpi.support;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class LayoutTest {

    @Test
    void contiguousJoinsRunsAndKeepsItemsBackToBack() {
        Layout c = Layout.contiguous(3, Layout.ONE);
        assertEquals(1, c.runs());
        assertEquals(3, c.size);
        assertEquals(3, c.extent);
        assertTrue(c.contiguous);
        assertEquals(7, c.span(2) + 1);
    }

    @Test
    void stridedAndIndexedHaveTheBoundsMpiGivesThem() {
        Layout v = Layout.strided(3, 2, 4, Layout.ONE); // xx..xx..xx
        assertArrayEquals(new int[] {0, 4, 8}, v.offsets());
        assertArrayEquals(new int[] {2, 2, 2}, v.lengths());
        assertEquals(6, v.size);
        assertEquals(10, v.extent);
        assertFalse(v.contiguous);
        Layout ix = Layout.indexed(new int[] {2, 0, 1}, new int[] {1, 3, 5}, Layout.ONE);
        assertEquals(1, ix.lb);
        assertEquals(5, ix.extent);
        assertEquals(3, ix.size);
        assertEquals(0, Layout.strided(0, 2, 4, Layout.ONE).extent);
    }

    @Test
    void forEachRunVisitsItemsFromTheBaseInTypeMapOrder() {
        Layout v = Layout.strided(2, 1, 3, Layout.ONE); // x..x, extent 4
        List<String> runs = new ArrayList<>();
        v.forEachRun(5, 2, (at, n) -> runs.add(at + "+" + n));
        assertEquals(List.of("5+1", "8+1", "9+1", "12+1"), runs);
    }

    @Test
    void rankRangesCountUpAndDown() {
        assertArrayEquals(new int[] {0, 3, 6, 7, 5}, RankRanges.expand(new int[][] {{0, 6, 3}, {7, 5, -2}}, 8));
        assertArrayEquals(new int[] {}, RankRanges.expand(new int[][] {{5, 2, 1}}, 8), "an empty range");
        assertEquals("a range is (first, last, stride) with a stride other than 0, not [1, 2, 0]",
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                        () -> RankRanges.expand(new int[][] {{1, 2, 0}}, 8)).getMessage());
        // Checked before expanding: neither a huge range nor many repeats builds a long list.
        assertEquals("the range [0, 2147483647, 1] goes outside the group's ranks 0..7",
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                        () -> RankRanges.expand(new int[][] {{0, Integer.MAX_VALUE, 1}}, 8)).getMessage());
        int[][] repeated = new int[1_000_000][];
        java.util.Arrays.fill(repeated, new int[] {0, 7, 1});
        assertEquals("the ranges name more ranks than the group's 8, so some rank twice",
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                        () -> RankRanges.expand(repeated, 8)).getMessage());
    }

    @Test
    void completionsTellNoneActiveFromNotYet() {
        RequestSlots none = new RequestSlots() {
            public int count() {
                return 2;
            }

            public boolean active(int i) {
                return false;
            }

            public io.cohort.Request inner(int i) {
                return null;
            }
        };
        assertEquals(Completions.NONE_ACTIVE, Completions.testOne(none));
        assertEquals(Completions.NONE_ACTIVE, Completions.awaitOne(none));
        assertFalse(Completions.testEach(none));
        RequestSlots doneAtOnce = new RequestSlots() {
            public int count() {
                return 2;
            }

            public boolean active(int i) {
                return i == 1;
            }

            public io.cohort.Request inner(int i) {
                return null;
            }
        };
        assertEquals(1, Completions.testOne(doneAtOnce));
        assertEquals(1, Completions.awaitOne(doneAtOnce));
        assertTrue(Completions.testAll(doneAtOnce));
    }
}

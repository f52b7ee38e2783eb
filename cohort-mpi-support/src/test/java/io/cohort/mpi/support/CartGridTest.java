package io.cohort.mpi.support;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The grid arithmetic both MPI APIs' Cartesian communicators share, at its edges. */
class CartGridTest {
    private static final int NULL = -2;

    @Test
    void rowMajorRanksAndCoordinatesAreInverse() {
        CartGrid g = CartGrid.of(new int[] {2, 3, 4}, new boolean[3], 30);
        assertEquals(24, g.size());
        for (int r = 0; r < g.size(); r++) {
            assertEquals(r, g.rank(g.coords(r)));
        }
        assertArrayEquals(new int[] {1, 2, 3}, g.coords(23));
        assertArrayEquals(new int[] {0, 0, 1}, g.coords(1), "the last dimension varies fastest");
    }

    @Test
    void shiftsWrapOnPeriodicDimensionsAndStopAtTheOthers() {
        CartGrid g = CartGrid.of(new int[] {4, 3}, new boolean[] {true, false}, 12);
        assertArrayEquals(new int[] {9, 3}, g.shift(0, 0, 1, NULL), "rank 0: from the last row, to the next");
        assertArrayEquals(new int[] {3, 9}, g.shift(0, 0, -1, NULL), "a negative displacement swaps them");
        assertArrayEquals(new int[] {0, 0}, g.shift(0, 0, 4, NULL), "a whole turn comes back");
        assertArrayEquals(new int[] {9, 3}, g.shift(0, 0, 4001, NULL), "many turns and one step");
        assertArrayEquals(new int[] {NULL, 1}, g.shift(0, 1, 1, NULL));
        assertArrayEquals(new int[] {NULL, NULL}, g.shift(0, 1, 3, NULL), "past both edges");
        assertArrayEquals(new int[] {0, 0}, g.shift(0, 0, Integer.MIN_VALUE, NULL), "no overflow: 2^31 is whole turns");
        assertArrayEquals(new int[] {NULL, NULL}, g.shift(0, 1, Integer.MIN_VALUE, NULL));
    }

    @Test
    void subGridsAreColouredByTheDroppedCoordinates() {
        CartGrid g = CartGrid.of(new int[] {2, 3}, new boolean[] {false, true}, 6);
        assertEquals(g.subColour(0, new boolean[] {false, true}), g.subColour(2, new boolean[] {false, true}));
        assertEquals(1, g.subColour(4, new boolean[] {false, true}));
        CartGrid rows = g.sub(new boolean[] {false, true});
        assertEquals(3, rows.size());
        assertEquals(true, rows.period(0));
        assertEquals(0, g.sub(new boolean[] {false, false}).dimensions());
        assertEquals(1, g.sub(new boolean[] {false, false}).size(), "no dimension left: each process alone");
    }

    @Test
    void mistakesAreOneSentence() {
        assertEquals("a grid of [65536, 65536, 65536] needs 281474976710656 processes but the communicator has 8",
                assertThrows(IllegalArgumentException.class,
                        () -> CartGrid.of(new int[] {65536, 65536, 65536}, new boolean[3], 8)).getMessage());
        assertEquals("dimension sizes must be positive, not [2, 0]", assertThrows(IllegalArgumentException.class,
                () -> CartGrid.of(new int[] {2, 0}, new boolean[2], 8)).getMessage());
        CartGrid g = CartGrid.of(new int[] {2, 2}, new boolean[2], 4);
        assertEquals("rank 4 is not on the grid of [2, 2] (ranks 0 to 3)",
                assertThrows(IllegalArgumentException.class, () -> g.coords(4)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> g.sub(new boolean[1]));
        assertEquals("10 nodes do not divide into the given dimensions [4, 0]",
                assertThrows(IllegalArgumentException.class, () -> CartGrid.dimsCreate(10, new int[] {4, 0})).getMessage());
        assertThrows(IllegalArgumentException.class, () -> CartGrid.dimsCreate(2, new int[] {3, 0}));
    }
}

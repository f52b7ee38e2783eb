package io.cohort.collective;

import java.util.Arrays;

/**
 * Finds two receive blocks of a v-collective that overlap: one block per rank, {@code counts[r]}
 * elements at {@code displs[r]}. Overlapping receive blocks would leave in the buffer whichever
 * arrived last, so the collectives here and both MPI layers refuse them, each in its own words.
 *
 * <p>Threads: stateless; any thread.
 */
public final class BlockOverlap {
    private BlockOverlap() {
    }

    /**
     * The ranks of two non-empty blocks that overlap, lower rank first, or null if none do. Counts
     * and displacements have the same length and are not negative (the caller checked).
     */
    public static int[] find(int[] counts, int[] displs) {
        int n = counts.length;
        long[] order = new long[n];
        int k = 0;
        for (int r = 0; r < n; r++) {
            if (counts[r] > 0) {
                order[k++] = (long) displs[r] << 32 | r; // by displacement, then rank
            }
        }
        Arrays.sort(order, 0, k);
        for (int i = 1; i < k; i++) {
            int a = (int) order[i - 1];
            int b = (int) order[i];
            if ((long) displs[a] + counts[a] > displs[b]) {
                return new int[] {Math.min(a, b), Math.max(a, b)};
            }
        }
        return null;
    }
}

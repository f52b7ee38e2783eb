package io.cohort.mpi.support;

import java.util.Arrays;

/**
 * The receive side of the v-collectives: one block per process, {@code counts[r]} items at
 * {@code displs[r]}. Blocks that overlap would leave in the buffer whichever arrived last, so MPI
 * calls such a call erroneous; both APIs refuse it. Stateless; any thread.
 */
public final class ReceiveBlocks {
    private ReceiveBlocks() {
    }

    /**
     * Null when no two non-empty blocks overlap, else one phrase naming two that do, as in "the blocks
     * of ranks 0 (items 0..1) and 1 (items 1..2) overlap". Counts and displacements must be the same
     * length and not negative (checked before).
     */
    public static String overlap(int[] counts, int[] displs) {
        int n = counts.length;
        long[] order = new long[n];
        int k = 0;
        for (int r = 0; r < n; r++) {
            if (counts[r] > 0) {
                order[k++] = (long) displs[r] << 32 | r; // by displacement, then rank
            }
        }
        order = Arrays.copyOf(order, k);
        Arrays.sort(order);
        for (int i = 1; i < k; i++) {
            int a = (int) order[i - 1];
            int b = (int) order[i];
            if ((long) displs[a] + counts[a] > displs[b]) {
                int lo = Math.min(a, b);
                int hi = Math.max(a, b);
                return "the blocks of ranks " + lo + " " + items(counts, displs, lo) + " and " + hi + " "
                        + items(counts, displs, hi) + " overlap; give each process its own part of the buffer";
            }
        }
        return null;
    }

    private static String items(int[] counts, int[] displs, int r) {
        return "(items " + displs[r] + ".." + ((long) displs[r] + counts[r] - 1) + ")";
    }
}

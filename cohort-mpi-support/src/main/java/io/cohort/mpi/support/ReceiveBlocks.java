package io.cohort.mpi.support;

/**
 * The receive side of the v-collectives: one block per process, {@code counts[r]} items at
 * {@code displs[r]}. Blocks that overlap would leave in the buffer whichever arrived last, so MPI
 * calls such a call erroneous; both APIs refuse it, in MPI's words over the core's
 * {@link io.cohort.collective.BlockOverlap}. Stateless; any thread.
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
        int[] pair = io.cohort.collective.BlockOverlap.find(counts, displs);
        if (pair == null) {
            return null;
        }
        return "the blocks of ranks " + pair[0] + " " + items(counts, displs, pair[0]) + " and " + pair[1] + " "
                + items(counts, displs, pair[1]) + " overlap; give each process its own part of the buffer";
    }

    private static String items(int[] counts, int[] displs, int r) {
        return "(items " + displs[r] + ".." + ((long) displs[r] + counts[r] - 1) + ")";
    }
}

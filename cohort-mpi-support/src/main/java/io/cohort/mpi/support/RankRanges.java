package io.cohort.mpi.support;

import java.util.Arrays;

/**
 * MPI's rank ranges: (first, last, stride) triplets, as {@code MPI_Group_range_incl} takes them.
 *
 * <p>Stateless; any thread.
 */
public final class RankRanges {
    private RankRanges() {
    }

    /**
     * The ranks the triplets name, in order ({@code {0, 6, 3}} is 0, 3, 6; a negative stride counts
     * down). Throws an {@link IllegalArgumentException} in one sentence for a triplet that is not
     * three numbers with a stride other than 0.
     */
    public static int[] expand(int[][] ranges) {
        if (ranges == null) {
            throw new IllegalArgumentException("the ranges are null; pass (first, last, stride) triplets");
        }
        int[] out = new int[16];
        int n = 0;
        for (int[] t : ranges) {
            if (t == null || t.length != 3 || t[2] == 0) {
                throw new IllegalArgumentException("a range is (first, last, stride) with a stride other than 0, not "
                        + Arrays.toString(t));
            }
            for (long r = t[0]; t[2] > 0 ? r <= t[1] : r >= t[1]; r += t[2]) {
                if (n == out.length) {
                    out = Arrays.copyOf(out, n * 2);
                }
                out[n++] = (int) r;
            }
        }
        return Arrays.copyOf(out, n);
    }
}

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
     * The ranks the triplets name in a group of {@code groupSize}, in order ({@code {0, 6, 3}} is 0, 3,
     * 6; a negative stride counts down). Throws an {@link IllegalArgumentException} in one sentence for
     * a triplet that is not three numbers with a stride other than 0, whose first or last rank is not in
     * the group, or for triplets that name more ranks than the group has (some twice): all checked
     * before anything is expanded, so no triplet can make it build a huge list.
     */
    public static int[] expand(int[][] ranges, int groupSize) {
        if (ranges == null) {
            throw new IllegalArgumentException("the ranges are null; pass (first, last, stride) triplets");
        }
        long total = 0;
        for (int[] t : ranges) {
            if (t == null || t.length != 3 || t[2] == 0) {
                throw new IllegalArgumentException("a range is (first, last, stride) with a stride other than 0, not "
                        + Arrays.toString(t));
            }
            if (t[0] < 0 || t[0] >= groupSize || t[1] < 0 || t[1] >= groupSize) {
                throw new IllegalArgumentException("the range " + Arrays.toString(t) + " goes outside the group's ranks 0.."
                        + (groupSize - 1));
            }
            long span = (long) t[1] - t[0];
            total += span == 0 || (span > 0) == (t[2] > 0) ? span / t[2] + 1 : 0;
            if (total > groupSize) {
                throw new IllegalArgumentException("the ranges name more ranks than the group's " + groupSize
                        + ", so some rank twice");
            }
        }
        int[] out = new int[(int) total];
        int n = 0;
        for (int[] t : ranges) {
            for (long r = t[0]; t[2] > 0 ? r <= t[1] : r >= t[1]; r += t[2]) {
                out[n++] = (int) r;
            }
        }
        return out;
    }
}

package io.cohort.tools.stacks;

import java.util.BitSet;

/** Compact rank sets: {@code [0,2-15]}. Runs of three or more ranks become a range, shorter runs stay a list. */
public final class RankSets {
    private RankSets() {
    }

    public static String format(BitSet ranks) {
        StringBuilder b = new StringBuilder("[");
        int r = ranks.nextSetBit(0);
        while (r >= 0) {
            int end = ranks.nextClearBit(r) - 1;
            if (b.length() > 1) {
                b.append(',');
            }
            if (end - r >= 2) {
                b.append(r).append('-').append(end);
            } else {
                b.append(r);
                if (end > r) {
                    b.append(',').append(end);
                }
            }
            r = ranks.nextSetBit(end + 1);
        }
        return b.append(']').toString();
    }
}

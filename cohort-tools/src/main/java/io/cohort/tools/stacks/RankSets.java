package io.cohort.tools.stacks;

import io.cohort.stacks.RankList;

import java.util.BitSet;

/** Compact rank sets: {@code [0,2-15]}, as {@link RankList} writes them. */
public final class RankSets {
    private RankSets() {
    }

    public static String format(BitSet ranks) {
        return RankList.format(ranks.stream().toArray(), Integer.MAX_VALUE);
    }
}

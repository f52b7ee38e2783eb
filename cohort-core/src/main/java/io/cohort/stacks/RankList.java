package io.cohort.stacks;

/**
 * Ranks as a compact list, {@code [0,2,4-9]}: runs of three or more become a range, shorter runs
 * stay a list. The one form the stacks, the collectives' members and {@code --check-collectives}
 * print rank sets in.
 */
public final class RankList {
    private RankList() {
    }

    /**
     * {@code ascending} (distinct ranks, lowest first) as a compact list; once it passes
     * {@code maxChars} with ranks still to come, it ends in {@code ,...]} and says how many ranks
     * there are ({@code [0,2,4,...] (32768 ranks)}).
     */
    public static String format(int[] ascending, int maxChars) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < ascending.length; ) {
            int j = i;
            while (j + 1 < ascending.length && ascending[j + 1] == ascending[j] + 1) {
                j++;
            }
            if (b.length() > 1) {
                b.append(',');
            }
            if (j - i >= 2) {
                b.append(ascending[i]).append('-').append(ascending[j]);
            } else {
                b.append(ascending[i]);
                if (j > i) {
                    b.append(',').append(ascending[j]);
                }
            }
            i = j + 1;
            if (b.length() > maxChars && i < ascending.length) {
                return b.append(",...] (").append(ascending.length).append(" ranks)").toString();
            }
        }
        return b.append(']').toString();
    }
}

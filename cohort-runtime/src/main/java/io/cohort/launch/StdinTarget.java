package io.cohort.launch;

import java.util.Locale;

/** Which peers get the launcher's standard input: one rank (default 0), all of them, or none. */
public final class StdinTarget {
    public static final StdinTarget ALL = new StdinTarget(-1);
    public static final StdinTarget NONE = new StdinTarget(-2);
    private final int rank;

    private StdinTarget(int rank) {
        this.rank = rank;
    }

    public static StdinTarget rank(int rank) {
        if (rank < 0) {
            throw new IllegalArgumentException("a rank is 0 or more: " + rank);
        }
        return new StdinTarget(rank);
    }

    /** Parses "all", "none" or a rank; throws IllegalArgumentException with a user-facing sentence. */
    public static StdinTarget parse(String s) {
        String v = s.trim().toLowerCase(Locale.ROOT);
        if (v.equals("all")) {
            return ALL;
        }
        if (v.equals("none")) {
            return NONE;
        }
        try {
            return rank(Integer.parseInt(v));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--stdin '" + s + "' is not all, none or a rank (0, 1, ...)");
        }
    }

    public boolean includes(int r) {
        return rank == -1 || rank == r;
    }

    /** The single rank, or -1 for all / none. */
    public int singleRank() {
        return rank >= 0 ? rank : -1;
    }

    public boolean isNone() {
        return rank == -2;
    }

    @Override
    public String toString() {
        return rank == -1 ? "all" : rank == -2 ? "none" : Integer.toString(rank);
    }
}

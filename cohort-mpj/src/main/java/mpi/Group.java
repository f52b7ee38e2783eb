package mpi;

import io.cohort.mpi.support.RankRanges;

/**
 * An ordered set of processes, over a Cohort {@link io.cohort.Group}. Ranks are the group's own;
 * {@link #Rank()} is {@link MPI#UNDEFINED} at a process that is not a member.
 *
 * <p>Immutable; any thread.
 */
public class Group implements Freeable {
    /** MPJ Express's code of the empty group. */
    public static final int EMPTY = 3;
    /** MPJ Express keeps a code here; Cohort does not read it. */
    public int code;
    final io.cohort.Group g;

    Group(io.cohort.Group g) {
        this.g = g;
    }

    /** Nothing to release. */
    @Override
    public void free() {
    }

    /** Nothing to release. */
    @Override
    @SuppressWarnings({"deprecation", "removal"})
    public void finalize() throws MPIException {
    }

    public int Size() throws MPIException {
        return g.size();
    }

    /** This process's rank in the group, or {@link MPI#UNDEFINED} if it is not a member. */
    public int Rank() throws MPIException {
        return undefined(g.rank());
    }

    static int undefined(int rank) {
        return rank == io.cohort.Group.UNDEFINED ? MPI.UNDEFINED : rank;
    }

    /** The ranks in {@code group2} of {@code group1}'s ranks {@code ranks1}; {@link MPI#UNDEFINED} where a process is not there. */
    public static int[] Translate_ranks(Group group1, int[] ranks1, Group group2) throws MPIException {
        nonNull(group1, "Group.Translate_ranks");
        nonNull(group2, "Group.Translate_ranks");
        checkRanks(group1, ranks1, false, "Group.Translate_ranks");
        int[] out = group1.g.translateRanks(ranks1, group2.g);
        for (int i = 0; i < out.length; i++) {
            out[i] = undefined(out[i]);
        }
        return out;
    }

    /** {@link MPI#IDENT} for the same members in the same order, {@link MPI#SIMILAR} for the same members, else {@link MPI#UNEQUAL}. */
    public static int Compare(Group group1, Group group2) throws MPIException {
        nonNull(group1, "Group.Compare");
        nonNull(group2, "Group.Compare");
        return switch (group1.g.compare(group2.g)) {
            case IDENTICAL -> MPI.IDENT;
            case SIMILAR -> MPI.SIMILAR;
            default -> MPI.UNEQUAL;
        };
    }

    /** {@code group1}'s members, then those of {@code group2} that are not in it. */
    public static Group Union(Group group1, Group group2) throws MPIException {
        nonNull(group1, "Group.Union");
        nonNull(group2, "Group.Union");
        return new Group(group1.g.union(group2.g));
    }

    /** {@code group1}'s members that are in {@code group2}, in {@code group1}'s order. */
    public static Group Intersection(Group group1, Group group2) throws MPIException {
        nonNull(group1, "Group.Intersection");
        nonNull(group2, "Group.Intersection");
        return new Group(group1.g.intersection(group2.g));
    }

    /** {@code group1}'s members that are not in {@code group2}. */
    public static Group Difference(Group group1, Group group2) throws MPIException {
        nonNull(group1, "Group.Difference");
        nonNull(group2, "Group.Difference");
        return new Group(group1.g.difference(group2.g));
    }

    /** A group of this group's ranks {@code ranks}, in that order. */
    public Group Incl(int[] ranks) throws MPIException {
        checkRanks(this, ranks, true, "Group.Incl");
        return new Group(g.incl(ranks));
    }

    /** This group without its ranks {@code ranks}. */
    public Group Excl(int[] ranks) throws MPIException {
        checkRanks(this, ranks, true, "Group.Excl");
        return new Group(g.excl(ranks));
    }

    /** A group of the ranks in the (first, last, stride) triplets, in order. */
    public Group Range_incl(int[][] ranges) throws MPIException {
        return Incl(expand(ranges, g.size(), "Group.Range_incl"));
    }

    /** This group without the ranks in the (first, last, stride) triplets. */
    public Group Range_excl(int[][] ranges) throws MPIException {
        return Excl(expand(ranges, g.size(), "Group.Range_excl"));
    }

    private static int[] expand(int[][] ranges, int size, String what) {
        try {
            return RankRanges.expand(ranges, size);
        } catch (IllegalArgumentException e) {
            throw Errors.error(what + ": " + e.getMessage());
        }
    }

    private static void nonNull(Group g, String what) {
        if (g == null) {
            throw Errors.error(what + " needs a group, not null");
        }
    }

    private static void checkRanks(Group group, int[] ranks, boolean distinct, String what) {
        if (ranks == null) {
            throw Errors.error(what + " needs an array of ranks, not null");
        }
        int n = group.g.size();
        boolean[] seen = new boolean[n];
        for (int r : ranks) {
            if (r < 0 || r >= n) {
                throw Errors.error(what + ": rank " + r + " is not in this group of " + n + " (ranks 0 to " + (n - 1) + ")");
            }
            if (distinct && seen[r]) {
                throw Errors.error(what + ": rank " + r + " is given twice");
            }
            seen[r] = true;
        }
    }

    @Override
    public String toString() {
        return "Group" + java.util.Arrays.toString(g.worldRanks());
    }
}

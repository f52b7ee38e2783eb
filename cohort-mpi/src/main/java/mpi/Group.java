package mpi;

import java.util.Arrays;

/**
 * An ordered set of processes ({@code MPI_Group}), over Cohort's {@link io.cohort.Group}: making
 * one sends nothing. Ranks not in a group are {@link MPI#UNDEFINED}.
 */
public final class Group implements Freeable {
    /** Null for MPI.GROUP_EMPTY before Init (it is made per peer on use) and after free. */
    io.cohort.Group group;
    private final boolean empty;

    Group(io.cohort.Group group) {
        this.group = group;
        this.empty = false;
    }

    /** MPI.GROUP_EMPTY: no members, whoever asks. */
    private Group() {
        this.group = null;
        this.empty = true;
    }

    static Group emptyGroup() {
        return new Group();
    }

    private io.cohort.Group g() throws MPIException {
        MPI.check();
        if (empty) {
            return new io.cohort.Group(new int[0], Peer.current().world.rank());
        }
        if (group == null) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_GROUP, "the group was freed"));
        }
        return group;
    }

    public int getSize() throws MPIException {
        return g().size();
    }

    /** This process's rank in the group, or {@link MPI#UNDEFINED}. */
    public int getRank() throws MPIException {
        return g().rank();
    }

    @Override
    public void free() throws MPIException {
        MPI.check();
        if (!empty) {
            group = null;
        }
    }

    public boolean isNull() {
        return !empty && group == null;
    }

    /**
     * The ranks in {@code group2} of {@code group1}'s ranks {@code ranks1}; {@link MPI#UNDEFINED}
     * where a process is not in {@code group2}, {@link MPI#PROC_NULL} for PROC_NULL.
     */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        io.cohort.Group a = g(group1, "translateRanks");
        io.cohort.Group b = g(group2, "translateRanks");
        if (ranks1 == null) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_ARG, "translateRanks needs ranks, not null"));
        }
        int[] out = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            if (ranks1[i] == MPI.PROC_NULL) {
                out[i] = MPI.PROC_NULL;
            } else if (ranks1[i] < 0 || ranks1[i] >= a.size()) {
                throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_RANK, "translateRanks: rank "
                        + ranks1[i] + " is not in the first group of " + a.size()));
            } else {
                out[i] = b.rankOfWorld(a.worldRank(ranks1[i]));
            }
        }
        return out;
    }

    /** {@link MPI#IDENT} (same members, same order), {@link MPI#SIMILAR} (same members) or {@link MPI#UNEQUAL}. */
    public static int compare(Group group1, Group group2) throws MPIException {
        return switch (g(group1, "compare").compare(g(group2, "compare"))) {
            case IDENTICAL -> MPI.IDENT;
            case SIMILAR -> MPI.SIMILAR;
            default -> MPI.UNEQUAL;
        };
    }

    /** The first group's members, then the second's that are not in the first. */
    public static Group union(Group group1, Group group2) throws MPIException {
        return new Group(g(group1, "union").union(g(group2, "union")));
    }

    /** The first group's members that are in the second, in the first's order. */
    public static Group intersection(Group group1, Group group2) throws MPIException {
        return new Group(g(group1, "intersection").intersection(g(group2, "intersection")));
    }

    /** The first group's members that are not in the second, in the first's order. */
    public static Group difference(Group group1, Group group2) throws MPIException {
        return new Group(g(group1, "difference").difference(g(group2, "difference")));
    }

    /** A group of this group's ranks {@code ranks}, in that order. */
    public Group incl(int[] ranks) throws MPIException {
        io.cohort.Group me = g();
        checkRanks(me, ranks, "incl");
        return new Group(me.incl(ranks));
    }

    /** This group without its ranks {@code ranks}. */
    public Group excl(int[] ranks) throws MPIException {
        io.cohort.Group me = g();
        checkRanks(me, ranks, "excl");
        return new Group(me.excl(ranks));
    }

    /** A group of the ranks in the (first, last, stride) triplets, in order. */
    public Group rangeIncl(int[][] ranges) throws MPIException {
        return incl(expand(ranges, g().size()));
    }

    /** This group without the ranks in the (first, last, stride) triplets. */
    public Group rangeExcl(int[][] ranges) throws MPIException {
        return excl(expand(ranges, g().size()));
    }

    private static int[] expand(int[][] ranges, int size) throws MPIException {
        try {
            return io.cohort.mpi.support.RankRanges.expand(ranges, size);
        } catch (IllegalArgumentException e) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_ARG, e.getMessage()));
        }
    }

    /** A group argument of a static call: null is an MPI error, not a NullPointerException. */
    private static io.cohort.Group g(Group group, String what) throws MPIException {
        if (group == null) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_GROUP, what + " needs a group, not null"));
        }
        return group.g();
    }

    private static void checkRanks(io.cohort.Group g, int[] ranks, String what) throws MPIException {
        if (ranks == null) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_ARG, what + " needs ranks, not null"));
        }
        boolean[] seen = new boolean[g.size()];
        for (int r : ranks) {
            if (r < 0 || r >= g.size()) {
                throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_RANK, what + ": rank " + r
                        + " is not in this group of " + g.size()));
            }
            if (seen[r]) {
                throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_RANK, what + ": rank " + r
                        + " is given twice"));
            }
            seen[r] = true;
        }
    }

    @Override
    public String toString() {
        return empty ? "MPI.GROUP_EMPTY" : group == null ? "freed Group" : "Group" + Arrays.toString(group.worldRanks());
    }
}

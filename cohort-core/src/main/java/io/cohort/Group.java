package io.cohort;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * An ordered set of the job's peers, as MPI's groups are: the peer at position {@code r} is the
 * group's rank {@code r}. A group is only a value (nothing is sent to make one); a communicator
 * is made from it with {@link Communicator#create(Group)}, and {@link Communicator#group()} gives
 * a communicator's. Peers are held by their rank in the job (the world communicator), so groups of
 * different communicators compare and translate.
 *
 * <p>Set operations keep MPI's orders: a union lists this group's peers, then the other's that are
 * not in this one; an intersection and a difference keep this group's order.
 *
 * <p>Immutable; any thread.
 */
public final class Group {
    /** The rank of a peer that is not in a group, and the split color of a peer that wants no communicator. */
    public static final int UNDEFINED = -32766;

    /** How two groups relate: the same peers in the same order, the same peers in another order, or not. */
    public enum Comparison { IDENTICAL, SIMILAR, UNEQUAL }

    private final int[] members;
    private final int self;

    /**
     * @param worldRanks the members' ranks in the job, in group order, each once
     * @param self       the calling peer's rank in the job
     */
    public Group(int[] worldRanks, int self) {
        Set<Integer> seen = new LinkedHashSet<>();
        for (int r : worldRanks) {
            if (r < 0) {
                throw new IllegalArgumentException("a group member cannot be rank " + r);
            }
            if (!seen.add(r)) {
                throw new IllegalArgumentException("rank " + r + " is twice in the group " + Arrays.toString(worldRanks));
            }
        }
        this.members = worldRanks.clone();
        this.self = self;
    }

    public int size() {
        return members.length;
    }

    /** The calling peer's rank in this group, or {@link #UNDEFINED} if it is not a member. */
    public int rank() {
        return indexOf(self);
    }

    /** The job (world) rank of this group's rank {@code rank}. */
    public int worldRank(int rank) {
        check(rank);
        return members[rank];
    }

    /** The members' job ranks in group order (a copy). */
    public int[] worldRanks() {
        return members.clone();
    }

    /** A group of this group's ranks {@code ranks}, in that order. */
    public Group incl(int... ranks) {
        int[] m = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            check(ranks[i]);
            m[i] = members[ranks[i]];
        }
        return new Group(m, self);
    }

    /** This group without its ranks {@code ranks}. */
    public Group excl(int... ranks) {
        boolean[] out = new boolean[members.length];
        for (int r : ranks) {
            check(r);
            if (out[r]) {
                throw new IllegalArgumentException("rank " + r + " is twice in the ranks to exclude");
            }
            out[r] = true;
        }
        return new Group(Arrays.stream(range()).filter(r -> !out[r]).map(r -> members[r]).toArray(), self);
    }

    public Group union(Group other) {
        Set<Integer> all = new LinkedHashSet<>();
        for (int m : members) {
            all.add(m);
        }
        for (int m : other.members) {
            all.add(m);
        }
        return new Group(all.stream().mapToInt(Integer::intValue).toArray(), self);
    }

    public Group intersection(Group other) {
        return new Group(Arrays.stream(members).filter(m -> other.indexOf(m) != UNDEFINED).toArray(), self);
    }

    public Group difference(Group other) {
        return new Group(Arrays.stream(members).filter(m -> other.indexOf(m) == UNDEFINED).toArray(), self);
    }

    /** The ranks in {@code to} of this group's ranks {@code ranks}; {@link #UNDEFINED} where a peer is not in {@code to}. */
    public int[] translateRanks(int[] ranks, Group to) {
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            check(ranks[i]);
            out[i] = to.indexOf(members[ranks[i]]);
        }
        return out;
    }

    public Comparison compare(Group other) {
        if (Arrays.equals(members, other.members)) {
            return Comparison.IDENTICAL;
        }
        int[] a = members.clone();
        int[] b = other.members.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        return Arrays.equals(a, b) ? Comparison.SIMILAR : Comparison.UNEQUAL;
    }

    /** The group rank of the peer with job rank {@code worldRank}, or {@link #UNDEFINED}. */
    public int rankOfWorld(int worldRank) {
        return indexOf(worldRank);
    }

    private int indexOf(int worldRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldRank) {
                return i;
            }
        }
        return UNDEFINED;
    }

    private int[] range() {
        int[] r = new int[members.length];
        Arrays.setAll(r, i -> i);
        return r;
    }

    private void check(int rank) {
        if (rank < 0 || rank >= members.length) {
            throw new IllegalArgumentException("rank " + rank + " is not in this group of " + members.length
                    + (members.length == 0 ? "" : " (ranks 0 to " + (members.length - 1) + ")"));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Group g && Arrays.equals(members, g.members);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(members);
    }

    @Override
    public String toString() {
        return "Group" + Arrays.toString(members);
    }
}

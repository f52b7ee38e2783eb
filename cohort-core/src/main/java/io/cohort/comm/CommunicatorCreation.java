package io.cohort.comm;

import io.cohort.Communicator;
import io.cohort.Group;
import io.cohort.engine.ProgressEngine;

import java.nio.ByteBuffer;

/**
 * Making communicators from one: {@link EngineCommunicator#split}, {@link EngineCommunicator#create}
 * (and so {@code dup}) and {@link EngineCommunicator#createGroup}. Every member exchanges a row
 * (what it asks for, and its {@link ContextAllocator} proposal) on the parent's housekeeping
 * context, checks that all asked alike, and agrees on the new communicator's contexts, in as many
 * rounds as creations in flight at once need; then each member builds its
 * {@link EngineCommunicator}. split, create and dup are collective over the parent (rank 0 gathers
 * the rows and sends back the table); createGroup over the group's members only (its member of
 * lowest job rank does).
 *
 * <p>Threads: one object per creation, on the calling thread; creations of one parent may run on
 * several threads at once only as {@link ContextAllocator} allows.
 */
final class CommunicatorCreation {
    /** Tags on the parent's housekeeping context: the rows, their broadcast, and createGroup's (one per user tag, from 16 up). */
    static final int TAG_BCAST = 1;
    static final int TAG_COMM = 4;
    static final int TAG_CREATE_GROUP = 16;

    private final EngineCommunicator parent;
    private final ProgressEngine engine;
    private final ContextAllocator contexts;
    private final int context;
    private final int collectiveContext;
    private final int[] worldRanks;
    private final int[] commRanks;
    private final int rank;
    private final int size;

    CommunicatorCreation(EngineCommunicator parent) {
        this.parent = parent;
        this.engine = parent.engine;
        this.contexts = parent.contexts;
        this.context = parent.context;
        this.collectiveContext = parent.collectiveContext;
        this.worldRanks = parent.worldRanks;
        this.commRanks = parent.commRanks;
        this.rank = parent.rank();
        this.size = parent.size();
    }

    /** {@link EngineCommunicator#split}. */
    Communicator split(int color, int key) {
        ContextAllocator.Creation cr = contexts.begin(creationPriority(-1));
        try {
            long[][] table = exchange(new long[] {color, key, cr.proposal, cr.sawOthers ? 1 : 0}, "split");
            for (int p = 0; p < size; p++) {
                long c = table[p][0];
                if (c < 0 && c != Group.UNDEFINED) {
                    throw new IllegalArgumentException("split: rank " + p + " gave color " + c
                            + "; colors are 0 or more, or Group.UNDEFINED for no communicator");
                }
            }
            int agreed = agreeContext(cr, table, 2, mine -> exchange(mine, "split"));
            if (color == Group.UNDEFINED) {
                return null;
            }
            Integer[] same = java.util.stream.IntStream.range(0, size).filter(p -> table[p][0] == color).boxed()
                    .toArray(Integer[]::new);
            java.util.Arrays.sort(same,
                    java.util.Comparator.<Integer>comparingLong(p -> table[p][1]).thenComparingInt(p -> p));
            int[] members = new int[same.length];
            for (int i = 0; i < same.length; i++) {
                members[i] = worldRank(same[i]);
            }
            return new EngineCommunicator(parent, agreed, members);
        } finally {
            contexts.end(cr);
        }
    }

    /** {@link EngineCommunicator#create}. */
    Communicator create(Group group) {
        int[] members = group.worldRanks();
        boolean allMine = java.util.Arrays.stream(members).allMatch(w -> worldRanks == null ? w < size : w < commRanks.length && commRanks[w] >= 0);
        ContextAllocator.Creation cr = contexts.begin(creationPriority(-1));
        try {
            long[][] table = exchange(new long[] {java.util.Arrays.hashCode(members), allMine ? 1 : 0, cr.proposal,
                    cr.sawOthers ? 1 : 0}, "create");
            for (int p = 0; p < size; p++) {
                if (table[p][1] == 0) {
                    throw new IllegalArgumentException("create: rank " + p + " gave a group with peers outside this communicator");
                }
                if (table[p][0] != table[0][0]) {
                    throw new IllegalArgumentException("create: ranks 0 and " + p + " gave different groups; every member of "
                            + "the communicator must give the same one");
                }
            }
            int agreed = agreeContext(cr, table, 2, mine -> exchange(mine, "create"));
            return group.rank() == Group.UNDEFINED ? null : new EngineCommunicator(parent, agreed, members);
        } finally {
            contexts.end(cr);
        }
    }

    /** {@link EngineCommunicator#createGroup}. */
    Communicator createGroup(Group group, int tag) {
        if (tag < 0 || tag > Communicator.MAX_TAG - TAG_CREATE_GROUP) {
            throw new IllegalArgumentException("createGroup: tag " + tag + " is not 0 to " + (Communicator.MAX_TAG - TAG_CREATE_GROUP));
        }
        int me = group.rank();
        if (me == Group.UNDEFINED) {
            throw new IllegalArgumentException("createGroup: this peer (rank " + rank + ") is not in the group; only"
                    + " the group's members call it");
        }
        int[] members = group.worldRanks();
        int[] ranks = new int[members.length];
        for (int i = 0; i < members.length; i++) {
            ranks[i] = worldRanks == null ? (members[i] < size ? members[i] : -1)
                    : members[i] < commRanks.length ? commRanks[members[i]] : -1;
            if (ranks[i] < 0) {
                throw new IllegalArgumentException("createGroup: the group's member " + i + " (job rank " + members[i]
                        + ") is not in this communicator");
            }
        }
        if (parent.isClosed()) {
            throw new IllegalStateException("createGroup on " + parent + ", which is closed");
        }
        // The member with the lowest job rank gathers the rows and sends every member the table:
        // create's agreement, among the members only. Chosen by job rank, not group rank, so that
        // members who list the same peers in different orders still meet, and are told.
        int leader = 0;
        for (int i = 1; i < members.length; i++) {
            if (members[i] < members[leader]) {
                leader = i;
            }
        }
        int t = TAG_CREATE_GROUP + tag;
        int lead = leader;
        long hash = java.util.Arrays.hashCode(members);
        ContextAllocator.Creation cr = contexts.begin(creationPriority(tag));
        try {
            long[][] table = groupExchange(ranks, lead, me, t, new long[] {hash, cr.proposal, cr.sawOthers ? 1 : 0});
            for (long[] row : table) {
                if (row[0] != hash) {
                    throw new IllegalArgumentException("createGroup: the members gave different groups; every member must"
                            + " give the same one");
                }
            }
            int agreed = agreeContext(cr, table, 1, mine -> groupExchange(ranks, lead, me, t, mine));
            return new EngineCommunicator(parent, agreed, members);
        } finally {
            contexts.end(cr);
        }
    }

    /**
     * A creation's priority among those one peer may run at once ({@link ContextAllocator}):
     * this parent's context, then the {@code createGroup} tag ({@code -1}: split, create, dup, of
     * which MPI allows one at a time per parent).
     */
    private long creationPriority(int createGroupTag) {
        return ((long) context << 32) | (createGroupTag + 1L);
    }

    /** One round of an agreement among the members making a communicator: every member's row, in one order for all. */
    @FunctionalInterface
    private interface Round {
        long[][] exchange(long[] mine);
    }

    /**
     * The new communicator's context, from the first round's {@code table}: the largest proposal
     * (column {@code column}), taken at once unless some member saw another creation in flight
     * (the column after it); then claimed and agreed again in further rounds until every member's
     * claim holds (ContextAllocator). Every member returns the same context.
     */
    private int agreeContext(ContextAllocator.Creation cr, long[][] table, int column, Round round) {
        long agreed = 0;
        boolean check = false;
        for (long[] row : table) {
            agreed = Math.max(agreed, row[column]);
            check |= row[column + 1] != 0;
        }
        if (!check) {
            contexts.take(cr, (int) agreed);
            return (int) agreed;
        }
        contexts.checked(cr);
        while (true) {
            ContextAllocator.checkRoom(agreed);
            boolean held = contexts.claim(cr, (int) agreed);
            long[][] votes = round.exchange(new long[] {held ? 1 : 0, contexts.proposalAbove((int) agreed)});
            boolean all = true;
            long above = 0;
            for (long[] v : votes) {
                all &= v[0] != 0;
                above = Math.max(above, v[1]);
            }
            if (all) {
                return (int) agreed;
            }
            agreed = above;
        }
    }

    /**
     * As {@link #exchange} among the members {@code ranks} (this communicator's ranks; this peer is
     * {@code me}) only: {@code leader} gathers every member's row on tag {@code tag} and sends the
     * table back.
     */
    private long[][] groupExchange(int[] ranks, int leader, int me, int tag, long[] mine) {
        int width = mine.length;
        int n = ranks.length;
        ByteBuffer all;
        if (me == leader) {
            all = ByteBuffer.allocate(n * width * Long.BYTES);
            for (int i = 0; i < n; i++) {
                if (i == me) {
                    for (long v : mine) {
                        all.putLong(v);
                    }
                } else {
                    byte[] row = parent.receiveCollective(ranks[i], tag);
                    if (row.length != width * Long.BYTES) {
                        throw new IllegalStateException("createGroup: member " + i + " sent " + row.length
                                + " bytes in an agreement round of " + width * Long.BYTES);
                    }
                    all.put(row);
                }
            }
            for (int i = 0; i < n; i++) {
                if (i != me) {
                    engine.send(parent.toEngine(ranks[i]), collectiveContext, tag, ByteBuffer.wrap(all.array())).await();
                }
            }
        } else {
            engine.send(parent.toEngine(ranks[leader]), collectiveContext, tag, row(mine)).await();
            all = ByteBuffer.wrap(parent.receiveCollective(ranks[leader], tag));
        }
        return table(all, n, width);
    }

    /** One member's row as the bytes of an agreement round. */
    private static ByteBuffer row(long[] values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * Long.BYTES);
        for (long v : values) {
            b.putLong(v);
        }
        return b.flip();
    }

    /** The {@code rows} rows of {@code width} values that {@code all} holds, from its start. */
    private static long[][] table(ByteBuffer all, int rows, int width) {
        long[][] table = new long[rows][width];
        all.rewind();
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < width; j++) {
                table[i][j] = all.getLong();
            }
        }
        return table;
    }

    private int worldRank(int r) {
        return worldRanks == null ? r : worldRanks[r];
    }

    /**
     * Every member's row, in rank order: gathered by rank 0 and broadcast back, on the collective
     * context. Every member calls it in the same order (communicator creation is collective).
     */
    private long[][] exchange(long[] mine, String what) {
        if (parent.isClosed()) {
            throw new IllegalStateException(what + " on " + parent + ", which is closed");
        }
        int width = mine.length;
        ByteBuffer all;
        if (rank == 0) {
            all = ByteBuffer.allocate(size * width * Long.BYTES);
            for (long v : mine) {
                all.putLong(v);
            }
            for (int p = 1; p < size; p++) {
                all.put(parent.receiveCollective(p, TAG_COMM));
            }
            internalBcast(0, all.array());
        } else {
            engine.send(parent.toEngine(0), collectiveContext, TAG_COMM, row(mine)).await();
            all = ByteBuffer.wrap(internalBcast(0, null));
        }
        return table(all, size, width);
    }

    /** Binomial tree on the housekeeping context, for making communicators (no algorithm choice, no domain). */
    private byte[] internalBcast(int root, byte[] data) {
        int relative = (rank - root + size) % size;
        byte[] payload = data;
        int mask = 1;
        while (mask < size) {
            if ((relative & mask) != 0) {
                payload = parent.receiveCollective((relative - mask + root) % size, TAG_BCAST);
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while (mask > 0) {
            if (relative + mask < size) {
                int child = (relative + mask + root) % size;
                engine.send(parent.toEngine(child), collectiveContext, TAG_BCAST, ByteBuffer.wrap(payload)).await();
            }
            mask >>= 1;
        }
        return payload;
    }
}

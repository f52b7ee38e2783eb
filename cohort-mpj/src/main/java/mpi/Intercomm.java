package mpi;

import io.cohort.Communicator;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An inter-communicator: point-to-point between a local and a remote group, where ranks name
 * processes of the remote group and {@link #Rank()} and {@link #Size()} are the local group's.
 *
 * <p>Cohort has intra-communicators only, so this is one Cohort communicator over both groups
 * (the group whose lowest job rank is lower first), with ranks translated: a destination {@code r}
 * is the remote group's rank {@code r}, a status's source the sender's rank in its own group.
 * Every message a process receives on it comes from the remote group, since nobody sends to its
 * own group here.
 *
 * <p>Threads: as {@link Comm}.
 */
public class Intercomm extends Comm {
    /** 0 if the local group comes first in the Cohort communicator, else 1. */
    private final int side;
    private final int localSize;
    private final int remoteSize;

    private Intercomm(Communicator union, int side, int localSize, int remoteSize) {
        super(union);
        this.side = side;
        this.localSize = localSize;
        this.remoteSize = remoteSize;
        this.group = new Group(union.group().incl(range(localBase(), localSize)));
    }

    private int localBase() {
        return side == 0 ? 0 : remoteSize;
    }

    private int remoteBase() {
        return side == 0 ? localSize : 0;
    }

    private static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    private static int[] range(int from, int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = from + i;
        }
        return r;
    }

    static Intercomm create(Comm local, Comm peerComm, int localLeader, int remoteLeader, int tag) {
        String op = "Create_intercomm";
        if (local == null) {
            throw Errors.error(op + " needs the local communicator, not null");
        }
        Communicator l = local.c(op);
        if (local instanceof Intercomm) {
            throw Errors.error(op + " needs an intra-communicator as the local communicator, not an inter-communicator");
        }
        Communicator p = peerComm.c(op);
        if (localLeader < 0 || localLeader >= l.size()) {
            throw Errors.error(op + ": local leader " + localLeader + " is not in the local communicator of " + l.size());
        }
        if (tag < 0) {
            throw Errors.error(op + ": tag " + tag + " is negative");
        }
        int[] mine = l.group().worldRanks();
        try {
            byte[] payload = null;
            if (l.rank() == localLeader) {
                if (remoteLeader < 0 || remoteLeader >= p.size()) {
                    throw Errors.error(op + ": remote leader " + remoteLeader + " is not in the peer communicator of "
                            + p.size());
                }
                io.cohort.Request s = p.isend(remoteLeader, tag, mine);
                // From any source: if the two leaders do not name each other, one of them hears from
                // the wrong process and says so, where waiting for the named one would hang.
                io.cohort.Message m = p.recv(Communicator.ANY_SOURCE, tag);
                if (m.source() != remoteLeader) {
                    throw Errors.error(op + ": rank " + m.source() + " of the peer communicator sent this leader"
                            + " its group, but the remote leader given is rank " + remoteLeader + "; the two leaders"
                            + " must name each other (each the other's rank in the peer communicator)");
                }
                payload = m.bytes();
                s.await();
            }
            ByteBuffer b = ByteBuffer.wrap(l.bcast(localLeader, payload)).order(ByteOrder.LITTLE_ENDIAN);
            int[] theirs = new int[b.remaining() / 4];
            b.asIntBuffer().get(theirs);
            int side = Arrays.stream(mine).min().orElse(0) < Arrays.stream(theirs).min().orElse(0) ? 0 : 1;
            int[] first = side == 0 ? mine : theirs;
            int[] second = side == 0 ? theirs : mine;
            int[] all = new int[first.length + second.length];
            System.arraycopy(first, 0, all, 0, first.length);
            System.arraycopy(second, 0, all, first.length, second.length);
            int[] sorted = all.clone();
            Arrays.sort(sorted);
            for (int i = 1; i < sorted.length; i++) {
                if (sorted[i] == sorted[i - 1]) {
                    throw Errors.error(op + ": job rank " + sorted[i] + " is in both the local and the remote group;"
                            + " the two groups must be disjoint");
                }
            }
            int[] peers = p.group().worldRanks();
            for (int w : all) {
                if (Arrays.stream(peers).noneMatch(x -> x == w)) {
                    throw Errors.error(op + ": job rank " + w + " is in the " + (contains(mine, w) ? "local" : "remote")
                            + " group but not in the peer communicator; Cohort agrees the inter-communicator over"
                            + " the peer communicator, so it must hold both groups (MPI.COMM_WORLD always does)");
                }
            }
            // Over the two groups only: the rest of the peer communicator takes no part. createGroup
            // keeps the top of the tag range for itself; the low 30 bits keep creations apart.
            Communicator union = p.createGroup(new io.cohort.Group(all, mine[l.rank()]), tag & 0x3FFFFFFF);
            return new Intercomm(union, side, mine.length, theirs.length);
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, op);
        }
    }

    @Override
    int peers(Communicator c) {
        return remoteSize;
    }

    @Override
    int toHandle(int rank) {
        return remoteBase() + rank;
    }

    @Override
    int fromHandle(int rank) {
        return rank - remoteBase();
    }

    /** The local group's size. */
    @Override
    public int Size() throws MPIException {
        c("Size");
        return localSize;
    }

    /** This process's rank in the local group. */
    @Override
    public int Rank() throws MPIException {
        return c("Rank").rank() - localBase();
    }

    /** The local group. */
    @Override
    public Group Group() throws MPIException {
        c("Group");
        return group;
    }

    /** Always true. */
    @Override
    public boolean Test_inter() throws MPIException {
        c("Test_inter");
        return true;
    }

    /** The remote group's size. */
    public int Remote_size() throws MPIException {
        c("Remote_size");
        return remoteSize;
    }

    /** The remote group. */
    public Group Remote_group() throws MPIException {
        return new Group(c("Remote_group").group().incl(range(remoteBase(), remoteSize)));
    }

    /**
     * An intra-communicator of both groups: the group that passes {@code high} false first (if both
     * pass the same, the group with the lower job ranks first), each in its own rank order.
     * Collective over both groups.
     */
    public Intracomm Merge(boolean high) throws MPIException {
        Communicator u = c("Merge");
        int n = u.size();
        try {
            return new Intracomm(u.split(0, (high ? 2 * n : 0) + side * n + Rank()));
        } catch (RuntimeException e) {
            throw Errors.of(e, "Merge");
        }
    }

    /** A duplicate, with a context of its own. Collective over both groups. */
    @Override
    public Object clone() throws MPIException {
        Communicator u = c("clone");
        try {
            return new Intercomm(u.dup(), side, localSize, remoteSize);
        } catch (RuntimeException e) {
            throw Errors.of(e, "clone");
        }
    }
}

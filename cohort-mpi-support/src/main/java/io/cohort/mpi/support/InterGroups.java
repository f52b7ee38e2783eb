package io.cohort.mpi.support;

import io.cohort.Communicator;
import io.cohort.Group;
import io.cohort.Message;
import io.cohort.Request;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Inter-communicators for both MPI APIs. Cohort has intra-communicators only, so an
 * inter-communicator is one Cohort communicator over both groups, the <em>union</em>: the group
 * whose lowest job rank is lower first (side 0), each group in its own rank order. Point-to-point
 * ranks name the remote group and are translated to the union's ({@link Made#remoteBase()}); the
 * local rank and size are the local group's.
 *
 * <p>{@link #create} is MPI_Intercomm_create: the two leaders swap their groups' job ranks over
 * the peer communicator, each leader broadcasts the other group's to its own, and the union is
 * made with {@link Communicator#createGroup} on the peer communicator, among the two groups'
 * processes only. So the peer communicator must hold both groups (MPI asks it to hold the two
 * leaders only); {@code COMM_WORLD}, the usual one, always does. Mistakes raise
 * {@link IllegalArgumentException} with one sentence, the same at every process of both groups.
 *
 * <p>Threads: any; as the communicators used.
 */
public final class InterGroups {
    private InterGroups() {
    }

    /**
     * A made inter-communicator: the union, which side of it this process's group is, and the two
     * groups' sizes.
     */
    public record Made(Communicator union, int side, int localSize, int remoteSize) {
        /** The union's rank of local rank 0. */
        public int localBase() {
            return side == 0 ? 0 : remoteSize;
        }

        /** The union's rank of remote rank 0. */
        public int remoteBase() {
            return side == 0 ? localSize : 0;
        }

        /** The local group, as a group of the job. */
        public Group localGroup() {
            return union.group().incl(range(localBase(), localSize));
        }

        /** The remote group, as a group of the job. */
        public Group remoteGroup() {
            return union.group().incl(range(remoteBase(), remoteSize));
        }

        /** The same inter-communicator over {@code u}, a duplicate of the union. */
        public Made over(Communicator u) {
            return new Made(u, side, localSize, remoteSize);
        }

        /**
         * MPI_Intercomm_merge: an intra-communicator of both groups, the group that passes
         * {@code high} false first (if both pass the same, side 0 first), each in its own rank order.
         * Collective over both groups.
         */
        public Communicator merge(boolean high) {
            int n = union.size();
            return union.split(0, (high ? 2 * n : 0) + side * n + union.rank() - localBase());
        }
    }

    /**
     * MPI_Intercomm_create, called by every process of both groups: {@code local} is the caller's
     * group, {@code localLeader} its leader's rank there, {@code peer} a communicator holding both
     * groups, {@code remoteLeader} the other leader's rank in it (read at the leaders only), and
     * {@code tag} the tag the leaders exchange on. {@code op} names the call in errors.
     */
    public static Made create(Communicator local, int localLeader, Communicator peer, int remoteLeader, int tag,
                              String op) {
        if (localLeader < 0 || localLeader >= local.size()) {
            throw new IllegalArgumentException(op + ": local leader " + localLeader + " is not in the local"
                    + " communicator of " + local.size());
        }
        if (tag < 0) {
            throw new IllegalArgumentException(op + ": tag " + tag + " is negative");
        }
        int[] mine = local.group().worldRanks();
        byte[] payload = null;
        if (local.rank() == localLeader) {
            if (remoteLeader < 0 || remoteLeader >= peer.size()) {
                throw new IllegalArgumentException(op + ": remote leader " + remoteLeader + " is not in the peer"
                        + " communicator of " + peer.size());
            }
            Request s = peer.isend(remoteLeader, tag, mine);
            // From any source: if the two leaders do not name each other, one of them hears from
            // the wrong process and says so, where waiting for the named one would hang.
            Message m = peer.recv(Communicator.ANY_SOURCE, tag);
            if (m.source() != remoteLeader) {
                throw new IllegalArgumentException(op + ": rank " + m.source() + " of the peer communicator sent this"
                        + " leader its group, but the remote leader given is rank " + remoteLeader + "; the two"
                        + " leaders must name each other (each the other's rank in the peer communicator)");
            }
            payload = m.bytes();
            s.await();
        }
        ByteBuffer b = ByteBuffer.wrap(local.bcast(localLeader, payload)).order(ByteOrder.LITTLE_ENDIAN);
        int[] theirs = new int[b.remaining() / Integer.BYTES];
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
                throw new IllegalArgumentException(op + ": job rank " + sorted[i] + " is in both the local and the"
                        + " remote group; the two groups must be disjoint");
            }
        }
        int[] peers = peer.group().worldRanks().clone();
        Arrays.sort(peers);
        for (int w : all) {
            if (Arrays.binarySearch(peers, w) < 0) {
                throw new IllegalArgumentException(op + ": job rank " + w + " is in the "
                        + (Arrays.stream(mine).anyMatch(x -> x == w) ? "local" : "remote") + " group but not in the"
                        + " peer communicator; Cohort makes the inter-communicator over the peer communicator, so it"
                        + " must hold both groups (COMM_WORLD always does)");
            }
        }
        // Over the two groups only: the rest of the peer communicator takes no part. createGroup
        // keeps the top of the tag range for itself; the low 30 bits keep creations apart.
        Communicator union = peer.createGroup(new Group(all, mine[local.rank()]), tag & 0x3FFFFFFF);
        return new Made(union, side, mine.length, theirs.length);
    }

    private static int[] range(int from, int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = from + i;
        }
        return r;
    }
}

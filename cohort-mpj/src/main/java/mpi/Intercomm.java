package mpi;

import io.cohort.Communicator;
import io.cohort.mpi.support.InterGroups;

/**
 * An inter-communicator: point-to-point between a local and a remote group, where ranks name
 * processes of the remote group and {@link #Rank()} and {@link #Size()} are the local group's.
 *
 * <p>Cohort has intra-communicators only, so this is one Cohort communicator over both groups
 * (the group whose lowest job rank is lower first; {@link InterGroups}), with ranks translated: a
 * destination {@code r} is the remote group's rank {@code r}, a status's source the sender's rank
 * in its own group. Every message a process receives on it comes from the remote group, since
 * nobody sends to its own group here.
 *
 * <p>Threads: as {@link Comm}.
 */
public class Intercomm extends Comm {
    private final InterGroups.Made made;

    private Intercomm(InterGroups.Made made) {
        super(made.union());
        this.made = made;
        this.group = new Group(made.localGroup());
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
        return Errors.call(op, null, () -> new Intercomm(InterGroups.create(l, localLeader, p, remoteLeader, tag, op)));
    }

    @Override
    int peers(Communicator c) {
        return made.remoteSize();
    }

    @Override
    int toHandle(int rank) {
        return made.remoteBase() + rank;
    }

    @Override
    int fromHandle(int rank) {
        return rank - made.remoteBase();
    }

    /** The local group's size. */
    @Override
    public int Size() throws MPIException {
        c("Size");
        return made.localSize();
    }

    /** This process's rank in the local group. */
    @Override
    public int Rank() throws MPIException {
        return c("Rank").rank() - made.localBase();
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
        return made.remoteSize();
    }

    /** The remote group. */
    public Group Remote_group() throws MPIException {
        c("Remote_group");
        return new Group(made.remoteGroup());
    }

    /**
     * An intra-communicator of both groups: the group that passes {@code high} false first (if both
     * pass the same, the group with the lower job ranks first), each in its own rank order.
     * Collective over both groups.
     */
    public Intracomm Merge(boolean high) throws MPIException {
        c("Merge");
        return call("Merge", () -> new Intracomm(made.merge(high)));
    }

    /** A duplicate, with a context of its own. Collective over both groups. */
    @Override
    public Object clone() throws MPIException {
        Communicator u = c("clone");
        return call("clone", () -> new Intercomm(made.over(u.dup())));
    }
}

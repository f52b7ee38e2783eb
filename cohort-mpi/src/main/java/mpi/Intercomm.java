package mpi;

import io.cohort.Communicator;
import io.cohort.mpi.support.InterGroups;

/**
 * An inter-communicator ({@code MPI_Comm} between two groups), made by
 * {@link Comm#createIntercomm}: point-to-point ranks name processes of the remote group, and
 * {@link #getRank()}, {@link #getSize()} and {@link #getGroup()} are the local group's.
 *
 * <p>Cohort has intra-communicators only, so this is one Cohort communicator over both groups
 * (the group whose lowest job rank is lower first; {@link InterGroups}), with ranks translated: a
 * destination {@code r} is the remote group's rank {@code r}, a status's source the sender's rank
 * in its own group. Collective operations on it are refused with one sentence ({@code ERR_COMM});
 * {@link #merge} gives the intra-communicator to run them on.
 *
 * <p>Threads: as {@link Comm}.
 */
public final class Intercomm extends Comm {
    /** Null for the inter-communicator {@link #getParent()} gives. */
    private final InterGroups.Made made;

    Intercomm(InterGroups.Made made, Errhandler errhandler) {
        super(made == null ? null : made.union(), errhandler);
        this.made = made;
    }

    @Override
    int out(int r) {
        return r == MPI.ANY_SOURCE ? r : made.remoteBase() + r;
    }

    @Override
    int in(int r) {
        return r - made.remoteBase();
    }

    @Override
    int peers(Communicator c) {
        return made.remoteSize();
    }

    @Override
    io.cohort.Group localGroup(Communicator c) {
        return made.localGroup();
    }

    @Override
    int localRank(Communicator c) {
        return c.rank() - made.localBase();
    }

    @Override
    int localSize(Communicator c) {
        return made.localSize();
    }

    @Override
    Comm duplicate(Communicator c) {
        return new Intercomm(made.over(c), errhandler());
    }

    /** A duplicate over both groups, with a context of its own. Collective over both groups. */
    @Override
    public Intercomm dup() throws MPIException {
        return (Intercomm) super.dup();
    }

    @Override
    public Intercomm iDup() throws MPIException {
        return (Intercomm) super.iDup();
    }

    @Override
    public Intercomm clone() {
        return (Intercomm) super.clone();
    }

    /** The remote group's size. */
    public int getRemoteSize() throws MPIException {
        c();
        return made.remoteSize();
    }

    /** The remote group. */
    public Group getRemoteGroup() throws MPIException {
        c();
        return new Group(made.remoteGroup());
    }

    /**
     * An intra-communicator of both groups: the group that passes {@code high} false first (if both
     * pass the same, the group with the lower job ranks first), each in its own rank order.
     * Collective over both groups.
     */
    public Intracomm merge(boolean high) throws MPIException {
        c();
        try {
            return derive(made.merge(high));
        } catch (RuntimeException e) {
            throw fail(e, "merge");
        }
    }

    /**
     * The inter-communicator to the processes that spawned this one: always a null communicator
     * ({@link #isNull()}), since {@code cohort run} starts every process of the job itself and
     * Cohort has no {@code spawn}.
     */
    public static Intercomm getParent() throws MPIException {
        MPI.check();
        return new Intercomm(null, MPI.ERRORS_ARE_FATAL);
    }
}

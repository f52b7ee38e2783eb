package mpi;

import io.cohort.Communicator;

/**
 * An intra-communicator: a {@link Comm} that can be split, made from a group, and scanned. Cohort's
 * communicators are all intra-communicators; {@link MPI#COMM_WORLD} and {@link MPI#COMM_SELF} are
 * instances of this class.
 */
public class Intracomm extends Comm {
    Intracomm(int kind) {
        super(kind);
    }

    Intracomm(Communicator handle, Errhandler errhandler) {
        super(handle, errhandler);
    }

    @Override
    public Intracomm dup() throws MPIException {
        return (Intracomm) super.dup();
    }

    @Override
    public Intracomm iDup() throws MPIException {
        return (Intracomm) super.iDup();
    }

    @Override
    public Intracomm clone() {
        return (Intracomm) super.clone();
    }

    /**
     * Splits this communicator: the processes giving the same {@code colour} form a new one, ranked
     * by {@code key}, then by their rank here. A process giving {@link MPI#UNDEFINED} gets a null
     * communicator ({@link #isNull()}). Collective.
     */
    public final Intracomm split(int colour, int key) throws MPIException {
        Communicator c = c();
        if (colour < 0 && colour != MPI.UNDEFINED) {
            throw error(MPI.ERR_ARG, "split: colour " + colour + " is negative; colours are 0 or more, or MPI.UNDEFINED");
        }
        queue().drain();
        try {
            return derive(c.split(colour, key));
        } catch (RuntimeException e) {
            throw fail(e, "split");
        }
    }

    /**
     * A communicator of {@code group}'s processes, which must be a subset of this one's and the same
     * at every process. Processes outside the group get a null communicator. Collective.
     */
    public final Intracomm create(Group group) throws MPIException {
        Communicator c = c();
        if (group == null || group.isNull()) {
            throw error(MPI.ERR_GROUP, "create needs a group, not " + (group == null ? "null" : "a freed one"));
        }
        io.cohort.Group g = group.group != null ? group.group : new io.cohort.Group(new int[0], Peer.current().world.rank());
        queue().drain();
        try {
            return derive(c.create(g));
        } catch (RuntimeException e) {
            throw fail(e, "create");
        }
    }

    /**
     * A communicator of {@code group}'s processes, made by them alone ({@code MPI_Comm_create_group}):
     * only the group's members call it, each with the same group and {@code tag}. Collective over
     * the group.
     */
    public final Intracomm createGroup(Group group, int tag) throws MPIException {
        Communicator c = c();
        if (group == null || group.isNull() || group.group == null) {
            throw error(MPI.ERR_GROUP, "createGroup needs a group with this process in it, not "
                    + (group == null ? "null" : group.isNull() ? "a freed one" : "the empty group"));
        }
        if (tag < 0) {
            throw error(MPI.ERR_TAG, "createGroup: tag " + tag + " is negative");
        }
        try {
            return derive(c.createGroup(group.group, tag));
        } catch (IllegalArgumentException e) {
            throw error(MPI.ERR_GROUP, e.getMessage());
        } catch (RuntimeException e) {
            throw fail(e, "createGroup");
        }
    }

    // ---- process topologies ------------------------------------------------------------------------

    /**
     * A Cartesian communicator of the first {@code dims[0] x dims[1] x ...} processes, in their
     * order here ({@code reorder} is accepted; Cohort keeps ranks as they are). The processes beyond
     * the grid get a null communicator. Collective.
     */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        Communicator c = c();
        io.cohort.mpi.support.CartGrid grid;
        try {
            grid = io.cohort.mpi.support.CartGrid.of(dims, periods, c.size());
        } catch (IllegalArgumentException e) {
            throw error(MPI.ERR_DIMS, "createCart: " + e.getMessage());
        }
        return new CartComm(firstProcesses(c, grid.size(), "createCart"), errhandler(), grid);
    }

    /**
     * A graph communicator of the first {@code index.length} processes: node i's neighbours are
     * {@code edges[index[i-1]]} to {@code edges[index[i] - 1]}. Ranks are kept; the processes beyond
     * the nodes get a null communicator. Collective.
     */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) throws MPIException {
        Communicator c = c();
        io.cohort.mpi.support.GraphTopology graph;
        try {
            graph = io.cohort.mpi.support.GraphTopology.of(index, edges, c.size());
        } catch (IllegalArgumentException e) {
            throw error(MPI.ERR_TOPOLOGY, "createGraph: " + e.getMessage());
        }
        return new GraphComm(firstProcesses(c, graph.nodes(), "createGraph"), errhandler(), graph);
    }

    /** A topology's communicator: the first {@code n} processes, ranks kept; null to the others. Collective. */
    private Communicator firstProcesses(Communicator c, int n, String op) throws MPIException {
        queue().drain();
        try {
            return c.split(c.rank() < n ? 0 : MPI.UNDEFINED, c.rank());
        } catch (RuntimeException e) {
            throw fail(e, op);
        }
    }

    // ---- scan ------------------------------------------------------------------------------------

    private record ScanPrepared(Communicator c, Reductions.Operands x, io.cohort.Op op, boolean inclusive) implements Prepared {
        @Override
        public void run() {
            if (inclusive) {
                c.scan(x.send, x.recv, op);
            } else {
                c.exscan(x.send, x.recv, op);
            }
        }

        @Override
        public void store() {
            // Exscan leaves rank 0's result undefined; Cohort leaves it untouched, and so do we.
            if (inclusive || c.rank() > 0) {
                x.store();
            }
        }
    }

    private Prepared prepareScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, boolean inPlace,
                                 boolean inclusive, String name) throws MPIException {
        Communicator c = c();
        io.cohort.Op cop = Reductions.cohortOp(this, op, type, count, name);
        checkBuffer(sendbuf, count, type, name, "send buffer");
        checkBuffer(recvbuf, count, type, name, "receive buffer");
        return new ScanPrepared(c, new Reductions.Operands(sendbuf, recvbuf, count, count, type, op, inPlace), cop, inclusive);
    }

    /** Inclusive prefix reduction: rank r receives the combination of ranks 0 to r's items. */
    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        blocking("scan", prepareScan(sendbuf, recvbuf, count, type, op, false, true, "scan"));
    }

    /** In place: {@code recvbuf} is the operand and receives the result. */
    public final void scan(Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        blocking("scan", prepareScan(recvbuf, recvbuf, count, type, op, true, true, "scan"));
    }

    public final Request iScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        return nonblocking("iScan", prepareScan(sendbuf, recvbuf, count, type, op, false, true, "iScan"), null);
    }

    public final Request iScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        return nonblocking("iScan", prepareScan(buf, buf, count, type, op, true, true, "iScan"), null);
    }

    /** Exclusive prefix reduction: rank r receives ranks 0 to r - 1's; rank 0's receive buffer is left as it was. */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        blocking("exScan", prepareScan(sendbuf, recvbuf, count, type, op, false, false, "exScan"));
    }

    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        blocking("exScan", prepareScan(buf, buf, count, type, op, true, false, "exScan"));
    }

    public final Request iExScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        return nonblocking("iExScan", prepareScan(sendbuf, recvbuf, count, type, op, false, false, "iExScan"), null);
    }

    public final Request iExScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        return nonblocking("iExScan", prepareScan(buf, buf, count, type, op, true, false, "iExScan"), null);
    }
}

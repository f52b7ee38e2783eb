package mpi;

import io.cohort.Communicator;

/**
 * An intra-communicator: a {@link Comm} with the collectives, Split, Create and the topology
 * constructors. Every collective takes its buffers with offsets, in elements of the arrays, and
 * hands Cohort's collectives the program's own arrays wherever they are exactly the items (a
 * contiguous type from offset 0 over the whole array); other arrays are copied once each way.
 *
 * <p>Threads: as {@link Comm}; the collectives of one communicator must be called in the same order
 * on every process.
 */
public class Intracomm extends Comm {
    Intracomm(int kind) {
        super(kind);
    }

    Intracomm(Communicator c) {
        super(c);
    }

    /** As {@link Comm#Compare}. */
    public static int Compare(Comm comm1, Comm comm2) throws MPIException {
        return Comm.Compare(comm1, comm2);
    }

    /** A duplicate: the same group, a context of its own. Collective. */
    @Override
    public Object clone() throws MPIException {
        return super.clone();
    }

    /**
     * Splits this communicator: processes that give the same {@code color} form a new one, ranked
     * by {@code key} (then by rank here). A process giving {@link MPI#UNDEFINED} gets null.
     * Collective.
     */
    public Intracomm Split(int color, int key) throws MPIException {
        Communicator c = c("Split");
        if (color < 0 && color != MPI.UNDEFINED) {
            throw Errors.error("Split: color " + color + " is negative; colors are 0 or more, or MPI.UNDEFINED");
        }
        try {
            Communicator s = c.split(color == MPI.UNDEFINED ? io.cohort.Group.UNDEFINED : color, key);
            return s == null ? null : new Intracomm(s);
        } catch (RuntimeException e) {
            throw Errors.of(e, "Split");
        }
    }

    /**
     * A communicator of {@code group}'s processes (a subset of this one's), ranked as in the group;
     * null at the others. Collective: every process of this communicator calls it, with the same
     * group or, as MPI-2.2 allows, with disjoint groups (each process names the group it joins),
     * and each group gets a communicator of its own.
     */
    public Intracomm Create(Group group) throws MPIException {
        Communicator c = c("Create");
        if (group == null) {
            throw Errors.error("Create needs a group, not null");
        }
        io.cohort.Group mine = c.group();
        int[] members = group.g.worldRanks();
        int lowest = Integer.MAX_VALUE;
        for (int w : members) {
            if (mine.rankOfWorld(w) == io.cohort.Group.UNDEFINED) {
                throw Errors.error("Create: the group holds a process (job rank " + w + ") that is not in this"
                        + " communicator; pass a group made from this communicator's group");
            }
            lowest = Math.min(lowest, w);
        }
        // Split with one color per group (its lowest job rank), ranked by group rank: one collective
        // that serves a common group and disjoint groups alike.
        int inGroup = group.g.rank();
        try {
            Communicator s = c.split(inGroup == io.cohort.Group.UNDEFINED ? io.cohort.Group.UNDEFINED : lowest,
                    inGroup);
            return s == null ? null : new Intracomm(s);
        } catch (RuntimeException e) {
            throw Errors.of(e, "Create");
        }
    }

    // ---- topologies ---------------------------------------------------------------------------

    /**
     * A Cartesian communicator of {@code dims} (row-major ranks), periodic in the dimensions where
     * {@code periods} is true; the processes beyond the grid's size get null. Ranks are kept
     * ({@code reorder} is ignored). Collective.
     */
    public Cartcomm Create_cart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        return Cartcomm.create(this, dims, periods);
    }

    /**
     * A graph communicator: node i's neighbours are {@code edges[index[i-1]]} to
     * {@code edges[index[i] - 1]}; the processes beyond the nodes get null. Ranks are kept.
     * Collective.
     */
    public Graphcomm Create_graph(int[] index, int[] edges, boolean reorder) {
        return Graphcomm.create(this, index, edges);
    }

    // ---- collectives --------------------------------------------------------------------------

    private void checkRoot(Communicator c, int root, String op) {
        if (root < 0 || root >= c.size()) {
            throw Errors.error(op + ": root " + root + " is not in this communicator of " + c.size()
                    + " (ranks 0 to " + (c.size() - 1) + ")");
        }
    }

    /** Counts with their displacements, as the v-collectives take them: both required. */
    private static void checkCounts(Communicator c, int[] counts, int[] displs, String op) {
        if (displs == null) {
            throw Errors.error(op + " needs a displacement for each of the " + c.size() + " processes, not null");
        }
        checkCountsOnly(c, counts, displs, op);
    }

    /** Counts alone (Reduce_scatter), or with displacements when {@code displs} is not null. */
    private static void checkCountsOnly(Communicator c, int[] counts, int[] displs, String op) {
        if (counts == null || counts.length < c.size()) {
            throw Errors.error(op + " needs a count for each of the " + c.size() + " processes, not "
                    + (counts == null ? "null" : counts.length));
        }
        if (displs != null && displs.length < c.size()) {
            throw Errors.error(op + " needs a displacement for each of the " + c.size() + " processes, not "
                    + displs.length);
        }
        for (int r = 0; r < c.size(); r++) {
            if (counts[r] < 0) {
                throw Errors.error(op + ": the count for rank " + r + " is negative: " + counts[r]);
            }
        }
    }

    /** The first {@code n} entries: MPI reads only as many counts and displacements as there are processes. */
    private static int[] first(int[] a, int n) {
        return a == null || a.length == n ? a : java.util.Arrays.copyOf(a, n);
    }

    private static void checkBlocks(Object buf, int offset, int[] counts, int[] displs, Datatype type, String what) {
        for (int r = 0; r < counts.length; r++) {
            if (type != null && displs[r] < 0) {
                throw Errors.error(what + ": the displacement for rank " + r + " is negative: " + displs[r]);
            }
            checkBuffer(buf, offset + (type == null ? 0 : displs[r] * type.layout.extent), counts[r], type, what);
        }
    }

    /** As {@link #checkBlocks}, for blocks received into: they may not overlap (the data would depend on arrival order). */
    private static void checkReceiveBlocks(Object buf, int offset, int[] counts, int[] displs, Datatype type, String what) {
        checkBlocks(buf, offset, counts, displs, type, what);
        String overlap = io.cohort.mpi.support.ReceiveBlocks.overlap(counts, displs);
        if (overlap != null) {
            throw Errors.error(what + ": " + overlap);
        }
    }

    private static int[] uniform(int count, int n) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, count);
        return a;
    }

    private static int[] packed(int count, int n) {
        int[] a = new int[n];
        for (int r = 0; r < n; r++) {
            a[r] = r * count;
        }
        return a;
    }

    private static void checkMatch(int sendElements, int recvElements, String op) {
        if (sendElements != recvElements) {
            throw Errors.error(op + ": each block sends " + sendElements + " elements but receives " + recvElements
                    + "; the send and receive counts and types must carry the same elements");
        }
    }

    /** Returns when every process has called it. */
    public void Barrier() throws MPIException {
        Communicator c = c("Barrier");
        try {
            c.barrier();
        } catch (RuntimeException e) {
            throw Errors.of(e, "Barrier");
        }
    }

    /** Copies the root's {@code count} items into every process's buffer. */
    public void Bcast(Object buf, int offset, int count, Datatype type, int root) throws MPIException {
        Communicator c = c("Bcast");
        checkRoot(c, root, "Bcast");
        checkBuffer(buf, offset, count, type, "Bcast");
        try {
            if (whole(buf, offset, count, type)) {
                c.bcast(root, buf);
                return;
            }
            Operand x = c.rank() == root ? Operand.in(buf, offset, count, type) : Operand.out(buf, offset, count, type);
            c.bcast(root, x.carrier);
            if (c.rank() != root) {
                x.store();
            }
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Bcast");
        }
    }

    /** Every process's items into the root's buffer, rank r's at item {@code r * recvcount}. */
    public void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                       int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        Communicator c = c("Gather");
        checkRoot(c, root, "Gather");
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype, "Gather send buffer");
        boolean atRoot = c.rank() == root;
        try {
            Operand s = Operand.in(sendbuf, sendoffset, sendcount, sendtype);
            Operand r = null;
            if (atRoot) {
                checkBuffer(recvbuf, recvoffset, recvcount * c.size(), recvtype, "Gather receive buffer");
                checkMatch(s.elements(), recvcount * recvtype.layout.size, "Gather");
                r = Operand.out(recvbuf, recvoffset, recvcount * c.size(), recvtype);
            }
            c.gather(root, s.carrier, r == null ? null : r.carrier);
            if (r != null) {
                r.store();
            }
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Gather");
        }
    }

    /** Rank r's {@code recvcount[r]} items into the root's buffer at item {@code displs[r]}. */
    public void Gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                        int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        Communicator c = c("Gatherv");
        checkRoot(c, root, "Gatherv");
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype, "Gatherv send buffer");
        boolean atRoot = c.rank() == root;
        try {
            Operand s = Operand.in(sendbuf, sendoffset, sendcount, sendtype);
            if (!atRoot) {
                c.gatherv(root, s.carrier, null, null, null);
                return;
            }
            checkCounts(c, recvcount, displs, "Gatherv");
            recvcount = first(recvcount, c.size());
            displs = first(displs, c.size());
            checkReceiveBlocks(recvbuf, recvoffset, recvcount, displs, recvtype, "Gatherv receive buffer");
            checkMatch(s.elements(), recvcount[root] * recvtype.layout.size, "Gatherv");
            Operand.Blocks r = new Operand.Blocks(recvbuf, recvoffset, recvcount, displs, recvtype, false);
            c.gatherv(root, s.carrier, r.carrier, r.counts, r.displs);
            r.store();
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Gatherv");
        }
    }

    /** Block r of the root's buffer ({@code sendcount} items at item {@code r * sendcount}) to rank r. */
    public void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                        int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        Communicator c = c("Scatter");
        checkRoot(c, root, "Scatter");
        checkBuffer(recvbuf, recvoffset, recvcount, recvtype, "Scatter receive buffer");
        boolean atRoot = c.rank() == root;
        try {
            Operand s = null;
            if (atRoot) {
                checkBuffer(sendbuf, sendoffset, sendcount * c.size(), sendtype, "Scatter send buffer");
                checkMatch(sendcount * sendtype.layout.size, recvcount * recvtype.layout.size, "Scatter");
                s = Operand.in(sendbuf, sendoffset, sendcount * c.size(), sendtype);
            }
            Operand r = Operand.out(recvbuf, recvoffset, recvcount, recvtype);
            c.scatter(root, s == null ? null : s.carrier, r.carrier);
            r.store();
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Scatter");
        }
    }

    /** {@code sendcount[r]} items of the root's buffer at item {@code displs[r]} to rank r. */
    public void Scatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        Communicator c = c("Scatterv");
        checkRoot(c, root, "Scatterv");
        checkBuffer(recvbuf, recvoffset, recvcount, recvtype, "Scatterv receive buffer");
        boolean atRoot = c.rank() == root;
        try {
            Operand r = Operand.out(recvbuf, recvoffset, recvcount, recvtype);
            if (!atRoot) {
                c.scatterv(root, null, null, null, r.carrier);
            } else {
                checkCounts(c, sendcount, displs, "Scatterv");
                sendcount = first(sendcount, c.size());
                displs = first(displs, c.size());
                checkBlocks(sendbuf, sendoffset, sendcount, displs, sendtype, "Scatterv send buffer");
                checkMatch(sendcount[root] * sendtype.layout.size, recvcount * recvtype.layout.size, "Scatterv");
                Operand.Blocks s = new Operand.Blocks(sendbuf, sendoffset, sendcount, displs, sendtype, true);
                c.scatterv(root, s.carrier, s.counts, s.displs, r.carrier);
            }
            r.store();
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Scatterv");
        }
    }

    /** Every process's items into every process's buffer, rank r's at item {@code r * recvcount}. */
    public void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                          int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        Communicator c = c("Allgather");
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype, "Allgather send buffer");
        checkBuffer(recvbuf, recvoffset, recvcount * c.size(), recvtype, "Allgather receive buffer");
        checkMatch(sendcount * sendtype.layout.size, recvcount * recvtype.layout.size, "Allgather");
        try {
            Operand s = Operand.in(sendbuf, sendoffset, sendcount, sendtype);
            Operand r = Operand.out(recvbuf, recvoffset, recvcount * c.size(), recvtype);
            c.allgather(s.carrier, r.carrier);
            r.store();
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Allgather");
        }
    }

    /** Rank r's {@code recvcount[r]} items into every process's buffer at item {@code displs[r]}. */
    public void Allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                           int recvoffset, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        Communicator c = c("Allgatherv");
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype, "Allgatherv send buffer");
        checkCounts(c, recvcount, displs, "Allgatherv");
        recvcount = first(recvcount, c.size());
        displs = first(displs, c.size());
        checkReceiveBlocks(recvbuf, recvoffset, recvcount, displs, recvtype, "Allgatherv receive buffer");
        checkMatch(sendcount * sendtype.layout.size, recvcount[c.rank()] * recvtype.layout.size, "Allgatherv");
        try {
            Operand s = Operand.in(sendbuf, sendoffset, sendcount, sendtype);
            Operand.Blocks r = new Operand.Blocks(recvbuf, recvoffset, recvcount, displs, recvtype, false);
            c.allgatherv(s.carrier, r.carrier, r.counts, r.displs);
            r.store();
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Allgatherv");
        }
    }

    /** Block r of every process's send buffer to rank r, which keeps rank q's at block q of its receive buffer. */
    public void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                         int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        Communicator c = c("Alltoall");
        int n = c.size();
        checkBuffer(sendbuf, sendoffset, sendcount * n, sendtype, "Alltoall send buffer");
        checkBuffer(recvbuf, recvoffset, recvcount * n, recvtype, "Alltoall receive buffer");
        checkMatch(sendcount * sendtype.layout.size, recvcount * recvtype.layout.size, "Alltoall");
        try {
            Operand s = Operand.in(sendbuf, sendoffset, sendcount * n, sendtype);
            Operand r = Operand.out(recvbuf, recvoffset, recvcount * n, recvtype);
            c.alltoall(s.carrier, r.carrier);
            r.store();
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Alltoall");
        }
    }

    /** {@code sendcount[r]} items at item {@code sdispls[r]} to rank r, which keeps them at item {@code rdispls[q]}. */
    public void Alltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
                          Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        Communicator c = c("Alltoallv");
        checkCounts(c, sendcount, sdispls, "Alltoallv");
        checkCounts(c, recvcount, rdispls, "Alltoallv");
        sendcount = first(sendcount, c.size());
        sdispls = first(sdispls, c.size());
        recvcount = first(recvcount, c.size());
        rdispls = first(rdispls, c.size());
        checkBlocks(sendbuf, sendoffset, sendcount, sdispls, sendtype, "Alltoallv send buffer");
        checkReceiveBlocks(recvbuf, recvoffset, recvcount, rdispls, recvtype, "Alltoallv receive buffer");
        try {
            Operand.Blocks s = new Operand.Blocks(sendbuf, sendoffset, sendcount, sdispls, sendtype, true);
            Operand.Blocks r = new Operand.Blocks(recvbuf, recvoffset, recvcount, rdispls, recvtype, false);
            c.alltoallv(s.carrier, s.counts, s.displs, r.carrier, r.counts, r.displs);
            r.store();
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Alltoallv");
        }
    }

    // ---- reductions --------------------------------------------------------------------------------

    /** Combines every process's {@code count} items with {@code op} into the root's receive buffer. */
    public void Reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                       Op op, int root) throws MPIException {
        Communicator c = c("Reduce");
        checkRoot(c, root, "Reduce");
        io.cohort.Op cop = cohortOp(op, datatype, count, "Reduce");
        checkBuffer(sendbuf, sendoffset, count, datatype, "Reduce send buffer");
        boolean atRoot = c.rank() == root;
        if (atRoot) {
            checkBuffer(recvbuf, recvoffset, count, datatype, "Reduce receive buffer");
        }
        try {
            Operand s = Operand.in(sendbuf, sendoffset, count, datatype);
            Operand r = atRoot ? Operand.out(recvbuf, recvoffset, count, datatype) : null;
            c.reduce(root, s.carrier, r == null ? null : r.carrier, cop);
            if (r != null) {
                r.store();
            }
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Reduce");
        }
    }

    /** {@link #Reduce} with the result at every process. */
    public void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                          Datatype datatype, Op op) throws MPIException {
        Communicator c = c("Allreduce");
        io.cohort.Op cop = cohortOp(op, datatype, count, "Allreduce");
        checkBuffer(sendbuf, sendoffset, count, datatype, "Allreduce send buffer");
        checkBuffer(recvbuf, recvoffset, count, datatype, "Allreduce receive buffer");
        try {
            if (whole(sendbuf, sendoffset, count, datatype) && whole(recvbuf, recvoffset, count, datatype)) {
                c.allreduce(sendbuf, recvbuf, cop);
                return;
            }
            Operand s = Operand.in(sendbuf, sendoffset, count, datatype);
            Operand r = Operand.out(recvbuf, recvoffset, count, datatype);
            c.allreduce(s.carrier, r.carrier, cop);
            r.store();
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Allreduce");
        }
    }

    /** Reduces {@code sum(recvcounts)} items; rank r receives its {@code recvcounts[r]} of them. */
    public void Reduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                               Datatype datatype, Op op) throws MPIException {
        Communicator c = c("Reduce_scatter");
        checkCountsOnly(c, recvcounts, null, "Reduce_scatter");
        recvcounts = first(recvcounts, c.size());
        int total = 0;
        for (int n : recvcounts) {
            total += n;
        }
        io.cohort.Op cop = cohortOp(op, datatype, total, "Reduce_scatter");
        checkBuffer(sendbuf, sendoffset, total, datatype, "Reduce_scatter send buffer");
        checkBuffer(recvbuf, recvoffset, recvcounts[c.rank()], datatype, "Reduce_scatter receive buffer");
        int[] elements = new int[recvcounts.length];
        for (int r = 0; r < elements.length; r++) {
            elements[r] = recvcounts[r] * datatype.layout.size;
        }
        try {
            Operand s = Operand.in(sendbuf, sendoffset, total, datatype);
            Operand r = Operand.out(recvbuf, recvoffset, recvcounts[c.rank()], datatype);
            c.reduceScatter(s.carrier, r.carrier, elements, cop);
            r.store();
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Reduce_scatter");
        }
    }

    /** Inclusive prefix reduction: rank r receives the items of ranks 0 to r combined. */
    public void Scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                     Op op) throws MPIException {
        Communicator c = c("Scan");
        io.cohort.Op cop = cohortOp(op, datatype, count, "Scan");
        checkBuffer(sendbuf, sendoffset, count, datatype, "Scan send buffer");
        checkBuffer(recvbuf, recvoffset, count, datatype, "Scan receive buffer");
        try {
            Operand s = Operand.in(sendbuf, sendoffset, count, datatype);
            Operand r = Operand.out(recvbuf, recvoffset, count, datatype);
            c.scan(s.carrier, r.carrier, cop);
            r.store();
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.of(e, "Scan");
        }
    }

    private static io.cohort.Op cohortOp(Op op, Datatype type, int count, String what) {
        if (op == null) {
            throw Errors.error(what + " needs an op, not null");
        }
        if (type == null) {
            throw Errors.error(what + ": the datatype is null");
        }
        return op.toCohort(type, count, what);
    }
}

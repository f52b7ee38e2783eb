package mpi;

import io.cohort.Communicator;
import io.cohort.mpi.support.buffers.Blocks;
import io.cohort.mpi.support.buffers.Operand;

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
        return call("Split", () -> {
            Communicator s = c.split(color == MPI.UNDEFINED ? io.cohort.Group.UNDEFINED : color, key);
            return s == null ? null : new Intracomm(s);
        });
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
        int colour = inGroup == io.cohort.Group.UNDEFINED ? io.cohort.Group.UNDEFINED : lowest;
        return call("Create", () -> {
            Communicator s = c.split(colour, inGroup);
            return s == null ? null : new Intracomm(s);
        });
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

    // mpiJava's buffers, as the shared adapters take them: an offset counts elements of the array,
    // and Cohort's non-v collectives get arrays of exactly the items (their length is the count).

    /** {@code count} items of {@code buf} from element {@code offset} as an input carrier (the array itself if it is them). */
    private static Object in(Object buf, int offset, int count, Datatype type) {
        return Operand.inputCarrier(buf, offset, count, type.layout, type.element);
    }

    /** Room for {@code count} items of {@code buf} from element {@code offset}, stored back by {@link Operand#store}. */
    private static Operand out(Object buf, int offset, int count, Datatype type) {
        return Operand.output(buf, offset, count, type.layout, type.element, true, false);
    }

    /** The blocks of a v-collective: {@code counts[r]} items at item {@code displs[r]} from element {@code offset}. */
    private static Blocks blocks(Object buf, int offset, int[] counts, int[] displs, Datatype type, boolean load) {
        return new Blocks(buf, offset, counts, displs, type.layout, type.element, load);
    }

    // Each collective checks its arguments, makes its adapters, and runs Cohort's call and the copy
    // back in run(), the one place that turns what escapes Cohort into the call's MPI error. The
    // lambda captures the adapters, a few references: its object is no bigger than the operand an
    // input no longer needs (measured: no call allocates more than before). Bcast, which has no
    // input to save, and Allreduce of whole arrays, which makes no adapters at all, catch for
    // themselves with the same Errors.failed (as cohort-mpi's fast paths do).

    /** Returns when every process has called it. */
    public void Barrier() throws MPIException {
        Communicator c = c("Barrier");
        run("Barrier", c::barrier);
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
            // Loaded at the root, stored back at the others.
            Operand x = Operand.output(buf, offset, count, type.layout, type.element, true, c.rank() == root);
            c.bcast(root, x.carrier);
            if (c.rank() != root) {
                x.store();
            }
        } catch (RuntimeException e) {
            throw Errors.failed(e, "Bcast", this);
        }
    }

    /** Every process's items into the root's buffer, rank r's at item {@code r * recvcount}. */
    public void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                       int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        Communicator c = c("Gather");
        checkRoot(c, root, "Gather");
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype, "Gather send buffer");
        boolean atRoot = c.rank() == root;
        if (atRoot) {
            checkBuffer(recvbuf, recvoffset, recvcount * c.size(), recvtype, "Gather receive buffer");
            checkMatch(sendcount * sendtype.layout.size, recvcount * recvtype.layout.size, "Gather");
        }
        Object s = in(sendbuf, sendoffset, sendcount, sendtype);
        Operand r = atRoot ? out(recvbuf, recvoffset, recvcount * c.size(), recvtype) : null;
        run("Gather", () -> {
            c.gather(root, s, r == null ? null : r.carrier);
            if (r != null) {
                r.store();
            }
        });
    }

    /** Rank r's {@code recvcount[r]} items into the root's buffer at item {@code displs[r]}. */
    public void Gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                        int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        Communicator c = c("Gatherv");
        checkRoot(c, root, "Gatherv");
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype, "Gatherv send buffer");
        Object s = in(sendbuf, sendoffset, sendcount, sendtype);
        if (c.rank() != root) {
            run("Gatherv", () -> c.gatherv(root, s, null, null, null));
            return;
        }
        checkCounts(c, recvcount, displs, "Gatherv");
        int[] counts = first(recvcount, c.size());
        int[] at = first(displs, c.size());
        checkReceiveBlocks(recvbuf, recvoffset, counts, at, recvtype, "Gatherv receive buffer");
        checkMatch(sendcount * sendtype.layout.size, counts[root] * recvtype.layout.size, "Gatherv");
        Blocks r = blocks(recvbuf, recvoffset, counts, at, recvtype, false);
        run("Gatherv", () -> {
            c.gatherv(root, s, r.carrier, r.counts, r.displs);
            r.store();
        });
    }

    /** Block r of the root's buffer ({@code sendcount} items at item {@code r * sendcount}) to rank r. */
    public void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                        int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        Communicator c = c("Scatter");
        checkRoot(c, root, "Scatter");
        checkBuffer(recvbuf, recvoffset, recvcount, recvtype, "Scatter receive buffer");
        boolean atRoot = c.rank() == root;
        if (atRoot) {
            checkBuffer(sendbuf, sendoffset, sendcount * c.size(), sendtype, "Scatter send buffer");
            checkMatch(sendcount * sendtype.layout.size, recvcount * recvtype.layout.size, "Scatter");
        }
        Object s = atRoot ? in(sendbuf, sendoffset, sendcount * c.size(), sendtype) : null;
        Operand r = out(recvbuf, recvoffset, recvcount, recvtype);
        run("Scatter", () -> {
            c.scatter(root, s, r.carrier);
            r.store();
        });
    }

    /** {@code sendcount[r]} items of the root's buffer at item {@code displs[r]} to rank r. */
    public void Scatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        Communicator c = c("Scatterv");
        checkRoot(c, root, "Scatterv");
        checkBuffer(recvbuf, recvoffset, recvcount, recvtype, "Scatterv receive buffer");
        Operand r = out(recvbuf, recvoffset, recvcount, recvtype);
        if (c.rank() != root) {
            run("Scatterv", () -> {
                c.scatterv(root, null, null, null, r.carrier);
                r.store();
            });
            return;
        }
        checkCounts(c, sendcount, displs, "Scatterv");
        int[] counts = first(sendcount, c.size());
        int[] at = first(displs, c.size());
        checkBlocks(sendbuf, sendoffset, counts, at, sendtype, "Scatterv send buffer");
        checkMatch(counts[root] * sendtype.layout.size, recvcount * recvtype.layout.size, "Scatterv");
        Blocks s = blocks(sendbuf, sendoffset, counts, at, sendtype, true);
        run("Scatterv", () -> {
            c.scatterv(root, s.carrier, s.counts, s.displs, r.carrier);
            r.store();
        });
    }

    /** Every process's items into every process's buffer, rank r's at item {@code r * recvcount}. */
    public void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                          int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        Communicator c = c("Allgather");
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype, "Allgather send buffer");
        checkBuffer(recvbuf, recvoffset, recvcount * c.size(), recvtype, "Allgather receive buffer");
        checkMatch(sendcount * sendtype.layout.size, recvcount * recvtype.layout.size, "Allgather");
        Object s = in(sendbuf, sendoffset, sendcount, sendtype);
        Operand r = out(recvbuf, recvoffset, recvcount * c.size(), recvtype);
        run("Allgather", () -> {
            c.allgather(s, r.carrier);
            r.store();
        });
    }

    /** Rank r's {@code recvcount[r]} items into every process's buffer at item {@code displs[r]}. */
    public void Allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                           int recvoffset, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        Communicator c = c("Allgatherv");
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype, "Allgatherv send buffer");
        checkCounts(c, recvcount, displs, "Allgatherv");
        int[] counts = first(recvcount, c.size());
        int[] at = first(displs, c.size());
        checkReceiveBlocks(recvbuf, recvoffset, counts, at, recvtype, "Allgatherv receive buffer");
        checkMatch(sendcount * sendtype.layout.size, counts[c.rank()] * recvtype.layout.size, "Allgatherv");
        Object s = in(sendbuf, sendoffset, sendcount, sendtype);
        Blocks r = blocks(recvbuf, recvoffset, counts, at, recvtype, false);
        run("Allgatherv", () -> {
            c.allgatherv(s, r.carrier, r.counts, r.displs);
            r.store();
        });
    }

    /** Block r of every process's send buffer to rank r, which keeps rank q's at block q of its receive buffer. */
    public void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                         int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        Communicator c = c("Alltoall");
        int n = c.size();
        checkBuffer(sendbuf, sendoffset, sendcount * n, sendtype, "Alltoall send buffer");
        checkBuffer(recvbuf, recvoffset, recvcount * n, recvtype, "Alltoall receive buffer");
        checkMatch(sendcount * sendtype.layout.size, recvcount * recvtype.layout.size, "Alltoall");
        Object s = in(sendbuf, sendoffset, sendcount * n, sendtype);
        Operand r = out(recvbuf, recvoffset, recvcount * n, recvtype);
        run("Alltoall", () -> {
            c.alltoall(s, r.carrier);
            r.store();
        });
    }

    /** {@code sendcount[r]} items at item {@code sdispls[r]} to rank r, which keeps them at item {@code rdispls[q]}. */
    public void Alltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
                          Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        Communicator c = c("Alltoallv");
        checkCounts(c, sendcount, sdispls, "Alltoallv");
        checkCounts(c, recvcount, rdispls, "Alltoallv");
        int[] sc = first(sendcount, c.size());
        int[] sd = first(sdispls, c.size());
        int[] rc = first(recvcount, c.size());
        int[] rd = first(rdispls, c.size());
        checkBlocks(sendbuf, sendoffset, sc, sd, sendtype, "Alltoallv send buffer");
        checkReceiveBlocks(recvbuf, recvoffset, rc, rd, recvtype, "Alltoallv receive buffer");
        Blocks s = blocks(sendbuf, sendoffset, sc, sd, sendtype, true);
        Blocks r = blocks(recvbuf, recvoffset, rc, rd, recvtype, false);
        run("Alltoallv", () -> {
            c.alltoallv(s.carrier, s.counts, s.displs, r.carrier, r.counts, r.displs);
            r.store();
        });
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
        Object s = in(sendbuf, sendoffset, count, datatype);
        Operand r = atRoot ? out(recvbuf, recvoffset, count, datatype) : null;
        run("Reduce", () -> {
            c.reduce(root, s, r == null ? null : r.carrier, cop);
            if (r != null) {
                r.store();
            }
        });
    }

    /** {@link #Reduce} with the result at every process. */
    public void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                          Datatype datatype, Op op) throws MPIException {
        Communicator c = c("Allreduce");
        io.cohort.Op cop = cohortOp(op, datatype, count, "Allreduce");
        checkBuffer(sendbuf, sendoffset, count, datatype, "Allreduce send buffer");
        checkBuffer(recvbuf, recvoffset, count, datatype, "Allreduce receive buffer");
        if (whole(sendbuf, sendoffset, count, datatype) && whole(recvbuf, recvoffset, count, datatype)) {
            try {
                c.allreduce(sendbuf, recvbuf, cop);
            } catch (RuntimeException e) {
                throw Errors.failed(e, "Allreduce", this);
            }
            return;
        }
        Object s = in(sendbuf, sendoffset, count, datatype);
        Operand r = out(recvbuf, recvoffset, count, datatype);
        run("Allreduce", () -> {
            c.allreduce(s, r.carrier, cop);
            r.store();
        });
    }

    /** Reduces {@code sum(recvcounts)} items; rank r receives its {@code recvcounts[r]} of them. */
    public void Reduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                               Datatype datatype, Op op) throws MPIException {
        Communicator c = c("Reduce_scatter");
        checkCountsOnly(c, recvcounts, null, "Reduce_scatter");
        int[] counts = first(recvcounts, c.size());
        int total = 0;
        for (int n : counts) {
            total += n;
        }
        io.cohort.Op cop = cohortOp(op, datatype, total, "Reduce_scatter");
        checkBuffer(sendbuf, sendoffset, total, datatype, "Reduce_scatter send buffer");
        checkBuffer(recvbuf, recvoffset, counts[c.rank()], datatype, "Reduce_scatter receive buffer");
        int[] elements = new int[counts.length];
        for (int r = 0; r < elements.length; r++) {
            elements[r] = counts[r] * datatype.layout.size;
        }
        Object s = in(sendbuf, sendoffset, total, datatype);
        Operand r = out(recvbuf, recvoffset, counts[c.rank()], datatype);
        run("Reduce_scatter", () -> {
            c.reduceScatter(s, r.carrier, elements, cop);
            r.store();
        });
    }

    /** Inclusive prefix reduction: rank r receives the items of ranks 0 to r combined. */
    public void Scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                     Op op) throws MPIException {
        Communicator c = c("Scan");
        io.cohort.Op cop = cohortOp(op, datatype, count, "Scan");
        checkBuffer(sendbuf, sendoffset, count, datatype, "Scan send buffer");
        checkBuffer(recvbuf, recvoffset, count, datatype, "Scan receive buffer");
        Object s = in(sendbuf, sendoffset, count, datatype);
        Operand r = out(recvbuf, recvoffset, count, datatype);
        run("Scan", () -> {
            c.scan(s, r.carrier, cop);
            r.store();
        });
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

package mpi;

import io.cohort.Communicator;
import io.cohort.mpi.support.buffers.Blocks;
import io.cohort.mpi.support.buffers.Operand;
import mpi.Comm.Prepared;

import java.util.Arrays;

/**
 * {@link Comm}'s collectives other than the reductions, behind its public methods: barrier, bcast,
 * gather, scatter, allgather and alltoall, each blocking and nonblocking, with their v-forms and
 * in-place forms. Each checks its arguments, turns the buffers into what Cohort's collective takes
 * (the shared {@link Operand} and {@link Blocks}, through {@link Buffers}' rules) and runs it as a
 * {@link Prepared} call on the communicator's queue; a bcast of a buffer Cohort takes as it is goes
 * straight to Cohort.
 *
 * <p>Stateless: every method takes the communicator it serves; any thread.
 */
final class Collectives {
    private Collectives() {
    }

    static int[] uniform(int count, int n) {
        int[] c = new int[n];
        Arrays.fill(c, count);
        return c;
    }

    static int[] packed(int count, int n) {
        int[] d = new int[n];
        for (int r = 0; r < n; r++) {
            d[r] = r * count;
        }
        return d;
    }

    /** Counts with their displacements, as the v-collectives take them: both required, one per process. */
    static void checkCounts(Comm comm, Communicator c, int[] counts, int[] displs, String op) throws MPIException {
        if (displs == null) {
            throw comm.error(MPI.ERR_ARG, op + " needs one count and one displacement per process (" + c.size()
                    + "), not null displacements");
        }
        checkCountsOnly(comm, c, counts, displs, op);
    }

    /** Counts alone (reduceScatter), or with displacements when {@code displs} is not null. */
    static void checkCountsOnly(Comm comm, Communicator c, int[] counts, int[] displs, String op) throws MPIException {
        if (counts == null || counts.length != c.size() || displs != null && displs.length != c.size()) {
            throw comm.error(MPI.ERR_ARG, op + " needs one count" + (displs != null ? " and one displacement" : "")
                    + " per process (" + c.size() + ")");
        }
        for (int r = 0; r < counts.length; r++) {
            if (counts[r] < 0 || displs != null && displs[r] < 0) {
                throw comm.error(MPI.ERR_COUNT, op + ": the count or displacement of rank " + r + " is negative");
            }
        }
    }

    static void checkBlocks(Comm comm, Object buf, int[] counts, int[] displs, Datatype t,
            String what) throws MPIException {
        long span = 0;
        for (int r = 0; r < counts.length; r++) {
            span = Math.max(span, (long) displs[r] + counts[r]);
        }
        comm.checkBuffer(buf, (int) Math.min(Integer.MAX_VALUE, span), t, what);
    }

    /**
     * As {@link #checkBlocks}, for blocks received into: they may not overlap (the data would
     * depend on arrival order).
     */
    static void checkReceiveBlocks(Comm comm, Object buf, int[] counts, int[] displs, Datatype t,
            String what) throws MPIException {
        checkBlocks(comm, buf, counts, displs, t, what);
        String overlap = io.cohort.mpi.support.ReceiveBlocks.overlap(counts, displs);
        if (overlap != null) {
            throw comm.error(MPI.ERR_ARG, what + ": " + overlap);
        }
    }

    static void sameBase(Comm comm, Datatype a, Datatype b, String op) throws MPIException {
        if (a.baseType != b.baseType) {
            throw comm.error(MPI.ERR_TYPE, op + ": the send type " + a + " and the receive type " + b
                    + " have different base types; they must carry the same elements");
        }
    }

    static void barrier(Comm comm) throws MPIException {
        Communicator c = comm.cc();
        // Straight to Cohort, as bcast: nothing to prepare or store, and no Prepared made per call.
        comm.queue().drain();
        try {
            c.barrier();
        } catch (RuntimeException e) {
            throw comm.fail(e, "barrier");
        }
    }

    static Request iBarrier(Comm comm) throws MPIException {
        Communicator c = comm.cc();
        return comm.nonblocking("iBarrier", c::barrier, c::ibarrier);
    }

    static void bcast(Comm comm, Object buf, int count, Datatype type, int root) throws MPIException {
        Communicator c = comm.cc();
        comm.checkRoot(c, root, "bcast");
        comm.checkBuffer(buf, count, type, "bcast", "buffer");
        Object d = Buffers.direct(buf, count * type.size, type, true);
        if (d == null) {
            comm.blocking("bcast", packedBcast(c, buf, count, type, root));
            return;
        }
        // The buffer is the carrier (the common case): no prepared call to make, nothing to store.
        comm.queue().drain();
        try {
            c.bcast(root, d);
        } catch (RuntimeException e) {
            throw comm.fail(e, "bcast");
        }
    }

    static Request iBcast(Comm comm, Object buf, int count, Datatype type, int root) throws MPIException {
        Communicator c = comm.cc();
        Prepared p = prepareBcast(comm, c, buf, count, type, root);
        Object carrier = ((BcastPrepared) p).carrier;
        return comm.nonblocking("iBcast", p, () -> c.ibcast(root, carrier));
    }

    record BcastPrepared(Communicator c, int root, Object carrier, Operand out) implements Prepared {
        @Override
        public void run() {
            c.bcast(root, carrier);
        }

        @Override
        public void store() {
            if (out != null && c.rank() != root) {
                out.store();
            }
        }
    }

    static Prepared prepareBcast(Comm comm, Communicator c, Object buf, int count, Datatype type,
            int root) throws MPIException {
        comm.checkRoot(c, root, "bcast");
        comm.checkBuffer(buf, count, type, "bcast", "buffer");
        Object d = Buffers.direct(buf, count * type.size, type, true);
        return d != null ? new BcastPrepared(c, root, d, null) : packedBcast(c, buf, count, type, root);
    }

    /** A bcast through a packed carrier of {@code buf}'s items (loaded at the root), stored back into it after. */
    static Prepared packedBcast(Communicator c, Object buf, int count, Datatype type, int root) {
        Operand x = Operand.output(buf, 0, count, type.layout, type.baseType, true, c.rank() == root);
        return new BcastPrepared(c, root, x.carrier, x);
    }

    record GatherPrepared(Communicator c, int root, Object send, Blocks recv) implements Prepared {
        @Override
        public void run() {
            c.gatherv(root, send, recv == null ? null : recv.carrier, recv == null ? null : recv.counts,
                    recv == null ? null : recv.displs);
        }

        @Override
        public void store() {
            if (recv != null) {
                recv.store();
            }
        }
    }

    /**
     * Gathers: rank r's send items into the root's receive buffer at r x recvcount items (or at
     * {@code displs[r]} for gatherv). {@code sendbuf} null means in place (the root's own block is
     * already in its receive buffer, which the others' send from).
     */
    static Prepared prepareGather(Comm comm, Communicator c, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf,
                                   int[] recvcounts, int[] displs, Datatype recvtype, int root, boolean inPlace,
                                           String op)
            throws MPIException {
        comm.checkRoot(c, root, op);
        boolean atRoot = c.rank() == root;
        Blocks recv = null;
        Object send;
        if (atRoot) {
            checkCounts(comm, c, recvcounts, displs, op);
            checkReceiveBlocks(comm, recvbuf, recvcounts, displs, recvtype, op + " receive buffer");
            recv = Buffers.blocks(recvbuf, recvcounts, displs, recvtype, false);
            if (inPlace) {
                send = Buffers.input(recvbuf, displs[root], recvcounts[root], recvtype);
            } else {
                comm.checkBuffer(sendbuf, sendcount, sendtype, op, "send buffer");
                sameBase(comm, sendtype, recvtype, op);
                send = Buffers.input(sendbuf, 0, sendcount, sendtype);
            }
        } else {
            comm.checkBuffer(sendbuf, sendcount, sendtype, op, "send buffer");
            send = Buffers.input(sendbuf, 0, sendcount, sendtype);
        }
        return new GatherPrepared(c, root, send, recv);
    }

    static Prepared gatherPrepared(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount,
                                    Datatype recvtype, int root, String op) throws MPIException {
        Communicator c = comm.cc();
        boolean root0 = c.rank() == root;
        return prepareGather(comm, c, sendbuf, sendcount, sendtype, recvbuf, root0 ? uniform(recvcount,
                c.size()) : null,
                root0 ? packed(recvcount, c.size()) : null, recvtype, root, false, op);
    }

    static void gather(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                             Datatype recvtype, int root) throws MPIException {
        comm.blocking("gather", gatherPrepared(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                root, "gather"));
    }

    static void gather(Comm comm, Object buf, int count, Datatype type, int root) throws MPIException {
        comm.blocking("gather", gatherInPlace(comm, buf, count, type, root));
    }

    static Prepared gatherInPlace(Comm comm, Object buf, int count, Datatype type, int root) throws MPIException {
        Communicator c = comm.cc();
        if (c.rank() == root) {
            return prepareGather(comm, c, null, 0, type, buf, uniform(count, c.size()), packed(count, c.size()),
                    type, root,
                    true, "gather");
        }
        return prepareGather(comm, c, buf, count, type, null, null, null, type, root, false, "gather");
    }

    static Request iGather(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                 Datatype recvtype, int root) throws MPIException {
        return comm.nonblocking("iGather", gatherPrepared(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, root,
                "iGather"), null);
    }

    static Request iGather(Comm comm, Object buf, int count, Datatype type, int root) throws MPIException {
        return comm.nonblocking("iGather", gatherInPlace(comm, buf, count, type, root), null);
    }

    static void gatherv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                              int[] displs, Datatype recvtype, int root) throws MPIException {
        Communicator c = comm.cc();
        comm.blocking("gatherv", prepareGather(comm, c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs,
                recvtype, root,
                false, "gatherv"));
    }

    static void gatherv(Comm comm, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        Communicator c = comm.cc();
        comm.blocking("gatherv", prepareGather(comm, c, null, 0, recvtype, recvbuf, recvcount, displs, recvtype,
                root, true,
                "gatherv"));
    }

    static void gatherv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        Communicator c = comm.cc();
        comm.blocking("gatherv", prepareGather(comm, c, sendbuf, sendcount, sendtype, null, null, null, sendtype,
                root, false,
                "gatherv"));
    }

    static Request iGatherv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int[] recvcount,
                                  int[] displs, Datatype recvtype, int root) throws MPIException {
        Communicator c = comm.cc();
        return comm.nonblocking("iGatherv", prepareGather(comm, c, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                displs,
                recvtype, root, false, "iGatherv"), null);
    }

    static Request iGatherv(Comm comm, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        Communicator c = comm.cc();
        return comm.nonblocking("iGatherv", prepareGather(comm, c, null, 0, recvtype, recvbuf, recvcount, displs,
                recvtype, root,
                true, "iGatherv"), null);
    }

    static Request iGatherv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        Communicator c = comm.cc();
        return comm.nonblocking("iGatherv", prepareGather(comm, c, sendbuf, sendcount, sendtype, null, null, null,
                sendtype, root,
                false, "iGatherv"), null);
    }

    record ScatterPrepared(Communicator c, int root, Blocks send, Operand recv, int[] elementCounts)
            implements Prepared {
        @Override
        public void run() {
            c.scatterv(root, send == null ? null : send.carrier, elementCounts, send == null ? null : send.displs,
                    recv.carrier);
        }

        @Override
        public void store() {
            recv.store();
        }
    }

    /**
     * Scatters: the root's block r (r x sendcount items, or {@code displs[r]} for scatterv) into
     * rank r's receive buffer. In place, the root keeps its block where it is.
     */
    static Prepared prepareScatter(Comm comm, Communicator c, Object sendbuf, int[] sendcounts, int[] displs,
            Datatype sendtype,
                                    Object recvbuf, int recvcount, Datatype recvtype, int root, boolean inPlace,
                                    String op) throws MPIException {
        comm.checkRoot(c, root, op);
        Blocks send = null;
        Operand recv;
        int[] elementCounts;
        if (c.rank() == root) {
            checkCounts(comm, c, sendcounts, displs, op);
            checkBlocks(comm, sendbuf, sendcounts, displs, sendtype, op + " send buffer");
            send = Buffers.blocks(sendbuf, sendcounts, displs, sendtype, true);
            elementCounts = send.counts;
            if (inPlace) {
                // The root's own block stays where it is: Cohort copies it into a scratch carrier.
                recv = Operand.scratch(sendtype.baseType, sendcounts[root] * sendtype.size);
            } else {
                comm.checkBuffer(recvbuf, recvcount, recvtype, op, "receive buffer");
                sameBase(comm, sendtype, recvtype, op);
                recv = Buffers.output(recvbuf, recvcount, recvtype, false);
            }
        } else {
            comm.checkBuffer(recvbuf, recvcount, recvtype, op, "receive buffer");
            recv = Buffers.output(recvbuf, recvcount, recvtype, false);
            elementCounts = new int[c.size()];
            elementCounts[c.rank()] = recvcount * recvtype.size;
        }
        return new ScatterPrepared(c, root, send, recv, elementCounts);
    }

    static Prepared scatterPrepared(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount,
                                     Datatype recvtype, int root, boolean inPlace, String op) throws MPIException {
        Communicator c = comm.cc();
        return prepareScatter(comm, c, sendbuf, uniform(sendcount, c.size()), packed(sendcount, c.size()), sendtype,
                recvbuf,
                recvcount, recvtype, root, inPlace, op);
    }

    static void scatter(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                              Datatype recvtype, int root) throws MPIException {
        comm.blocking("scatter", scatterPrepared(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                root, false,
                "scatter"));
    }

    static void scatter(Comm comm, Object buf, int count, Datatype type, int root) throws MPIException {
        comm.blocking("scatter", scatterPrepared(comm, buf, count, type, buf, count, type, root, true, "scatter"));
    }

    static Request iScatter(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                  Datatype recvtype, int root) throws MPIException {
        return comm.nonblocking("iScatter", scatterPrepared(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, root,
                false, "iScatter"), null);
    }

    static Request iScatter(Comm comm, Object buf, int count, Datatype type, int root) throws MPIException {
        return comm.nonblocking("iScatter", scatterPrepared(comm, buf, count, type, buf, count, type, root, true,
                "iScatter"),
                null);
    }

    static void scatterv(Comm comm, Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                               int recvcount, Datatype recvtype, int root) throws MPIException {
        comm.blocking("scatterv", prepareScatter(comm, comm.cc(), sendbuf, sendcount, displs, sendtype, recvbuf,
                recvcount, recvtype,
                root, false, "scatterv"));
    }

    static void scatterv(Comm comm, Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        comm.blocking("scatterv", prepareScatter(comm, comm.cc(), sendbuf, sendcount, displs, sendtype, null, 0,
                sendtype, root, true,
                "scatterv"));
    }

    static void scatterv(Comm comm, Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        comm.blocking("scatterv", prepareScatter(comm, comm.cc(), null, null, null, recvtype, recvbuf, recvcount,
                recvtype, root, false,
                "scatterv"));
    }

    static Request iScatterv(Comm comm, Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
            Object recvbuf,
                                   int recvcount, Datatype recvtype, int root) throws MPIException {
        return comm.nonblocking("iScatterv", prepareScatter(comm, comm.cc(), sendbuf, sendcount, displs, sendtype,
                recvbuf, recvcount,
                recvtype, root, false, "iScatterv"), null);
    }

    static Request iScatterv(Comm comm, Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        return comm.nonblocking("iScatterv", prepareScatter(comm, comm.cc(), sendbuf, sendcount, displs, sendtype,
                null, 0, sendtype,
                root, true, "iScatterv"), null);
    }

    static Request iScatterv(Comm comm, Object recvbuf, int recvcount, Datatype recvtype,
            int root) throws MPIException {
        return comm.nonblocking("iScatterv", prepareScatter(comm, comm.cc(), null, null, null, recvtype, recvbuf,
                recvcount, recvtype,
                root, false, "iScatterv"), null);
    }

    record AllgatherPrepared(Communicator c, Object send, Blocks recv) implements Prepared {
        @Override
        public void run() {
            c.allgatherv(send, recv.carrier, recv.counts, recv.displs);
        }

        @Override
        public void store() {
            recv.store();
        }
    }

    static Prepared prepareAllgather(Comm comm, Communicator c, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf,
                                      int[] recvcounts, int[] displs, Datatype recvtype, boolean inPlace, String op)
            throws MPIException {
        checkCounts(comm, c, recvcounts, displs, op);
        checkReceiveBlocks(comm, recvbuf, recvcounts, displs, recvtype, op + " receive buffer");
        Object send;
        if (inPlace) {
            send = Buffers.input(recvbuf, displs[c.rank()], recvcounts[c.rank()], recvtype);
        } else {
            comm.checkBuffer(sendbuf, sendcount, sendtype, op, "send buffer");
            sameBase(comm, sendtype, recvtype, op);
            send = Buffers.input(sendbuf, 0, sendcount, sendtype);
        }
        return new AllgatherPrepared(c, send, Buffers.blocks(recvbuf, recvcounts, displs, recvtype, false));
    }

    static void allGather(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                Datatype recvtype) throws MPIException {
        Communicator c = comm.cc();
        comm.blocking("allGather", prepareAllgather(comm, c, sendbuf, sendcount, sendtype, recvbuf,
                uniform(recvcount, c.size()),
                packed(recvcount, c.size()), recvtype, false, "allGather"));
    }

    static void allGather(Comm comm, Object buf, int count, Datatype type) throws MPIException {
        Communicator c = comm.cc();
        comm.blocking("allGather", prepareAllgather(comm, c, null, 0, type, buf, uniform(count, c.size()),
                packed(count, c.size()),
                type, true, "allGather"));
    }

    static Request iAllGather(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount,
                                    Datatype recvtype) throws MPIException {
        Communicator c = comm.cc();
        return comm.nonblocking("iAllGather", prepareAllgather(comm, c, sendbuf, sendcount, sendtype, recvbuf,
                uniform(recvcount, c.size()), packed(recvcount, c.size()), recvtype, false, "iAllGather"), null);
    }

    static Request iAllGather(Comm comm, Object buf, int count, Datatype type) throws MPIException {
        Communicator c = comm.cc();
        return comm.nonblocking("iAllGather", prepareAllgather(comm, c, null, 0, type, buf, uniform(count, c.size()),
                packed(count, c.size()), type, true, "iAllGather"), null);
    }

    static void allGatherv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                 int[] displs, Datatype recvtype) throws MPIException {
        comm.blocking("allGatherv", prepareAllgather(comm, comm.cc(), sendbuf, sendcount, sendtype, recvbuf,
                recvcount, displs,
                recvtype, false, "allGatherv"));
    }

    static void allGatherv(Comm comm, Object recvbuf, int[] recvcount, int[] displs,
            Datatype recvtype) throws MPIException {
        comm.blocking("allGatherv", prepareAllgather(comm, comm.cc(), null, 0, recvtype, recvbuf, recvcount, displs,
                recvtype, true,
                "allGatherv"));
    }

    static Request iAllGatherv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int[] recvcount,
                                     int[] displs, Datatype recvtype) throws MPIException {
        return comm.nonblocking("iAllGatherv", prepareAllgather(comm, comm.cc(), sendbuf, sendcount, sendtype,
                recvbuf, recvcount,
                displs, recvtype, false, "iAllGatherv"), null);
    }

    static Request iAllGatherv(Comm comm, Object buf, int[] count, int[] displs, Datatype type) throws MPIException {
        return comm.nonblocking("iAllGatherv", prepareAllgather(comm, comm.cc(), null, 0, type, buf, count, displs,
                type, true,
                "iAllGatherv"), null);
    }

    record AlltoallPrepared(Communicator c, Blocks send, Blocks recv) implements Prepared {
        @Override
        public void run() {
            c.alltoallv(send.carrier, send.counts, send.displs, recv.carrier, recv.counts, recv.displs);
        }

        @Override
        public void store() {
            recv.store();
        }
    }

    static Prepared prepareAlltoall(Comm comm, Communicator c, Object sendbuf, int[] sendcounts, int[] sdispls,
            Datatype sendtype,
                                     Object recvbuf, int[] recvcounts, int[] rdispls, Datatype recvtype, String op)
            throws MPIException {
        checkCounts(comm, c, sendcounts, sdispls, op);
        checkCounts(comm, c, recvcounts, rdispls, op);
        checkBlocks(comm, sendbuf, sendcounts, sdispls, sendtype, op + " send buffer");
        checkReceiveBlocks(comm, recvbuf, recvcounts, rdispls, recvtype, op + " receive buffer");
        sameBase(comm, sendtype, recvtype, op);
        return new AlltoallPrepared(c, Buffers.blocks(sendbuf, sendcounts, sdispls, sendtype, true),
                Buffers.blocks(recvbuf, recvcounts, rdispls, recvtype, false));
    }

    static void allToAll(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                               Datatype recvtype) throws MPIException {
        Communicator c = comm.cc();
        int n = c.size();
        comm.blocking("allToAll", prepareAlltoall(comm, c, sendbuf, uniform(sendcount, n), packed(sendcount, n),
                sendtype, recvbuf,
                uniform(recvcount, n), packed(recvcount, n), recvtype, "allToAll"));
    }

    static Request iAllToAll(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                   Datatype recvtype) throws MPIException {
        Communicator c = comm.cc();
        int n = c.size();
        return comm.nonblocking("iAllToAll", prepareAlltoall(comm, c, sendbuf, uniform(sendcount, n),
                packed(sendcount, n),
                sendtype, recvbuf, uniform(recvcount, n), packed(recvcount, n), recvtype, "iAllToAll"), null);
    }

    static void allToAllv(Comm comm, Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                                int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        comm.blocking("allToAllv", prepareAlltoall(comm, comm.cc(), sendbuf, sendcount, sdispls, sendtype, recvbuf,
                recvcount, rdispls,
                recvtype, "allToAllv"));
    }

    static Request iAllToAllv(Comm comm, Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
            Object recvbuf,
                                    int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        return comm.nonblocking("iAllToAllv", prepareAlltoall(comm, comm.cc(), sendbuf, sendcount, sdispls, sendtype,
                recvbuf,
                recvcount, rdispls, recvtype, "iAllToAllv"), null);
    }
}

package mpi;

import io.cohort.Communicator;
import io.cohort.mpi.support.buffers.Operand;
import mpi.Comm.Prepared;

import java.nio.ByteBuffer;

/**
 * {@link Comm}'s reductions behind its public methods: reduce, allReduce, reduceScatter (and its
 * block form) blocking and nonblocking, in place or not, and reduceLocal; the scans of
 * {@link Intracomm} share their {@link Operands} and {@link #cohortOp}. An op is checked against the
 * datatype before anything is sent; buffers that already are Cohort's carriers go straight to
 * Cohort, others through the shared {@link Operand}; MINLOC and MAXLOC's pair types through
 * {@link Pairs}.
 *
 * <p>Stateless: every method takes the communicator it serves; any thread.
 */
final class Reductions {
    private Reductions() {
    }

    /** The Cohort op for {@code type}, checked against its elements before anything is sent. */
    static io.cohort.Op cohortOp(Comm comm, Op op, Datatype type, int count, String what) throws MPIException {
        if (op != null && op.predefined != null && !op.isNull() && type != null && type.baseType != Datatype.NULL
                && type.pair == Datatype.NULL && op.knownToApply(type.baseType) && !op.isMinMaxLoc()) {
            // The common case, small enough for the JIT to inline into every reduction.
            return op.predefined;
        }
        return checkedOp(comm, op, type, count, what);
    }

    /** {@link #cohortOp} past its common case: user ops, pair types, first uses, and every refusal. */
    static io.cohort.Op checkedOp(Comm comm, Op op, Datatype type, int count, String what) throws MPIException {
        if (op == null || op.isNull()) {
            throw comm.error(MPI.ERR_OP, what + " needs an op, not " + (op == null ? "null" : "a freed one"));
        }
        if (op.predefined == null && !op.hasFunction()) {
            throw comm.error(MPI.ERR_OP, what + ": the user op has no function (it was made with null)");
        }
        if (type == null || type.baseType == Datatype.NULL) {
            throw comm.error(MPI.ERR_TYPE, what + ": the datatype is " + (type == null ? "null" : "MPI.DATATYPE_NULL"));
        }
        if (op.isMinMaxLoc() && type.pair == Datatype.NULL) {
            throw comm.error(MPI.ERR_OP, what + ": " + op + " takes a pair type (MPI.INT2, MPI.SHORT_INT, MPI.LONG_INT,"
                    + " MPI.FLOAT_INT or MPI.DOUBLE_INT), not " + type);
        }
        if (op.predefined != null && !op.isMinMaxLoc() && type.pair != Datatype.NULL) {
            throw comm.error(MPI.ERR_OP, what + ": " + op + " does not apply to the pair type " + type
                    + "; pair types are for MPI.MINLOC and MPI.MAXLOC");
        }
        io.cohort.Op c = op.toCohort(type);
        if (op.predefined != null) {
            boolean pairs = op.isMinMaxLoc();
            if (pairs || !op.knownToApply(type.baseType)) {
                Object probe = pairs ? Pairs.newArray(type.pair,
                        0) : io.cohort.mpi.support.BaseType.empty(type.baseType);
                try {
                    c.check(probe, pairs ? Pairs.elements(type, count) : count * type.size);
                } catch (IllegalArgumentException e) {
                    throw comm.error(MPI.ERR_OP, what + ": " + op + " does not apply to " + type);
                }
                if (!pairs) {
                    op.appliesTo(type.baseType); // whether a plain op applies depends on the base type alone
                }
            }
        }
        return c;
    }

    /**
     * The operands of a reduction: a carrier of the send items and one for the result, as the
     * Cohort op wants them (for MINLOC and MAXLOC, the pair types as interleaved value and index
     * arrays). In place, send and result are one carrier.
     */
    static final class Operands {
        final Object send;
        final Object recv;
        private final Operand out;
        private final Datatype type;
        private final int count;
        private final boolean pairs;

        /** {@code recvbuf} null: no result at this process. */
        Operands(Object sendbuf, Object recvbuf, int count, int resultCount, Datatype type, Op op, boolean inPlace) {
            this.type = type;
            this.count = resultCount;
            this.pairs = op.isMinMaxLoc();
            if (inPlace && recvbuf != null && !pairs) {
                // One carrier, loaded from the buffer and stored back into it (sendbuf is recvbuf).
                this.out = Operand.inPlace(recvbuf, 0, count, resultCount, type.layout, type.baseType);
                this.send = out.carrier;
                this.recv = out.carrier;
                return;
            }
            Object s = Buffers.input(sendbuf, 0, count, type);
            if (recvbuf == null) {
                this.out = null;
                this.recv = null;
                this.send = pairs ? Pairs.toPairs(s, type, count) : s;
            } else if (pairs) {
                this.send = Pairs.toPairs(s, type, count);
                this.out = Buffers.output(recvbuf, resultCount, type, false);
                this.recv = Pairs.newArray(type.pair, Pairs.elements(type, resultCount));
            } else {
                this.send = s;
                this.out = Buffers.output(recvbuf, resultCount, type, false);
                this.recv = out.carrier;
            }
        }

        void store() {
            if (out == null) {
                return;
            }
            if (pairs) {
                Pairs.fromPairs(recv, out.carrier, type, count);
            }
            out.store();
        }
    }

    record ReducePrepared(Communicator c, int root, Operands x, io.cohort.Op op) implements Prepared {
        @Override
        public void run() {
            c.reduce(root, x.send, c.rank() == root ? x.recv : null, op);
        }

        @Override
        public void store() {
            if (c.rank() == root) {
                x.store();
            }
        }
    }

    static Prepared prepareReduce(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root,
                                   boolean inPlace, String name) throws MPIException {
        Communicator c = comm.cc();
        comm.checkRoot(c, root, name);
        io.cohort.Op cop = cohortOp(comm, op, type, count, name);
        boolean atRoot = c.rank() == root;
        comm.checkBuffer(sendbuf, count, type, name, "send buffer");
        if (atRoot) {
            comm.checkBuffer(recvbuf, count, type, name, "receive buffer");
        }
        return new ReducePrepared(c, root, new Operands(sendbuf, atRoot ? recvbuf : null, count, count, type, op,
                inPlace), cop);
    }

    static void reduce(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        reduce(comm, sendbuf, recvbuf, count, type, op, root, false);
    }

    static void reduce(Comm comm, Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        reduce(comm, buf, buf, count, type, op, root, true);
    }

    static void reduce(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root,
            boolean inPlace)
            throws MPIException {
        Communicator c = comm.cc();
        comm.checkRoot(c, root, "reduce");
        io.cohort.Op cop = cohortOp(comm, op, type, count, "reduce");
        boolean atRoot = c.rank() == root;
        comm.checkBuffer(sendbuf, count, type, "reduce", "send buffer");
        if (atRoot) {
            comm.checkBuffer(recvbuf, count, type, "reduce", "receive buffer");
        }
        if (!op.isMinMaxLoc()) {
            // As allReduce: buffers that are Cohort's carriers go straight to Cohort. Only the root
            // has a receive buffer; the others pass none.
            int elements = count * type.size;
            Object send = Buffers.direct(sendbuf, elements, type, true);
            Object recv = send == null || !atRoot ? null
                    : inPlace ? send : Buffers.direct(recvbuf, elements, type, false);
            if (send != null && (recv != null || !atRoot)) {
                comm.queue().drain();
                try {
                    c.reduce(root, send, recv, cop);
                } catch (RuntimeException e) {
                    throw comm.fail(e, "reduce");
                }
                return;
            }
        }
        comm.blocking("reduce", new ReducePrepared(c, root, new Operands(sendbuf, atRoot ? recvbuf : null, count, count,
                type, op, inPlace), cop));
    }

    static Request iReduce(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return comm.nonblocking("iReduce", prepareReduce(comm, sendbuf, recvbuf, count, type, op, root, false,
                "iReduce"), null);
    }

    static Request iReduce(Comm comm, Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        return comm.nonblocking("iReduce", prepareReduce(comm, buf, buf, count, type, op, root, true, "iReduce"), null);
    }

    record AllreducePrepared(Communicator c, Operands x, io.cohort.Op op) implements Prepared {
        @Override
        public void run() {
            c.allreduce(x.send, x.recv, op);
        }

        @Override
        public void store() {
            x.store();
        }
    }

    static Prepared prepareAllreduce(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
            boolean inPlace,
                                      String name) throws MPIException {
        Communicator c = comm.cc();
        io.cohort.Op cop = cohortOp(comm, op, type, count, name);
        comm.checkBuffer(sendbuf, count, type, name, "send buffer");
        comm.checkBuffer(recvbuf, count, type, name, "receive buffer");
        return new AllreducePrepared(c, new Operands(sendbuf, recvbuf, count, count, type, op, inPlace), cop);
    }

    static void allReduce(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type,
            Op op) throws MPIException {
        allReduce(comm, sendbuf, recvbuf, count, type, op, false);
    }

    static void allReduce(Comm comm, Object buf, int count, Datatype type, Op op) throws MPIException {
        allReduce(comm, buf, buf, count, type, op, true);
    }

    static void allReduce(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, boolean inPlace)
            throws MPIException {
        Communicator c = comm.cc();
        io.cohort.Op cop = cohortOp(comm, op, type, count, "allReduce");
        comm.checkBuffer(sendbuf, count, type, "allReduce", "send buffer");
        comm.checkBuffer(recvbuf, count, type, "allReduce", "receive buffer");
        if (!op.isMinMaxLoc()) {
            // Both buffers Cohort's carriers (the common case): nothing to pack, prepare or store,
            // as Operands would find; saves its three objects a call.
            int elements = count * type.size;
            Object send = Buffers.direct(sendbuf, elements, type, true);
            Object recv = send == null ? null : inPlace ? send : Buffers.direct(recvbuf, elements, type, false);
            if (recv != null) {
                comm.queue().drain();
                try {
                    c.allreduce(send, recv, cop);
                } catch (RuntimeException e) {
                    throw comm.fail(e, "allReduce");
                }
                return;
            }
        }
        comm.blocking("allReduce", new AllreducePrepared(c, new Operands(sendbuf, recvbuf, count, count, type, op,
                inPlace),
                cop));
    }

    static Request iAllReduce(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        Communicator c = comm.cc();
        AllreducePrepared p = (AllreducePrepared) prepareAllreduce(comm, sendbuf, recvbuf, count, type, op, false,
                "iAllReduce");
        return comm.nonblocking("iAllReduce", p, () -> c.iallreduce(p.x.send, p.x.recv, p.op));
    }

    static Request iAllReduce(Comm comm, Object buf, int count, Datatype type, Op op) throws MPIException {
        Communicator c = comm.cc();
        AllreducePrepared p = (AllreducePrepared) prepareAllreduce(comm, buf, buf, count, type, op, true, "iAllReduce");
        return comm.nonblocking("iAllReduce", p, () -> c.iallreduce(p.x.send, p.x.recv, p.op));
    }

    record ReduceScatterPrepared(Communicator c, Operands x, int[] counts, io.cohort.Op op)
            implements Prepared {
        @Override
        public void run() {
            c.reduceScatter(x.send, x.recv, counts, op);
        }

        @Override
        public void store() {
            x.store();
        }
    }

    static Prepared prepareReduceScatter(Comm comm, Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type,
            Op op,
                                          boolean inPlace, String name) throws MPIException {
        Communicator c = comm.cc();
        Collectives.checkCountsOnly(comm, c, recvcounts, null, name);
        int total = 0;
        for (int n : recvcounts) {
            total += n;
        }
        io.cohort.Op cop = cohortOp(comm, op, type, total, name);
        comm.checkBuffer(sendbuf, total, type, name, "send buffer");
        comm.checkBuffer(recvbuf, recvcounts[c.rank()], type, name, "receive buffer");
        int[] elements = new int[recvcounts.length];
        for (int r = 0; r < elements.length; r++) {
            elements[r] = op.isMinMaxLoc() ? Pairs.elements(type, recvcounts[r]) : recvcounts[r] * type.size;
        }
        Operands x = new Operands(sendbuf, recvbuf, total, recvcounts[c.rank()], type, op, inPlace);
        return new ReduceScatterPrepared(c, x, elements, cop);
    }

    static void reduceScatter(Comm comm, Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        comm.blocking("reduceScatter", prepareReduceScatter(comm, sendbuf, recvbuf, recvcounts, type, op, false,
                "reduceScatter"));
    }

    static void reduceScatter(Comm comm, Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        comm.blocking("reduceScatter", prepareReduceScatter(comm, buf, buf, counts, type, op, true, "reduceScatter"));
    }

    static Request iReduceScatter(Comm comm, Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        return comm.nonblocking("iReduceScatter", prepareReduceScatter(comm, sendbuf, recvbuf, recvcounts, type, op,
                false,
                "iReduceScatter"), null);
    }

    static Request iReduceScatter(Comm comm, Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        return comm.nonblocking("iReduceScatter", prepareReduceScatter(comm, buf, buf, counts, type, op, true,
                "iReduceScatter"),
                null);
    }

    static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        MPI.check();
        Comm world = MPI.COMM_WORLD;
        io.cohort.Op cop = cohortOp(world, op, type, count, "reduceLocal");
        world.checkBuffer(inBuf, count, type, "reduceLocal", "input buffer");
        world.checkBuffer(inOutBuf, count, type, "reduceLocal", "in-out buffer");
        boolean pairs = op.isMinMaxLoc();
        Object in = array(Buffers.input(inBuf, 0, count, type));
        Operand out = Operand.output(inOutBuf, 0, count, type.layout, type.baseType, false, true);
        Object io = array(out.carrier);
        try {
            if (pairs) {
                Object a = Pairs.toPairs(in, type, count);
                Object b = Pairs.toPairs(io, type, count);
                cop.apply(a, b, Pairs.elements(type, count));
                Pairs.fromPairs(b, io, type, count);
            } else {
                cop.apply(in, io, count * type.size);
            }
        } catch (RuntimeException e) {
            throw world.fail(e, "reduceLocal");
        }
        if (io != out.carrier) {
            ((ByteBuffer) out.carrier).duplicate().put((byte[]) io);
        }
        out.store();
    }

    /** A carrier as an array: a ByteBuffer window copied into a byte[]. */
    static Object array(Object carrier) {
        if (carrier instanceof ByteBuffer b) {
            byte[] a = new byte[b.remaining()];
            b.duplicate().get(a);
            return a;
        }
        return carrier;
    }
}

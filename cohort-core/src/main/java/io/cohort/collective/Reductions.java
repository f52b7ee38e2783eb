package io.cohort.collective;

import io.cohort.Op;
import io.cohort.Request;

/**
 * Reduce, allreduce, reduce-scatter, scan and exscan for one {@link Collectives} instance. Each
 * works on a private copy of the send buffer (so send and recv may be one array, and a
 * {@link java.nio.ByteBuffer} is combined as a byte[]), checks the op against the element type
 * before any message is sent, and writes recv only at the end.
 *
 * <p>Threads: as {@link Collectives}.
 */
final class Reductions {
    private final Collectives owner;

    Reductions(Collectives owner) {
        this.owner = owner;
    }

    /** Checks buffers and op; returns the element count. */
    private int check(String operation, Object send, Object recv, boolean needRecv, Op op) {
        if (op == null) {
            throw new IllegalArgumentException(operation + " needs an op, not null");
        }
        Buffers.check(send, operation + " send buffer");
        int n = Buffers.count(send);
        op.check(Buffers.newArrayLike(send, 0), n);
        if (needRecv) {
            Args.holds(recv, operation + " recv buffer", n);
            Args.sameType(send, recv, operation);
        }
        return n;
    }

    void reduce(int root, Object send, Object recv, Op op) {
        Args.root(root, owner.size());
        int n = check("reduce", send, recv, owner.rank() == root, op);
        owner.runBlocking("reduce", root, (long) n * Buffers.nominalBytes(send), send, n, op, x -> {
            Algorithm a = owner.choose(x, Algorithm.Operation.REDUCE, (long) n * Buffers.nominalBytes(send), op, send);
            if (a == Algorithm.REDUCE_SHARED_MEMORY) {
                owner.sharedMemory().reduce(root, send, recv, n, op, x.scratch);
                return;
            }
            Object work = workingCopy(x, send, n);
            BinomialReduce.run(x, root, work, n, op);
            if (x.rank == root) {
                Buffers.copy(work, 0, recv, 0, n);
            }
        });
    }

    void allreduce(Object send, Object recv, Op op) {
        int n = check("allreduce", send, recv, true, op);
        owner.runBlocking("allreduce", -1, (long) n * Buffers.nominalBytes(send), send, n, op,
                x -> runAllreduce(x, send, recv, n, op));
    }

    Request iallreduce(Object send, Object recv, Op op) {
        int n = check("allreduce", send, recv, true, op);
        return owner.runNonblocking("iallreduce", -1, (long) n * Buffers.nominalBytes(send), send, n, op,
                x -> runAllreduce(x, send, recv, n, op));
    }

    private void runAllreduce(Exchange x, Object send, Object recv, int n, Op op) {
        Algorithm a = owner.choose(x, Algorithm.Operation.ALLREDUCE, (long) n * Buffers.nominalBytes(send), op, send);
        if (a == Algorithm.ALLREDUCE_SHARED_MEMORY) {
            owner.sharedMemory().reduce(-1, send, recv, n, op, x.scratch); // no working copy: send is read once
            return;
        }
        Object work = workingCopy(x, send, n);
        switch (a) {
            case ALLREDUCE_DOMAIN -> DomainCollectives.allreduce(owner.channel(), work, n, op);
            case ALLREDUCE_RABENSEIFNER -> RabenseifnerAllreduce.run(x, work, n, op);
            case ALLREDUCE_REDUCE_BCAST -> ReduceBcastAllreduce.run(x, owner.channel(), work, n, op, false);
            case ALLREDUCE_LINEAR -> LinearAllreduce.run(x, work, n, op);
            case ALLREDUCE_REDUCE_MULTICAST -> ReduceBcastAllreduce.run(x, owner.channel(), work, n, op, true);
            default -> RecursiveDoublingAllreduce.run(x, work, n, op);
        }
        Buffers.copy(work, 0, recv, 0, n);
    }

    /** Reduces sum(counts) elements of send; rank r gets elements [counts[0] + ... + counts[r-1], + counts[r]). */
    void reduceScatter(Object send, Object recv, int[] counts, Op op) {
        if (op == null) {
            throw new IllegalArgumentException("reduce-scatter needs an op, not null");
        }
        long total = Args.counts("reduce-scatter", counts, owner.size());
        Buffers.check(send, "reduce-scatter send buffer");
        Args.holds(send, "reduce-scatter send buffer", total);
        Args.holds(recv, "reduce-scatter recv buffer", counts[owner.rank()]);
        Args.sameType(send, recv, "reduce-scatter");
        op.check(Buffers.newArrayLike(send, 0), (int) total);
        int n = (int) total;
        int[] displs = Args.packed(counts);
        owner.runBlocking("reduceScatter", -1, total * Buffers.nominalBytes(send), send, total, op, x -> {
            owner.choose(x, Algorithm.Operation.REDUCE_SCATTER, total * Buffers.nominalBytes(send), op, send);
            Object work = Buffers.workingCopy(send, n);
            BinomialReduce.run(x, 0, work, n, op);
            LinearRooted.scatter(x.from(8), 0, work, counts, displs, recv, counts[x.rank]);
        });
    }

    void scan(Object send, Object recv, Op op, boolean inclusive) {
        String name = inclusive ? "scan" : "exscan";
        int n = check(name, send, recv, true, op);
        owner.runBlocking(name, -1, (long) n * Buffers.nominalBytes(send), send, n, op, x -> {
            owner.choose(x, Algorithm.Operation.SCAN, (long) n * Buffers.nominalBytes(send), op, send);
            Object partial = Buffers.workingCopy(send, n);
            Object result = inclusive ? Buffers.workingCopy(send, n) : Buffers.newArrayLike(send, n);
            RecursiveDoublingScan.run(x, partial, result, n, op, inclusive);
            if (inclusive || x.rank > 0) {
                Buffers.copy(result, 0, recv, 0, n);
            }
        });
    }

    /** A copy of {@code n} elements of {@code send} to reduce in place: the scratch's for primitives, kept between calls. */
    private static Object workingCopy(Exchange x, Object send, int n) {
        if (Buffers.elementBytes(send) == 0) {
            return Buffers.workingCopy(send, n);
        }
        Object work = x.scratch.array(0, send, n);
        Buffers.copy(send, 0, work, 0, n);
        return work;
    }
}

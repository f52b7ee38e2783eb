package io.cohort.collective;

import io.cohort.Op;

import java.nio.ByteBuffer;

/**
 * Allreduce as a binomial reduce to rank 0 followed by a bcast of the result from rank 0, either
 * by the binomial tree or by one multicast on the broadcast domain: 2 (N - 1) messages over the
 * tree, or N - 1 and one multicast, where recursive doubling sends N log2 N. It takes twice the
 * rounds of recursive doubling, so it pays where messages, not rounds, are what costs: peers that
 * share cores, and a network with a broadcast that replaces N - 1 sends by one. Any op works,
 * non-commutative ones too ({@link BinomialReduce} keeps rank order), and every peer ends with the
 * bits rank 0 computed.
 *
 * <p>Threads: the thread running the collective.
 */
final class ReduceBcastAllreduce {
    private ReduceBcastAllreduce() {
    }

    /** Reduces {@code work} (n elements from 0) across the peers, in place at every peer. */
    static void run(Exchange x, CollectiveChannel channel, Object work, int n, Op op, boolean multicast) {
        BinomialReduce.run(x, 0, work, n, op);
        Exchange down = x.from(2); // the reduce uses phases 0 and 1
        int w = Buffers.elementBytes(work);
        long bytes = (long) n * w;
        if (multicast || w == 0 || bytes > Integer.MAX_VALUE) {
            byte[] mine = x.rank == 0 ? Buffers.encode(work, 0, n) : null;
            byte[] got = multicast ? DomainCollectives.bcast(channel, 0, mine) : BinomialBcast.run(down, 0, mine);
            if (x.rank != 0) {
                Buffers.decode(got, work, 0, n, "allreduce result from rank 0");
            }
            return;
        }
        ByteBuffer s = x.scratch.send((int) bytes);
        if (x.rank == 0) {
            Buffers.encodeInto(work, 0, n, s, 0);
        }
        int got = BinomialBcast.runInPlace(down, 0, s, (int) bytes, (byte) 0);
        if (x.rank != 0) {
            if (got != bytes) {
                throw Buffers.wrongLength("allreduce result from its parent in the tree", got, work, n);
            }
            Buffers.decodeFrom(s, 0, work, 0, n);
        }
    }
}

package io.cohort.collective;

import io.cohort.Op;

import java.nio.ByteBuffer;

/**
 * Allreduce through rank 0 in two rounds: every other peer sends its vector to rank 0, which
 * combines them in rank order ({@code x0 op x1 op ...}, so non-commutative ops are correct) and
 * sends the result to each peer itself. 2 (N - 1) messages, as {@link ReduceBcastAllreduce} sends,
 * but no peer waits for another to be scheduled and forward: the shape of the linear barrier
 * ({@link FanInBarrier#linear}), for peers that outnumber their cores. Rank 0 receives and sends
 * N - 1 whole vectors, so it suits short ones only.
 *
 * <p>Threads: the thread running the collective.
 */
final class LinearAllreduce {
    private LinearAllreduce() {
    }

    /** Reduces {@code work} (n elements from 0) across the peers, in place at every peer. */
    static void run(Exchange x, Object work, int n, Op op) {
        if (x.rank != 0) {
            x.sendRange(0, work, 0, n, 0);
            x.recvRange(0, work, 0, n, 1, "allreduce result");
            return;
        }
        for (int q = 1; q < x.size; q++) {
            Object higher = x.recvArray(q, work, n, 0, 1, "allreduce");
            Combine.higherLast(op, higher, work, 0, n);
        }
        // The result goes out as a linear bcast in phase 1, encoded once.
        Exchange down = x.from(1);
        int w = Buffers.elementBytes(work);
        long bytes = (long) n * w;
        if (w == 0 || bytes > Integer.MAX_VALUE) {
            LinearBcast.run(down, 0, Buffers.encode(work, 0, n));
        } else {
            ByteBuffer result = x.scratch.send((int) bytes);
            Buffers.encodeInto(work, 0, n, result, 0);
            LinearBcast.runInPlace(down, 0, result, (int) bytes);
        }
    }
}

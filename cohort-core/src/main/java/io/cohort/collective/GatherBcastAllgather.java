package io.cohort.collective;

import io.cohort.Request;

/**
 * Allgather as a gather to rank 0 and a bcast of every block from there, by the binomial tree or
 * by rank 0 sending to each peer itself ({@code linear}): 2 (N - 1) messages where recursive
 * doubling sends N log2 N and the ring N (N - 1), in 1 + ceil(log2 N) rounds, or two. Like
 * {@link ReduceBcastAllreduce}, it pays where peers outnumber cores and each message's CPU time
 * counts. Blocks travel framed with their rank ({@link Blocks}), so blocks of any length work.
 *
 * <p>Threads: the thread running the collective.
 */
final class GatherBcastAllgather {
    private GatherBcastAllgather() {
    }

    /** On entry {@code blocks[rank]} is this peer's block; on return every entry is filled. */
    static void run(Exchange x, byte[][] blocks, boolean linear) {
        int n = x.size;
        Exchange down = x.from(1);
        if (x.rank != 0) {
            x.send(0, 0, blocks[x.rank]).await();
            Blocks.unframe(fanOut(down, null, linear), blocks);
            return;
        }
        Request[] in = new Request[n];
        for (int q = 1; q < n; q++) {
            in[q] = x.irecv(q, 0);
        }
        int[] all = new int[n];
        for (int q = 0; q < n; q++) {
            all[q] = q;
            if (q > 0) {
                blocks[q] = Exchange.bytes(in[q]);
            }
        }
        fanOut(down, Blocks.frame(blocks, all, n), linear);
    }

    /** The result from rank 0 to every peer ({@code result} is ignored elsewhere). */
    private static byte[] fanOut(Exchange down, byte[] result, boolean linear) {
        return linear ? LinearBcast.run(down, 0, result) : BinomialBcast.run(down, 0, result);
    }
}

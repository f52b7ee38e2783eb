package io.cohort.collective;

import io.cohort.Request;

import java.nio.ByteBuffer;

/**
 * Allgather of primitive blocks in one buffer laid out in rank order: block r at {@code off[r]},
 * {@code len[r]} bytes. Every block is received straight into its place and sent from there, so
 * the call encodes this peer's block once, decodes the others once, and makes no array; the
 * blocks-of-arrays algorithms ({@link RecursiveDoublingAllgather}, {@link RingAllgather}) framed,
 * copied and allocated every round.
 *
 * <ul>
 *   <li>{@link #recursiveDoubling}, for a power-of-two size: in round k a peer holds the aligned
 *       2^k blocks around its own, which are contiguous in the buffer, and swaps them with the
 *       peer 2^k away;
 *   <li>{@link #ring}: in step s block (rank - s) goes right and block (rank - s - 1) comes from
 *       the left.
 * </ul>
 *
 * <p>A peer whose counts differ from the others' receives a message of another length than it
 * expects and fails in one sentence naming the sender.
 *
 * <p>Threads: the thread running the collective.
 */
final class AllgatherInPlace {
    private AllgatherInPlace() {
    }

    static void recursiveDoubling(Exchange x, ByteBuffer all, int[] off, int[] len) {
        int n = x.size;
        if (Integer.bitCount(n) != 1) {
            throw new IllegalArgumentException("recursive doubling in place needs a power-of-two size, not " + n);
        }
        int round = 0;
        for (int mask = 1; mask < n; mask <<= 1, round++) {
            int partner = x.rank ^ mask;
            int mine = x.rank & ~(mask - 1);
            int theirs = partner & ~(mask - 1);
            swap(x, partner, all, off, len, mine, theirs, mask, round);
        }
    }

    static void ring(Exchange x, ByteBuffer all, int[] off, int[] len) {
        int n = x.size;
        int right = (x.rank + 1) % n;
        int left = (x.rank - 1 + n) % n;
        for (int s = 0; s < n - 1; s++) {
            int out = (x.rank - s + n) % n;
            int in = (x.rank - s - 1 + n) % n;
            // One tag for all steps: FIFO per pair keeps the steps in order.
            Request r = x.irecv(left, 0, all, off[in], len[in]);
            Request send = x.send(right, 0, all, off[out], len[out]);
            await(x, r, send, left, len[in]);
        }
    }

    /** Sends blocks [mine, mine + count) to {@code peer} and receives its blocks [theirs, theirs + count) in place. */
    private static void swap(Exchange x, int peer, ByteBuffer all, int[] off, int[] len, int mine, int theirs, int count,
                             int phase) {
        int sendBytes = bytes(off, len, mine, count);
        int recvBytes = bytes(off, len, theirs, count);
        Request r = x.irecv(peer, phase, all, off[theirs], recvBytes);
        Request s = x.send(peer, phase, all, off[mine], sendBytes);
        await(x, r, s, peer, recvBytes);
    }

    private static int bytes(int[] off, int[] len, int first, int count) {
        return off[first + count - 1] + len[first + count - 1] - off[first];
    }

    /** Waits for both ({@link Exchange#awaitPair}) and checks the length received. */
    private static void await(Exchange x, Request receive, Request send, int source, int expected) {
        int got = Exchange.awaitPair(receive, send);
        if (got != expected) {
            throw new IllegalArgumentException("rank " + x.rank + " received " + got + " bytes of allgather blocks from"
                    + " rank " + source + " where its counts make " + expected + "; do the peers pass the same counts?");
        }
    }
}

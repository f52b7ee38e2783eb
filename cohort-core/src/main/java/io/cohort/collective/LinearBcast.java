package io.cohort.collective;

import io.cohort.MessageTruncatedException;
import io.cohort.Request;

import java.nio.ByteBuffer;

/**
 * Bcast by the root sending to every other peer itself: N - 1 messages, as many as the binomial
 * tree sends, in one round, with no peer waiting for another to wake and forward. Where peers
 * outnumber cores each forwarding hop costs a wake-up and a turn on a core, which this saves.
 *
 * <p>Threads: the thread running the collective.
 */
final class LinearBcast {
    private LinearBcast() {
    }

    /** Returns the root's {@code data} at every peer ({@code data} is ignored elsewhere). */
    static byte[] run(Exchange x, int root, byte[] data) {
        if (x.rank != root) {
            return x.recv(root, 0);
        }
        Request[] sends = new Request[x.size];
        for (int q = 0; q < x.size; q++) {
            if (q != root) {
                sends[q] = x.send(q, 0, data);
            }
        }
        awaitAll(sends);
        return data;
    }

    /**
     * As {@link BinomialBcast#runInPlace}: the root's first {@code length} bytes of {@code buffer}
     * reach every peer's {@code buffer}; off the root, {@code length} is what the peer expects, and
     * it returns how many bytes came ({@code length} when more came: the first ones are in the buffer).
     */
    static int runInPlace(Exchange x, int root, ByteBuffer buffer, int length) {
        if (x.rank != root) {
            try {
                return x.irecv(root, 0, buffer, 0, length).await().length();
            } catch (MessageTruncatedException e) {
                return length;
            }
        }
        Request[] sends = new Request[x.size];
        for (int q = 0; q < x.size; q++) {
            if (q != root) {
                sends[q] = x.send(q, 0, buffer, 0, length);
            }
        }
        awaitAll(sends);
        return length;
    }

    private static void awaitAll(Request[] sends) {
        for (Request s : sends) {
            if (s != null) {
                s.await();
            }
        }
    }
}

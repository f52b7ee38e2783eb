package io.cohort.collective;

import io.cohort.MessageTruncatedException;
import io.cohort.Request;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

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
        List<Request> sends = new ArrayList<>(x.size - 1);
        for (int q = 0; q < x.size; q++) {
            if (q != root) {
                sends.add(x.send(q, 0, data));
            }
        }
        Request.awaitAll(sends);
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
        List<Request> sends = new ArrayList<>(x.size - 1);
        for (int q = 0; q < x.size; q++) {
            if (q != root) {
                sends.add(x.send(q, 0, buffer, 0, length));
            }
        }
        Request.awaitAll(sends);
        return length;
    }
}

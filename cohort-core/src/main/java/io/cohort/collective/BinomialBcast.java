package io.cohort.collective;

import io.cohort.MessageTruncatedException;
import io.cohort.Request;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Bcast over point-to-point by a binomial tree rooted at {@code root}: ceil(log2 N) rounds; each
 * peer receives once, from the peer whose relative rank differs in its lowest set bit, and then
 * forwards to its children, largest subtree first. The message length need not be known in advance.
 *
 * <p>Threads: the thread running the collective.
 */
final class BinomialBcast {
    private BinomialBcast() {
    }

    /** Returns the root's {@code data} at every peer ({@code data} is ignored elsewhere). */
    static byte[] run(Exchange x, int root, byte[] data) {
        int n = x.size;
        int relative = (x.rank - root + n) % n;
        byte[] payload = data;
        int mask = 1;
        while (mask < n) {
            if ((relative & mask) != 0) {
                payload = x.recv((relative - mask + root) % n, 0);
                break;
            }
            mask <<= 1;
        }
        List<Request> sends = new ArrayList<>();
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (relative + mask < n) {
                sends.add(x.send((relative + mask + root) % n, 0, payload));
            }
        }
        Request.awaitAll(sends);
        return payload;
    }

    /**
     * As {@link #run}, in place: the root's first {@code length} bytes of {@code buffer} reach every
     * peer's {@code buffer}, received into it and forwarded from it, with no copy of the library's
     * own. Off the root, {@code length} is what the peer expects; it returns how many bytes came.
     * A longer message fills {@code buffer} to {@code length} and is forwarded so far with
     * {@code cutBits} set in its first byte, so the peers below know it was cut; this peer's own
     * buffer keeps the root's first byte, and the caller finds the mismatch in the bytes.
     */
    static int runInPlace(Exchange x, int root, ByteBuffer buffer, int length, byte cutBits) {
        int n = x.size;
        int relative = (x.rank - root + n) % n;
        int got = length;
        boolean cut = false;
        int mask = 1;
        while (mask < n) {
            if ((relative & mask) != 0) {
                Request r = x.irecv((relative - mask + root) % n, 0, buffer, 0, length);
                try {
                    got = r.await().length();
                } catch (MessageTruncatedException e) {
                    got = length; // the first length bytes are in the buffer
                    cut = true;
                }
                break;
            }
            mask <<= 1;
        }
        byte first = cut && length > 0 ? buffer.get(0) : 0;
        if (cut && length > 0) {
            buffer.put(0, (byte) (first | cutBits));
        }
        List<Request> sends = new ArrayList<>(2);
        try {
            for (mask >>= 1; mask > 0; mask >>= 1) {
                if (relative + mask < n) {
                    sends.add(x.send((relative + mask + root) % n, 0, buffer, 0, got));
                }
            }
            Request.awaitAll(sends);
        } finally {
            if (cut && length > 0) {
                buffer.put(0, first);
            }
        }
        return got;
    }
}

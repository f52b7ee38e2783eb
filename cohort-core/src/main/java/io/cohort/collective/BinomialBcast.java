package io.cohort.collective;

import io.cohort.Request;

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
}

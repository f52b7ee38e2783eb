package io.cohort.collective;

/**
 * Barrier by dissemination (Hensgen, Finkel and Manber): in round k each peer sends an empty
 * message to rank + 2^k and waits for one from rank - 2^k; after ceil(log2 N) rounds every peer has
 * heard, directly or not, from every other. Works for any N.
 *
 * <p>Threads: the thread running the collective.
 */
final class DisseminationBarrier {
    private DisseminationBarrier() {
    }

    static void run(Exchange x) {
        int n = x.size;
        int round = 0;
        for (int k = 1; k < n; k <<= 1, round++) {
            x.sendrecv((x.rank + k) % n, Exchange.empty(), (x.rank - k + n) % n, round);
        }
    }
}

package io.cohort.collective;

import io.cohort.Request;

/**
 * Allgather around a ring: in step s each peer passes the block it received in step s - 1 (its own
 * at first) to rank + 1 and receives a new one from rank - 1; N - 1 steps, each moving one block per
 * link, so every link carries (N-1)/N of the result: bandwidth-optimal for long blocks.
 *
 * <p>Threads: the thread running the collective.
 */
final class RingAllgather {
    private RingAllgather() {
    }

    static void run(Exchange x, byte[][] blocks) {
        int n = x.size;
        int right = (x.rank + 1) % n;
        int left = (x.rank - 1 + n) % n;
        for (int s = 0; s < n - 1; s++) {
            int sendBlock = (x.rank - s + n) % n;
            int recvBlock = (x.rank - s - 1 + n) % n;
            // One tag for all steps: FIFO per pair keeps the steps in order.
            Request r = x.irecv(left, 0);
            Request out = x.send(right, 0, blocks[sendBlock]);
            blocks[recvBlock] = Exchange.bytes(r);
            out.await();
        }
    }
}

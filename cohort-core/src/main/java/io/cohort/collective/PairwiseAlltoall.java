package io.cohort.collective;

import io.cohort.Request;

/**
 * Alltoall by pairwise exchange: in step s = 1..N-1 each peer sends its block for rank + s and
 * receives the block from rank - s, so every peer talks to one partner per step and no peer is hot;
 * its own block is copied locally.
 *
 * <p>Threads: the thread running the collective.
 */
final class PairwiseAlltoall {
    private PairwiseAlltoall() {
    }

    static void run(Exchange x, Object send, int[] sendCounts, int[] sendDispls,
                    Object recv, int[] recvCounts, int[] recvDispls) {
        int n = x.size;
        int me = x.rank;
        Buffers.copy(send, sendDispls[me], recv, recvDispls[me], checkedSelf(sendCounts[me], recvCounts[me], me));
        for (int s = 1; s < n; s++) {
            int dest = (me + s) % n;
            int source = (me - s + n) % n;
            Request r = x.irecv(source, 0);
            Request out = x.send(dest, 0, Buffers.encode(send, sendDispls[dest], sendCounts[dest]));
            Buffers.decode(Exchange.bytes(r), recv, recvDispls[source], recvCounts[source],
                    "alltoall block from rank " + source);
            out.await();
        }
    }

    private static int checkedSelf(int sendCount, int recvCount, int me) {
        if (sendCount != recvCount) {
            throw new IllegalArgumentException("rank " + me + " sends itself " + sendCount
                    + " elements but expects " + recvCount + "; the counts must agree");
        }
        return sendCount;
    }
}

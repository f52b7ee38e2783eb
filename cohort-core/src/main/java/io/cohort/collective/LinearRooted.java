package io.cohort.collective;

import io.cohort.Request;

import java.util.ArrayList;
import java.util.List;

/**
 * Gather and scatter, linear: the root posts all N - 1 receives (or sends) at once and the others
 * send (or receive) one message. The root's link carries everything whatever the tree, so a tree
 * would only add hops; linear keeps one message per peer.
 *
 * <p>Threads: the thread running the collective.
 */
final class LinearRooted {
    private LinearRooted() {
    }

    /** Gathers each peer's {@code send} (all its elements) into {@code recv} at the root. */
    static void gather(Exchange x, int root, Object send, Object recv, int[] counts, int[] displs) {
        int mine = Buffers.count(send);
        if (x.rank != root) {
            x.send(root, 0, Buffers.encode(send, 0, mine)).await();
            return;
        }
        Request[] recvs = new Request[x.size];
        for (int r = 0; r < x.size; r++) {
            if (r != root) {
                recvs[r] = x.irecv(r, 0);
            }
        }
        Buffers.copy(send, 0, recv, displs[root], mine);
        for (int r = 0; r < x.size; r++) {
            if (r != root) {
                Buffers.decode(Exchange.bytes(recvs[r]), recv, displs[r], counts[r], "gather block from rank " + r);
            }
        }
    }

    /** Scatters the root's blocks of {@code send}; every peer's block fills {@code recv} from 0 ({@code want} elements). */
    static void scatter(Exchange x, int root, Object send, int[] counts, int[] displs, Object recv, int want) {
        if (x.rank != root) {
            Buffers.decode(x.recv(root, 0), recv, 0, want, "scatter block from root " + root);
            return;
        }
        List<Request> sends = new ArrayList<>();
        for (int r = 0; r < x.size; r++) {
            if (r != root) {
                sends.add(x.send(r, 0, Buffers.encode(send, displs[r], counts[r])));
            }
        }
        Buffers.copy(send, displs[root], recv, 0, counts[root]);
        Request.awaitAll(sends);
    }
}

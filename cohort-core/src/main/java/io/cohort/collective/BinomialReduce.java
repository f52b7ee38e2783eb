package io.cohort.collective;

import io.cohort.Op;

/**
 * Reduce by a binomial tree: in round k a peer whose relative rank has bit k set sends its partial
 * result to the peer 2^k below and stops; the others receive and combine, their own partial on the
 * left. For a commutative op the tree is rooted at the root (relative ranks); for a non-commutative
 * one it is rooted at rank 0, where each partial covers adjacent ranks in order, and rank 0 then
 * passes the result to the root (one extra message when the root is not 0).
 *
 * <p>Threads: the thread running the collective.
 */
final class BinomialReduce {
    private BinomialReduce() {
    }

    /** Reduces {@code work} (n elements from 0) into {@code work} at {@code root}; elsewhere work is scratch. */
    static void run(Exchange x, int root, Object work, int n, Op op) {
        int size = x.size;
        int treeRoot = op.isCommutative() ? root : 0;
        int relative = (x.rank - treeRoot + size) % size;
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((relative & mask) != 0) {
                x.send((relative - mask + treeRoot) % size, 0, Buffers.encode(work, 0, n)).await();
                break;
            }
            if (relative + mask < size) {
                int child = (relative + mask + treeRoot) % size;
                Object higher = Combine.decode(x.recv(child, 0), work, n, "reduce from rank " + child);
                Combine.higherLast(op, higher, work, 0, n);
            }
        }
        if (treeRoot != root) {
            if (x.rank == treeRoot) {
                x.send(root, 1, Buffers.encode(work, 0, n)).await();
            } else if (x.rank == root) {
                Buffers.decode(x.recv(treeRoot, 1), work, 0, n, "reduce result from rank " + treeRoot);
            }
        }
    }
}

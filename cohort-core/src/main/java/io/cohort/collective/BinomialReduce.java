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
                x.sendRange((relative - mask + treeRoot) % size, work, 0, n, 0);
                break;
            }
            if (relative + mask < size) {
                int child = (relative + mask + treeRoot) % size;
                Object higher = x.recvArray(child, work, n, 0, 1, "reduce");
                Combine.higherLast(op, higher, work, 0, n);
            }
        }
        if (treeRoot != root) {
            if (x.rank == treeRoot) {
                x.sendRange(root, work, 0, n, 1);
            } else if (x.rank == root) {
                x.recvRange(treeRoot, work, 0, n, 1, "reduce result");
            }
        }
    }
}

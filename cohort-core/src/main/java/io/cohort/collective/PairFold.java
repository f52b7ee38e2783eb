package io.cohort.collective;

/**
 * Folds N peers onto the largest power of two p &lt;= N, keeping every member's ranks contiguous
 * (MPICH's scheme): of the first 2(N - p) ranks, each even rank hands its data to the odd rank
 * above it and sits out; the remaining p ranks are members, renumbered 0 to p-1 in rank order.
 * Member m then stands for ranks {2m, 2m+1} (m &lt; N - p) or {m + N - p}, so partners of a
 * recursive-doubling round always hold adjacent, ordered rank ranges and non-commutative ops
 * combine in rank order.
 *
 * <pre>
 *   N = 6, p = 4:  ranks 0 1 | 2 3 | 4 | 5      members: 0={0,1} 1={2,3} 2={4} 3={5}
 *                  0 -> 1, 2 -> 3 before; 1 -> 0, 3 -> 2 after
 * </pre>
 *
 * <p>Threads: immutable; the fold itself runs on the thread running the collective.
 */
final class PairFold {
    final int size;
    final int p;
    final int rem;
    final int rank;
    /** This rank's member number, or -1 for an even rank that sits out. */
    final int member;

    PairFold(int rank, int size) {
        this.rank = rank;
        this.size = size;
        this.p = Integer.highestOneBit(size);
        this.rem = size - p;
        if (rank < 2 * rem) {
            member = rank % 2 == 1 ? rank / 2 : -1;
        } else {
            member = rank - rem;
        }
    }

    /** Whether this rank hands its data to rank + 1 and gets the result back from it. */
    boolean sitsOut() {
        return member < 0;
    }

    /** Whether this rank receives the data of rank - 1 before the rounds and returns the result after. */
    boolean absorbs() {
        return rank < 2 * rem && rank % 2 == 1;
    }

    /**
     * An allreduce's fold before its rounds, on {@code work} (n elements from 0): a rank that sits
     * out hands its vector to rank + 1 and takes the result back, and is then done (returns true);
     * a rank that absorbs combines rank - 1's vector below its own.
     */
    boolean foldIn(Exchange x, Object work, int n, io.cohort.Op op) {
        if (sitsOut()) {
            x.sendRange(rank + 1, work, 0, n, 0);
            x.recvRange(rank + 1, work, 0, n, 1, "allreduce result");
            return true;
        }
        if (absorbs()) {
            Object lower = x.recvArray(rank - 1, work, n, 0, Scratch.FOLD_SLOT, "allreduce");
            Combine.lowerFirst(op, lower, work, 0, n);
        }
        return false;
    }

    /** An allreduce's fold after its rounds: an absorbing rank returns the result to rank - 1. */
    void foldOut(Exchange x, Object work, int n) {
        if (absorbs()) {
            x.sendRange(rank - 1, work, 0, n, 1);
        }
    }

    /** The real rank of member {@code m}. */
    int rankOf(int m) {
        return m < rem ? 2 * m + 1 : m + rem;
    }
}

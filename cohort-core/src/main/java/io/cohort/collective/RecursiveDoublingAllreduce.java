package io.cohort.collective;

import io.cohort.Op;

/**
 * Allreduce by recursive doubling, for short vectors: after the {@link PairFold} (an even rank's
 * vector joins the odd rank above it), member m swaps its whole partial result with member
 * m xor 2^k in round k and combines, the lower-ranked partial on the left; log2 p rounds of the
 * full vector. Every peer evaluates the same expression tree, so all get bit-identical results,
 * and non-commutative ops keep rank order.
 *
 * <p>Threads: the thread running the collective.
 */
final class RecursiveDoublingAllreduce {
    private RecursiveDoublingAllreduce() {
    }

    /** Reduces {@code work} (n elements from 0) in place across all peers. */
    static void run(Exchange x, Object work, int n, Op op) {
        PairFold f = new PairFold(x.rank, x.size);
        if (f.foldIn(x, work, n, op)) {
            return;
        }
        int round = 2;
        for (int mask = 1; mask < f.p; mask <<= 1, round++) {
            int partnerMember = f.member ^ mask;
            int partner = f.rankOf(partnerMember);
            Object theirs = x.swap(partner, work, 0, n, n, round, 1, "allreduce");
            if (partnerMember < f.member) {
                Combine.lowerFirst(op, theirs, work, 0, n);
            } else {
                Combine.higherLast(op, theirs, work, 0, n);
            }
        }
        f.foldOut(x, work, n);
    }
}

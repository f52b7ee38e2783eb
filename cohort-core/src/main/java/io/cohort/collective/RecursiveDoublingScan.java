package io.cohort.collective;

import io.cohort.Op;

/**
 * Inclusive and exclusive scan by recursive doubling: in round k peer r swaps its partial (the
 * reduction of an aligned block of 2^k ranks around it) with r xor 2^k when that peer exists; a
 * partial from below is folded into both the partial and the result on the left, one from above
 * only into the partial, on the right. ceil(log2 N) rounds for any N; rank order is kept, so
 * non-commutative ops work.
 *
 * <p>Threads: the thread running the collective.
 */
final class RecursiveDoublingScan {
    private RecursiveDoublingScan() {
    }

    /**
     * @param partial   this peer's contribution (n elements from 0); used as scratch
     * @param result    where the scan result goes (n elements from 0): for an inclusive scan it must
     *                  hold this peer's contribution on entry; for an exclusive one it is written
     *                  only if some lower rank exists
     * @param inclusive scan (true) or exscan (false)
     */
    static void run(Exchange x, Object partial, Object result, int n, Op op, boolean inclusive) {
        boolean haveResult = inclusive;
        int round = 0;
        for (int mask = 1; mask < x.size; mask <<= 1, round++) {
            int partner = x.rank ^ mask;
            if (partner >= x.size) {
                continue;
            }
            byte[] got = x.sendrecv(partner, Buffers.encode(partial, 0, n), partner, round);
            Object theirs = Combine.decode(got, partial, n, "scan from rank " + partner);
            if (partner < x.rank) {
                if (haveResult) {
                    Combine.lowerFirst(op, theirs, result, 0, n);
                } else {
                    Buffers.copy(theirs, 0, result, 0, n);
                    haveResult = true;
                }
                Combine.lowerFirst(op, theirs, partial, 0, n);
            } else {
                Combine.higherLast(op, theirs, partial, 0, n);
            }
        }
    }
}

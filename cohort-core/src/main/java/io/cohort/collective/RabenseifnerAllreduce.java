package io.cohort.collective;

import io.cohort.Op;

/**
 * Allreduce for long vectors (Rabenseifner): a reduce-scatter by recursive halving, then an
 * allgather by recursive doubling, so each peer sends about 2 (p-1)/p of the vector instead of
 * log2 p whole vectors.
 *
 * <pre>
 *   fold to p members (PairFold)
 *   round k = 0..log2 p - 1 (distance 2^k): split my segment range in halves; the member whose
 *       bit k is 0 keeps the lower half; send the other half to member xor 2^k, combine the
 *       half I keep with what it sent (lower-ranked partial on the left)
 *   then the same rounds backwards: send my range, receive my partner's, now both hold the union
 *   unfold: odd ranks give the whole vector to the even rank below
 * </pre>
 *
 * Distances grow 1, 2, 4, ..., so each partial covers adjacent ranks and non-commutative ops keep
 * rank order. The vector is split into p segments at multiples of {@link Op#unit()}; the policy
 * never picks this for an op whose unit is 0.
 *
 * <p>Threads: the thread running the collective.
 */
final class RabenseifnerAllreduce {
    private RabenseifnerAllreduce() {
    }

    static void run(Exchange x, Object work, int n, Op op) {
        PairFold f = new PairFold(x.rank, x.size);
        if (f.foldIn(x, work, n, op)) {
            return;
        }
        int unit = Math.max(1, op.unit());
        int units = n / unit;
        int steps = Integer.numberOfTrailingZeros(f.p);
        int[] lo = new int[steps + 1];
        int[] hi = new int[steps + 1];
        lo[0] = 0;
        hi[0] = f.p;
        for (int k = 0; k < steps; k++) {
            int mask = 1 << k;
            int partnerMember = f.member ^ mask;
            int partner = f.rankOf(partnerMember);
            int mid = (lo[k] + hi[k]) >>> 1;
            boolean keepLower = (f.member & mask) == 0;
            int keepLo = keepLower ? lo[k] : mid;
            int keepHi = keepLower ? mid : hi[k];
            int sendLo = keepLower ? mid : lo[k];
            int sendHi = keepLower ? hi[k] : mid;
            int sendOff = offset(sendLo, units, unit, f.p);
            int sendLen = offset(sendHi, units, unit, f.p) - sendOff;
            int keepOff = offset(keepLo, units, unit, f.p);
            int keepLen = offset(keepHi, units, unit, f.p) - keepOff;
            Object theirs = x.swap(partner, work, sendOff, sendLen, keepLen, 2 + k, 1 + k, "reduce-scatter");
            if (partnerMember < f.member) {
                Combine.lowerFirst(op, theirs, work, keepOff, keepLen);
            } else {
                Combine.higherLast(op, theirs, work, keepOff, keepLen);
            }
            lo[k + 1] = keepLo;
            hi[k + 1] = keepHi;
        }
        for (int k = steps - 1; k >= 0; k--) {
            int partner = f.rankOf(f.member ^ (1 << k));
            int myOff = offset(lo[k + 1], units, unit, f.p);
            int myLen = offset(hi[k + 1], units, unit, f.p) - myOff;
            boolean mineLower = lo[k + 1] == lo[k];
            int otherLo = mineLower ? hi[k + 1] : lo[k];
            int otherHi = mineLower ? hi[k] : lo[k + 1];
            int otherOff = offset(otherLo, units, unit, f.p);
            int otherLen = offset(otherHi, units, unit, f.p) - otherOff;
            x.swapInto(partner, work, myOff, myLen, work, otherOff, otherLen, 2 + steps + k, "allgather");
        }
        f.foldOut(x, work, n);
    }

    /** First element of segment {@code s} of {@code p}: units spread evenly, the first ones one larger. */
    private static int offset(int s, int units, int unit, int p) {
        int base = units / p;
        int extra = units % p;
        return (s * base + Math.min(s, extra)) * unit;
    }
}

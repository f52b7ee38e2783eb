package io.cohort.collective;

import io.cohort.Op;

/**
 * The two ways a reduction algorithm folds a received partial result into its own, keeping rank
 * order for non-commutative ops: a partial from lower ranks goes on the left, from higher ranks on
 * the right.
 *
 * <p>Threads: stateless; any thread.
 */
final class Combine {
    private Combine() {
    }

    /** The elements of a received message as a fresh array like {@code like}. */
    static Object decode(byte[] bytes, Object like, int n, String from) {
        Object a = Buffers.newArrayLike(like, n);
        Buffers.decode(bytes, a, 0, n, from);
        return a;
    }

    /** {@code work[off, off+n) = lower op work[off, off+n)}; {@code lower} holds n elements from 0. */
    static void lowerFirst(Op op, Object lower, Object work, int off, int n) {
        op.apply(lower, 0, work, off, n);
    }

    /** {@code work[off, off+n) = work[off, off+n) op higher}; {@code higher} (n elements from 0) may be overwritten. */
    static void higherLast(Op op, Object higher, Object work, int off, int n) {
        if (op.isCommutative()) {
            op.apply(higher, 0, work, off, n);
        } else {
            op.apply(work, off, higher, 0, n);
            Buffers.copy(higher, 0, work, off, n);
        }
    }
}

package io.cohort.broadcast.pcode;

import java.util.Arrays;

/**
 * A set of ranks as a bitmap of int64 words, the form DATA frames carry (bit r = rank r). Small
 * static helpers, no object per call on the hot path.
 */
final class TargetSet {
    private TargetSet() {
    }

    /** The bitmap of {@code ranks}; throws one sentence if a rank is outside {@code [0, size)} or repeated. */
    static long[] of(int[] ranks, int size, String what) {
        long[] bits = new long[DataFrameDescriptor.targetWords(size)];
        for (int r : ranks) {
            if (r < 0 || r >= size) {
                throw new IllegalArgumentException(what + " names rank " + r + ", which is not in this domain of "
                        + size + " peers");
            }
            if (contains(bits, r)) {
                throw new IllegalArgumentException(what + " names rank " + r + " twice");
            }
            bits[r >>> 6] |= 1L << (r & 63);
        }
        return bits;
    }

    static boolean contains(long[] bits, int r) {
        return (bits[r >>> 6] & (1L << (r & 63))) != 0;
    }

    static int count(long[] bits) {
        int n = 0;
        for (long w : bits) {
            n += Long.bitCount(w);
        }
        return n;
    }

    /** The one member of a single-member set. */
    static int single(long[] bits) {
        for (int i = 0; i < bits.length; i++) {
            if (bits[i] != 0) {
                return (i << 6) + Long.numberOfTrailingZeros(bits[i]);
            }
        }
        return -1;
    }

    static String describe(long[] bits) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < bits.length * 64; i++) {
            if (contains(bits, i)) {
                if (b.length() > 1) {
                    b.append(", ");
                }
                b.append(i);
            }
        }
        return b.append(']').toString();
    }

    static boolean same(long[] a, long[] b) {
        return Arrays.equals(a, b);
    }
}

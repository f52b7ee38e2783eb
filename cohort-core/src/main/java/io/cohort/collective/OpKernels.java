package io.cohort.collective;

import io.cohort.CohortProvider;

import java.util.function.DoubleBinaryOperator;
import java.util.function.IntBinaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * The loops behind the predefined {@link io.cohort.Op}s, one per array type. byte, short, char and
 * int compute in int and narrow; float computes in double and narrows, which gives the correctly
 * rounded float result for +, * (53 bits hold twice 24 plus 2) and is exact for min and max.
 * {@code Op.SUM} and the others get theirs from the provider ({@link #reduction}), so the API
 * carries no loops of its own.
 *
 * <p>Threads: stateless; any thread.
 */
public final class OpKernels {
    /**
     * The predefined ops, each its own loops. One class for all of them (no constant has a body), so
     * {@code Op.apply}'s call through {@link CohortProvider.Reduction} has one target.
     */
    enum Kind implements CohortProvider.Reduction {
        SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR, MINLOC, MAXLOC;

        @Override
        public void check(Object array, int count) {
            OpKernels.check(this, array, count);
        }

        @Override
        public void apply(Object in, int inOffset, Object inout, int inoutOffset, int count) {
            OpKernels.apply(this, in, inOffset, inout, inoutOffset, count);
        }
    }

    private OpKernels() {
    }

    /**
     * The loops of the predefined op called {@code name}.
     *
     * @throws IllegalArgumentException if no predefined op has that name
     */
    public static CohortProvider.Reduction reduction(String name) {
        return Kind.valueOf(name);
    }

    private static int truth(boolean b) {
        return b ? 1 : 0;
    }

    private static IntBinaryOperator intOp(Kind k) {
        return switch (k) {
            case SUM -> Integer::sum;
            case PROD -> (a, b) -> a * b;
            case MIN -> Math::min;
            case MAX -> Math::max;
            case LAND -> (a, b) -> truth(a != 0 && b != 0);
            case LOR -> (a, b) -> truth(a != 0 || b != 0);
            case LXOR -> (a, b) -> truth((a != 0) != (b != 0));
            case BAND -> (a, b) -> a & b;
            case BOR -> (a, b) -> a | b;
            case BXOR -> (a, b) -> a ^ b;
            default -> null;
        };
    }

    private static LongBinaryOperator longOp(Kind k) {
        return switch (k) {
            case SUM -> Long::sum;
            case PROD -> (a, b) -> a * b;
            case MIN -> Math::min;
            case MAX -> Math::max;
            case LAND -> (a, b) -> truth(a != 0 && b != 0);
            case LOR -> (a, b) -> truth(a != 0 || b != 0);
            case LXOR -> (a, b) -> truth((a != 0) != (b != 0));
            case BAND -> (a, b) -> a & b;
            case BOR -> (a, b) -> a | b;
            case BXOR -> (a, b) -> a ^ b;
            default -> null;
        };
    }

    private static DoubleBinaryOperator doubleOp(Kind k) {
        return switch (k) {
            case SUM -> Double::sum;
            case PROD -> (a, b) -> a * b;
            case MIN -> Math::min;
            case MAX -> Math::max;
            default -> null;
        };
    }

    private static boolean applies(Kind k, Object array) {
        boolean loc = k == Kind.MINLOC || k == Kind.MAXLOC;
        if (array instanceof int[] || array instanceof long[] || array instanceof short[] || array instanceof byte[]) {
            return true;
        }
        if (array instanceof char[]) {
            return !loc;
        }
        if (array instanceof float[] || array instanceof double[]) {
            return loc || doubleOp(k) != null;
        }
        if (array instanceof boolean[]) {
            return k.ordinal() >= Kind.LAND.ordinal() && k.ordinal() <= Kind.BXOR.ordinal();
        }
        return false;
    }

    static void check(Kind k, Object array, int count) {
        if (!applies(k, array)) {
            throw new IllegalArgumentException(k + " does not apply to " + (array == null ? "null" : array.getClass().getSimpleName()));
        }
        if ((k == Kind.MINLOC || k == Kind.MAXLOC) && count % 2 != 0) {
            throw new IllegalArgumentException(k + " needs an even number of elements, read as (value, index) pairs, not "
                    + count);
        }
    }

    static void apply(Kind k, Object in, int io, Object inout, int oo, int n) {
        check(k, inout, n);
        if (k == Kind.MINLOC || k == Kind.MAXLOC) {
            loc(k == Kind.MINLOC, in, io, inout, oo, n);
            return;
        }
        if (in instanceof int[] a) {
            int[] b = (int[]) inout;
            IntBinaryOperator f = intOp(k);
            for (int i = 0; i < n; i++) {
                b[oo + i] = f.applyAsInt(a[io + i], b[oo + i]);
            }
        } else if (in instanceof long[] a) {
            long[] b = (long[]) inout;
            LongBinaryOperator f = longOp(k);
            for (int i = 0; i < n; i++) {
                b[oo + i] = f.applyAsLong(a[io + i], b[oo + i]);
            }
        } else if (in instanceof double[] a) {
            double[] b = (double[]) inout;
            DoubleBinaryOperator f = doubleOp(k);
            for (int i = 0; i < n; i++) {
                b[oo + i] = f.applyAsDouble(a[io + i], b[oo + i]);
            }
        } else if (in instanceof float[] a) {
            float[] b = (float[]) inout;
            DoubleBinaryOperator f = doubleOp(k);
            for (int i = 0; i < n; i++) {
                b[oo + i] = (float) f.applyAsDouble(a[io + i], b[oo + i]);
            }
        } else if (in instanceof short[] a) {
            short[] b = (short[]) inout;
            IntBinaryOperator f = intOp(k);
            for (int i = 0; i < n; i++) {
                b[oo + i] = (short) f.applyAsInt(a[io + i], b[oo + i]);
            }
        } else if (in instanceof byte[] a) {
            byte[] b = (byte[]) inout;
            IntBinaryOperator f = intOp(k);
            for (int i = 0; i < n; i++) {
                b[oo + i] = (byte) f.applyAsInt(a[io + i], b[oo + i]);
            }
        } else if (in instanceof char[] a) {
            char[] b = (char[]) inout;
            IntBinaryOperator f = intOp(k);
            for (int i = 0; i < n; i++) {
                b[oo + i] = (char) f.applyAsInt(a[io + i], b[oo + i]);
            }
        } else {
            boolean[] a = (boolean[]) in;
            boolean[] b = (boolean[]) inout;
            IntBinaryOperator f = intOp(k);
            for (int i = 0; i < n; i++) {
                b[oo + i] = f.applyAsInt(truth(a[io + i]), truth(b[oo + i])) != 0;
            }
        }
    }

    /**
     * MINLOC / MAXLOC over (value, index) pairs: the in-pair replaces the inout-pair when its value
     * is better, or equal with a smaller index (MPI's rule).
     */
    private static void loc(boolean min, Object in, int io, Object inout, int oo, int n) {
        for (int i = 0; i < n; i += 2) {
            int c = compare(in, io + i, inout, oo + i);
            boolean take = (min ? c < 0 : c > 0)
                    || (c == 0 && compare(in, io + i + 1, inout, oo + i + 1) < 0);
            if (take) {
                System.arraycopy(in, io + i, inout, oo + i, 2);
            }
        }
    }

    private static int compare(Object a, int i, Object b, int j) {
        if (a instanceof int[] x) {
            return Integer.compare(x[i], ((int[]) b)[j]);
        } else if (a instanceof long[] x) {
            return Long.compare(x[i], ((long[]) b)[j]);
        } else if (a instanceof double[] x) {
            return Double.compare(x[i], ((double[]) b)[j]);
        } else if (a instanceof float[] x) {
            return Float.compare(x[i], ((float[]) b)[j]);
        } else if (a instanceof short[] x) {
            return Short.compare(x[i], ((short[]) b)[j]);
        } else {
            return Byte.compare(((byte[]) a)[i], ((byte[]) b)[j]);
        }
    }
}

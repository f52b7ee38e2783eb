package io.cohort;

import java.io.Serializable;
import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.DoubleBinaryOperator;
import java.util.function.IntBinaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * A reduction operation for reduce, allreduce, reduce-scatter, scan and exscan: element-wise
 * {@code inout[i] = in[i] op inout[i]} on two arrays of one type, where {@code in} is the left
 * operand. Collectives combine the peers' contributions in rank order,
 * {@code x0 op x1 op ... op x(n-1)}, and may regroup them only as associativity allows; they may
 * swap operands only for a {@link #isCommutative() commutative} op.
 *
 * <h2>Which op applies to which array</h2>
 * <table>
 *   <caption>predefined ops</caption>
 *   <tr><th>op</th><th>arrays</th></tr>
 *   <tr><td>SUM, PROD, MIN, MAX</td><td>byte, short, int, long, float, double, char</td></tr>
 *   <tr><td>LAND, LOR, LXOR</td><td>boolean; byte, short, int, long, char (nonzero = true, result 1 or 0)</td></tr>
 *   <tr><td>BAND, BOR, BXOR</td><td>byte, short, int, long, char, boolean</td></tr>
 *   <tr><td>MINLOC, MAXLOC</td><td>byte, short, int, long, float, double of even length, read as
 *       interleaved (value, index) pairs; on equal values the smaller index wins</td></tr>
 * </table>
 * An op given an array it does not apply to throws an {@link IllegalArgumentException} such as
 * "BAND does not apply to double[]". Integer arithmetic wraps; char arithmetic is unsigned 16-bit.
 * MINLOC and MAXLOC never split a pair: {@link #unit()} is 2 for them.
 *
 * <p>Threads: an {@code Op} is immutable and may be used by any thread; a user function must be
 * safe to call from the thread that runs the collective (the caller, or the nonblocking
 * collectives' thread).
 */
public final class Op {
    /**
     * A user-defined reduction over arrays: {@code inout[i] = in[i] op inout[i]} for i below
     * {@code count}. The arrays belong to the library (it reuses them from call to call) and may be
     * longer than {@code count}: use them only during the call, as MPI's user functions do.
     */
    @FunctionalInterface
    public interface ArrayFunction {
        void apply(Object in, Object inout, int count);
    }

    public static final Op SUM = predefined("SUM");
    public static final Op PROD = predefined("PROD");
    public static final Op MIN = predefined("MIN");
    public static final Op MAX = predefined("MAX");
    public static final Op LAND = predefined("LAND");
    public static final Op LOR = predefined("LOR");
    public static final Op LXOR = predefined("LXOR");
    public static final Op BAND = predefined("BAND");
    public static final Op BOR = predefined("BOR");
    public static final Op BXOR = predefined("BXOR");
    public static final Op MINLOC = predefined("MINLOC");
    public static final Op MAXLOC = predefined("MAXLOC");

    private final String name;
    private final boolean commutative;
    private final int unit;
    /** The loops of a predefined op ({@link CohortProvider#reduction}); null for a user's. */
    private final CohortProvider.Reduction kernel;
    /** Null for a predefined op. */
    private final ArrayFunction function;
    /** The one array type a typed helper accepts, or null for any. */
    private final Class<?> accepts;

    private Op(String name, boolean commutative, int unit, CohortProvider.Reduction kernel, ArrayFunction function,
               Class<?> accepts) {
        this.name = name;
        this.commutative = commutative;
        this.unit = unit;
        this.kernel = kernel;
        this.function = function;
        this.accepts = accepts;
    }

    private static Op predefined(String name) {
        boolean loc = name.equals("MINLOC") || name.equals("MAXLOC");
        return new Op(name, true, loc ? 2 : 1, CohortProvider.get().reduction(name), null, null);
    }

    /**
     * A user-defined op whose function sees whole arrays. Collectives never split the vector for it
     * (its {@link #unit()} is 0, since the function may treat groups of elements as one value);
     * use {@link #create(String, boolean, int, ArrayFunction)} to allow splitting.
     */
    public static Op create(String name, boolean commutative, ArrayFunction f) {
        return create(name, commutative, 0, f);
    }

    /**
     * A user-defined op whose values are groups of {@code unit} consecutive elements (1 for
     * element-wise ops, 4 for 2x2 matrices stored flat); collectives split vectors only at
     * multiples of {@code unit}, and 0 forbids splitting.
     */
    public static Op create(String name, boolean commutative, int unit, ArrayFunction f) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(f, "function");
        if (unit < 0) {
            throw new IllegalArgumentException("an op's unit is 0 (never split) or a positive element count, not " + unit);
        }
        return new Op(name, commutative, unit, null, f, null);
    }

    /** An element-wise op on {@code int[]}: {@code inout[i] = f(in[i], inout[i])}. */
    public static Op ofInts(IntBinaryOperator f, boolean commutative) {
        Objects.requireNonNull(f, "function");
        return new Op("user int op", commutative, 1, null, (in, inout, n) -> {
            int[] a = (int[]) in;
            int[] b = (int[]) inout;
            for (int i = 0; i < n; i++) {
                b[i] = f.applyAsInt(a[i], b[i]);
            }
        }, int[].class);
    }

    /** An element-wise op on {@code long[]}: {@code inout[i] = f(in[i], inout[i])}. */
    public static Op ofLongs(LongBinaryOperator f, boolean commutative) {
        Objects.requireNonNull(f, "function");
        return new Op("user long op", commutative, 1, null, (in, inout, n) -> {
            long[] a = (long[]) in;
            long[] b = (long[]) inout;
            for (int i = 0; i < n; i++) {
                b[i] = f.applyAsLong(a[i], b[i]);
            }
        }, long[].class);
    }

    /** An element-wise op on {@code double[]}: {@code inout[i] = f(in[i], inout[i])}. */
    public static Op ofDoubles(DoubleBinaryOperator f, boolean commutative) {
        Objects.requireNonNull(f, "function");
        return new Op("user double op", commutative, 1, null, (in, inout, n) -> {
            double[] a = (double[]) in;
            double[] b = (double[]) inout;
            for (int i = 0; i < n; i++) {
                b[i] = f.applyAsDouble(a[i], b[i]);
            }
        }, double[].class);
    }

    /** An element-wise op on {@code Object[]} of {@link Serializable} elements of type T. */
    @SuppressWarnings("unchecked")
    public static <T extends Serializable> Op ofObjects(BinaryOperator<T> f, boolean commutative) {
        Objects.requireNonNull(f, "function");
        return new Op("user object op", commutative, 1, null, (in, inout, n) -> {
            Object[] a = (Object[]) in;
            Object[] b = (Object[]) inout;
            for (int i = 0; i < n; i++) {
                b[i] = f.apply((T) a[i], (T) b[i]);
            }
        }, Object[].class);
    }

    public String name() {
        return name;
    }

    public boolean isCommutative() {
        return commutative;
    }

    /** Whether this is one of the predefined ops. */
    public boolean isPredefined() {
        return kernel != null;
    }

    /** Elements that form one value and are never split between pieces (0: never split the vector). */
    public int unit() {
        return unit;
    }

    /**
     * Checks, before any communication, that this op can combine arrays like {@code array} of
     * {@code count} elements; throws an {@link IllegalArgumentException} in one sentence otherwise.
     */
    public void check(Object array, int count) {
        Objects.requireNonNull(array, "array");
        if (kernel != null) {
            kernel.check(array, count);
        } else if (accepts != null && !accepts.isInstance(array)) {
            throw new IllegalArgumentException(name + " does not apply to " + typeName(array)
                    + "; it combines " + accepts.getSimpleName());
        } else if (unit > 1 && count % unit != 0) {
            throw new IllegalArgumentException(name + " combines groups of " + unit + " elements, but got "
                    + count + " elements");
        }
    }

    /** {@code inout[i] = in[i] op inout[i]} for the first {@code count} elements. */
    public void apply(Object in, Object inout, int count) {
        apply(in, 0, inout, 0, count);
    }

    /** {@code inout[inoutOffset + i] = in[inOffset + i] op inout[inoutOffset + i]} for i below {@code count}. */
    public void apply(Object in, int inOffset, Object inout, int inoutOffset, int count) {
        if (in.getClass() != inout.getClass() && !(in instanceof Object[] && inout instanceof Object[])) {
            throw new IllegalArgumentException(name + " combines arrays of one type, not " + typeName(in)
                    + " and " + typeName(inout));
        }
        if (count == 0) {
            return;
        }
        if (kernel != null) {
            kernel.apply(in, inOffset, inout, inoutOffset, count);
        } else if (inOffset == 0 && inoutOffset == 0) {
            function.apply(in, inout, count);
        } else {
            // The user's function sees arrays from index 0: combine copies of the two ranges.
            Object a = java.lang.reflect.Array.newInstance(in.getClass().getComponentType(), count);
            Object b = java.lang.reflect.Array.newInstance(in.getClass().getComponentType(), count);
            System.arraycopy(in, inOffset, a, 0, count);
            System.arraycopy(inout, inoutOffset, b, 0, count);
            function.apply(a, b, count);
            System.arraycopy(b, 0, inout, inoutOffset, count);
        }
    }

    private static String typeName(Object array) {
        return array == null ? "null" : array.getClass().getSimpleName();
    }

    @Override
    public String toString() {
        return name;
    }
}

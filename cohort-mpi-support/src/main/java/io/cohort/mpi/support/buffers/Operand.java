package io.cohort.mpi.support.buffers;

import io.cohort.mpi.support.BaseType;
import io.cohort.mpi.support.Layout;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;

/**
 * One buffer argument of a collective as Cohort's collectives take it: a carrier (the primitive
 * array of the base type, {@code Object[]} for objects, or a {@link ByteBuffer} of bytes) holding
 * {@code count} items of a {@link Layout} back to back. The items start at element {@code base} of
 * the program's buffer (an offset, or a block's start), item k at {@code base + k * extent}.
 *
 * <p>Where the program's buffer already is that carrier ({@link #direct}) it is handed to Cohort as
 * it is and nothing is copied either way; otherwise the items are packed into a new carrier (loaded
 * for an input, left empty for an output) and {@link #store()} copies the result back into the
 * buffer, leaving its other elements as they were.
 *
 * <p>The caller checks the buffer first (its type, that it holds the items); each API does that by
 * its own rules. Not thread-safe; one per call, of five fields (no bigger than the adapters the
 * two layers had each): an operand whose carrier is the buffer keeps no buffer, and the base type
 * to store back is the carrier's own.
 */
public final class Operand {
    /** What Cohort's collective takes for this argument. */
    public final Object carrier;
    /** Where the items go back to; null where there is nothing to store (the carrier is the buffer, or scratch). */
    private final Object buf;
    private final int base;
    private final int count;
    private final Layout layout;

    private Operand(Object carrier, Object buf, int base, int count, Layout layout) {
        this.carrier = carrier;
        this.buf = buf;
        this.base = base;
        this.count = count;
        this.layout = layout;
    }

    /**
     * The program's own storage as a carrier of {@code elements} base elements from its start, when
     * that needs no copy; else null. That is an array of the base type, of a contiguous layout, with
     * the items from element 0 ({@code base} 0), exactly {@code elements} long, or at least that long
     * where the collective reads only what it needs ({@code exact} false: a receive buffer Cohort
     * writes the first elements of); or, for bytes, a window of a {@link ByteBuffer} from index 0
     * (its position ignored). Allocates nothing but that window.
     */
    public static Object direct(Object buf, int base, int elements, Layout layout, int baseType, boolean exact) {
        if (base != 0 || !layout.contiguous || buf == null) {
            return null;
        }
        if (BaseType.isCarrier(buf, baseType)) {
            int len = Array.getLength(buf);
            return len == elements || !exact && len > elements ? buf : null;
        }
        if (buf instanceof ByteBuffer b && baseType == BaseType.BYTE) {
            ByteBuffer w = b.duplicate();
            w.clear();
            w.limit(elements);
            return w;
        }
        return null;
    }

    /**
     * Whether {@code buf} is exactly {@code elements} elements of its base type from element 0 with a
     * contiguous layout: an array Cohort can send, receive or combine as it is.
     */
    public static boolean whole(Object buf, int base, int elements, Layout layout, int baseType) {
        return base == 0 && layout.contiguous && buf != null && Array.getLength(buf) == elements
                && BaseType.isCarrier(buf, baseType);
    }

    /** {@code count} items of {@code buf} from element {@code base}, as a collective's input: the array itself when it is exactly them. */
    public static Operand input(Object buf, int base, int count, Layout layout, int baseType) {
        return of(buf, base, count, layout, baseType, true, true);
    }

    /**
     * The carrier {@link #input} would hold, without the operand: an input has nothing to store
     * back, so a call that only sends it need not make one.
     */
    public static Object inputCarrier(Object buf, int base, int count, Layout layout, int baseType) {
        Object d = direct(buf, base, count * layout.size, layout, baseType, true);
        return d != null ? d : Carriers.gather(buf, base, count, layout, baseType, true);
    }

    /**
     * Room for {@code count} items of {@code buf} from element {@code base}, as a collective's
     * output, stored back by {@link #store()}: the buffer itself where {@link #direct} allows it
     * ({@code exact} as there), else a new carrier, holding the buffer's items where {@code load}
     * (an argument that is both input and output, as a bcast's).
     */
    public static Operand output(Object buf, int base, int count, Layout layout, int baseType, boolean exact,
                                 boolean load) {
        return of(buf, base, count, layout, baseType, exact, load);
    }

    private static Operand of(Object buf, int base, int count, Layout layout, int baseType, boolean exact,
                              boolean load) {
        Object d = direct(buf, base, count * layout.size, layout, baseType, exact);
        if (d != null) {
            return new Operand(d, null, base, count, layout);
        }
        return new Operand(Carriers.gather(buf, base, count, layout, baseType, load), buf, base, count, layout);
    }

    /**
     * One carrier as a call's input and its result, in place: {@code count} items of {@code buf}
     * loaded (the array itself when it is exactly them), and the first {@code results} of them
     * stored back into the same items (fewer where a reduce-scatter keeps only this process's block).
     */
    public static Operand inPlace(Object buf, int base, int count, int results, Layout layout, int baseType) {
        Object d = direct(buf, base, count * layout.size, layout, baseType, true);
        return d != null ? new Operand(d, null, base, results, layout)
                : new Operand(Carriers.gather(buf, base, count, layout, baseType, true), buf, base, results, layout);
    }

    /** A carrier of {@code elements} base elements that belongs to no buffer (a result to drop): {@link #store()} does nothing. */
    public static Operand scratch(int baseType, int elements) {
        return new Operand(BaseType.newCarrier(baseType, elements), null, 0, 0, Layout.EMPTY);
    }


    /** Base elements the carrier holds for the items. */
    public int elements() {
        return count * layout.size;
    }

    /** Whether the carrier is the program's own storage (nothing is copied back). */
    public boolean own() {
        return buf == null;
    }

    /** Copies the carrier's items back into the program's buffer; nothing when the carrier is the buffer. */
    public void store() {
        if (buf != null) {
            Carriers.scatter(carrier, 0, buf, base, count, layout, BaseType.ofArray(carrier));
        }
    }
}

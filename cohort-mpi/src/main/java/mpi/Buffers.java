package mpi;

import io.cohort.mpi.support.BaseType;
import io.cohort.mpi.support.buffers.Blocks;
import io.cohort.mpi.support.buffers.Carriers;
import io.cohort.mpi.support.buffers.Operand;

import java.lang.reflect.Array;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * Moves items of a {@link Datatype} between a program's buffer and what Cohort sends: wire bytes
 * for point-to-point (little-endian values, as Cohort's typed sends encode them) and "carriers"
 * for collectives (a primitive array of the base type, or a {@link ByteBuffer} for byte types).
 *
 * <p>A buffer is a primitive array or an NIO buffer, direct or not, whose element 0 is the
 * buffer's index 0 (its position is ignored, as the bindings ignore it; {@link MPI#slice} makes a
 * buffer that starts further in). A {@code byte[]} or {@link ByteBuffer} may hold any base type,
 * read in the platform's byte order as raw memory is; a typed array or buffer holds its own type.
 * Where the buffer already is the wire form or the carrier (a direct {@code ByteBuffer} of bytes,
 * an {@code int[]} of exactly the items' length for a contiguous int type) nothing is copied.
 *
 * <p>This class holds the bindings' own rules (what a buffer may be, how much it holds, that item 0
 * is at index 0, that a receive buffer may be longer than the items); the mechanics are those both
 * MPI layers share, in {@link io.cohort.mpi.support.buffers}.
 *
 * <p>Threads: stateless; any thread.
 */
final class Buffers {
    private Buffers() {
    }

    // ---- checks ---------------------------------------------------------------------------------

    /** The base type a buffer holds, or -1 for byte[] / ByteBuffer (any), or -2 if it is no buffer. */
    private static int holds(Object buf) {
        if (buf instanceof ByteBuffer || buf instanceof byte[]) {
            return -1;
        } else if (buf instanceof int[] || buf instanceof IntBuffer) {
            return Datatype.INT;
        } else if (buf instanceof double[] || buf instanceof DoubleBuffer) {
            return Datatype.DOUBLE;
        } else if (buf instanceof long[] || buf instanceof LongBuffer) {
            return Datatype.LONG;
        } else if (buf instanceof float[] || buf instanceof FloatBuffer) {
            return Datatype.FLOAT;
        } else if (buf instanceof short[] || buf instanceof ShortBuffer) {
            return Datatype.SHORT;
        } else if (buf instanceof char[] || buf instanceof CharBuffer) {
            return Datatype.CHAR;
        } else if (buf instanceof boolean[]) {
            return Datatype.BOOLEAN;
        }
        return -2;
    }

    /** Buffer elements of the type's base type the buffer holds. */
    static int capacity(Object buf, Datatype t) {
        if (buf == null) {
            return 0;
        }
        if (buf instanceof ByteBuffer b) {
            return b.capacity() / t.baseSize;
        } else if (buf instanceof byte[] a) {
            return a.length / t.baseSize;
        } else if (buf instanceof Buffer b) {
            return b.capacity();
        }
        return Array.getLength(buf);
    }

    /** Elements {@code count} items span from index 0: the highest element index touched, plus one. */
    static long span(int count, Datatype t) {
        return t.layout.span(count);
    }

    /**
     * Checks that {@code buf} can hold {@code count} items of {@code t}; returns the error to raise, or null.
     *
     * @param what "send buffer", "receive buffer"...
     */
    static MPIException check(Object buf, int count, Datatype t, String what) {
        if (t != null && t.contiguous && count >= 0 && BaseType.isCarrier(buf, t.baseType) && t.isCommitted()
                && (long) count * t.size <= Array.getLength(buf)) {
            return null; // the common case of collectives: an array of the type's own elements that holds the items
        }
        return refusal(buf, count, t, what);
    }

    /**
     * {@link #check} past its common case. Kept apart so that {@code check} stays small enough for
     * the JIT to inline into every call: with the refusals' strings in it, it was too big to inline
     * and cost every collective of the layer a call.
     */
    private static MPIException refusal(Object buf, int count, Datatype t, String what) {
        if (t == null || t.baseType == Datatype.NULL) {
            return Errors.error(MPI.ERR_TYPE, "the " + what + "'s datatype is " + (t == null ? "null" : "MPI.DATATYPE_NULL"));
        }
        if (!t.isCommitted()) {
            return Errors.error(MPI.ERR_TYPE, "the " + what + "'s datatype " + t + " is not committed (or was freed);"
                    + " call commit() on it first");
        }
        if (count < 0) {
            return Errors.error(MPI.ERR_COUNT, "the " + what + "'s count is negative: " + count);
        }
        if (buf == null) {
            return count == 0 ? null : Errors.error(MPI.ERR_BUFFER, "the " + what + " is null");
        }
        int h = holds(buf);
        if (h == -2) {
            return Errors.error(MPI.ERR_BUFFER, "the " + what + " is a " + buf.getClass().getName()
                    + "; pass a primitive array or an NIO buffer");
        }
        if (h != -1 && h != t.baseType) {
            return Errors.error(MPI.ERR_TYPE, "the " + what + " holds " + Datatype.baseName(h) + " elements but its datatype "
                    + t + " is made of " + Datatype.baseName(t.baseType) + " elements");
        }
        if (t.trueLb < 0 && count > 0) {
            return Errors.error(MPI.ERR_BUFFER, "the " + what + "'s datatype " + t + " reaches before the buffer's start");
        }
        if (count > 0 && buf instanceof java.nio.Buffer nb && nb.isReadOnly()
                && (what.endsWith("receive buffer") || what.endsWith("in-out buffer") || what.endsWith("output buffer"))) {
            // Found now, before a message is taken from the queue only to be lost when it cannot be stored.
            return Errors.error(MPI.ERR_BUFFER, "the " + what + " is read-only; receive into a writable buffer");
        }
        long need = span(count, t);
        int cap = capacity(buf, t);
        if (need > cap) {
            return Errors.error(MPI.ERR_BUFFER, "the " + what + " holds " + cap + " " + Datatype.baseName(t.baseType)
                    + " elements but " + count + " items of " + t + " need " + need);
        }
        return null;
    }

    // ---- wire bytes (point-to-point) --------------------------------------------------------------

    /** Bytes {@code count} items carry on the wire. */
    static long wireBytes(int count, Datatype t) {
        return (long) count * t.size * t.baseSize;
    }

    /**
     * The buffer itself as the wire bytes of {@code count} items, when it holds raw bytes laid out
     * contiguously (a ByteBuffer or byte[] with a contiguous type): a window from index 0; else null.
     */
    static ByteBuffer rawWindow(Object buf, int count, Datatype t) {
        if (!t.contiguous || t.baseType == Datatype.BOOLEAN && !(buf instanceof ByteBuffer || buf instanceof byte[])) {
            return null;
        }
        int bytes = (int) wireBytes(count, t);
        if (buf instanceof ByteBuffer b) {
            ByteBuffer w = b.duplicate();
            w.clear();
            w.limit(bytes);
            return w;
        } else if (buf instanceof byte[] a) {
            return ByteBuffer.wrap(a, 0, bytes);
        } else if (buf == null) {
            return ByteBuffer.allocate(0);
        }
        return null;
    }

    /**
     * {@link #check} and {@link #rawWindow} in one pass for the common case of point-to-point
     * calls: a {@code byte[]} or {@code ByteBuffer} with a committed contiguous type that holds the
     * items. Returns the bytes they take from index 0, which Cohort's offset-and-length sends and
     * receives move without a view of the buffer; or -1 if that is not the case, and the caller
     * then makes the full check (which names what is wrong) and takes the general path.
     */
    static int checkedRawBytes(Object buf, int count, Datatype t) {
        if (t == null || !t.contiguous || count < 0 || !t.isCommitted()) {
            return -1;
        }
        int room;
        if (buf instanceof byte[] a) {
            room = a.length;
        } else if (buf instanceof ByteBuffer b) {
            room = b.limit(); // Cohort's windows stay within the limit; past it (rare) the general path makes a view
        } else {
            return -1;
        }
        long bytes = wireBytes(count, t);
        return bytes <= room - room % t.baseSize ? (int) bytes : -1;
    }

    /** The wire bytes of {@code count} items of {@code t} in {@code buf} (position 0 to limit). */
    static ByteBuffer pack(Object buf, int count, Datatype t) {
        ByteBuffer w = rawWindow(buf, count, t);
        if (w != null) {
            return w;
        }
        return Carriers.encode(buf, 0, count, t.layout, t.baseType);
    }

    /** Writes the wire bytes from {@code src}'s position into items of {@code t}, as far as they go. */
    static void unpack(ByteBuffer src, Object buf, int count, Datatype t) {
        Carriers.decode(src.duplicate(), buf, 0, count, t.layout, t.baseType);
    }

    // ---- carriers (collectives) -----------------------------------------------------------------

    /** A new carrier of {@code n} base elements: byte[] for byte types, else the primitive array. */
    static Object newCarrier(int baseType, int n) {
        return BaseType.newCarrier(baseType, n);
    }

    /**
     * The user's own storage as a carrier of exactly {@code elements} base elements from index 0
     * ({@code exact}), or of at least that many where the collective writes only the first ones,
     * when that needs no copy; else null.
     */
    static Object direct(Object buf, int elements, Datatype t, boolean exact) {
        return Operand.direct(buf, 0, elements, t.layout, t.baseType, exact);
    }

    /** A carrier holding exactly items [first, first + count) of {@code buf}, with their values: the buffer itself when it is them. */
    static Object input(Object buf, int first, int count, Datatype t) {
        return Operand.inputCarrier(buf, first * t.extent, count, t.layout, t.baseType);
    }

    /**
     * Where a collective writes {@code count} items for {@code buf}: the buffer itself when it is the
     * carrier (it may be longer: Cohort writes the first elements), else a carrier stored back by
     * {@link Operand#store()}, holding the buffer's items where {@code load}.
     */
    static Operand output(Object buf, int count, Datatype t, boolean load) {
        return Operand.output(buf, 0, count, t.layout, t.baseType, false, load);
    }

    /** Blocks of {@code counts[r]} items at {@code displs[r]} items (in extents of the type) of {@code buf}. */
    static Blocks blocks(Object buf, int[] counts, int[] displs, Datatype t, boolean load) {
        return new Blocks(buf, 0, counts, displs, t.layout, t.baseType, load);
    }
}

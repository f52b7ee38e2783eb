package io.cohort.mpi.support.buffers;

import io.cohort.mpi.support.BaseType;
import io.cohort.mpi.support.Layout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Moves items of a {@link Layout} between a program's buffer and what Cohort takes: a packed
 * carrier array for collectives (items back to back, {@code size} elements each, no gaps) and
 * little-endian wire bytes for point-to-point. Items start at element {@code base} of the buffer
 * (an offset into it, or a block's displacement), item k at {@code base + k * extent}.
 *
 * <p>Stateless; any thread.
 */
public final class Carriers {
    private Carriers() {
    }

    /** A new carrier holding {@code count} items of the buffer packed back to back (empty if {@code load} is false). */
    public static Object gather(Object buf, int base, int count, Layout t, int baseType, boolean load) {
        Object c = BaseType.newCarrier(baseType, count * t.size);
        if (load && buf != null) {
            copyOut(buf, base, count, t, baseType, c, 0);
        }
        return c;
    }

    /** Copies {@code count} items of the buffer into {@code carrier} from element {@code at}, packed. */
    public static void copyOut(Object buf, int base, int count, Layout t, int baseType, Object carrier, int at) {
        if (count == 0 || t.size == 0) {
            return;
        }
        ElementView v = new ElementView(buf, baseType);
        int[] cursor = {at};
        t.forEachRun(base, count, (from, n) -> {
            v.toArray(from, n, carrier, cursor[0]);
            cursor[0] += n;
        });
    }

    /** Writes {@code count} packed items of {@code carrier}, from element {@code at}, into the buffer's items. */
    public static void scatter(Object carrier, int at, Object buf, int base, int count, Layout t, int baseType) {
        if (count == 0 || t.size == 0 || carrier == buf && at == base && t.contiguous) {
            return;
        }
        ElementView v = new ElementView(buf, baseType);
        int[] cursor = {at};
        t.forEachRun(base, count, (to, n) -> {
            v.fromArray(carrier, cursor[0], to, n);
            cursor[0] += n;
        });
    }

    /** Bytes {@code count} items take on the wire. */
    public static long wireBytes(int count, Layout t, int baseType) {
        return (long) count * t.size * BaseType.bytes(baseType);
    }

    /** The wire bytes of {@code count} items (a new little-endian buffer, position 0 to limit). */
    public static ByteBuffer encode(Object buf, int base, int count, Layout t, int baseType) {
        ByteBuffer out = ByteBuffer.allocate((int) wireBytes(count, t, baseType)).order(ByteOrder.LITTLE_ENDIAN);
        encode(buf, base, count, t, baseType, out);
        return out.flip();
    }

    /** Appends the wire bytes of {@code count} items to {@code out} (little-endian), advancing it. */
    public static void encode(Object buf, int base, int count, Layout t, int baseType, ByteBuffer out) {
        if (count == 0 || t.size == 0) {
            return;
        }
        ElementView v = new ElementView(buf, baseType);
        t.forEachRun(base, count, (at, n) -> v.encode(at, n, out));
    }

    /**
     * Reads wire bytes from {@code src}'s position into {@code count} items of the buffer, as far
     * as the bytes go (a shorter message fills the first items); advances {@code src}.
     */
    public static void decode(ByteBuffer src, Object buf, int base, int count, Layout t, int baseType) {
        if (count == 0 || t.size == 0) {
            return;
        }
        ByteBuffer in = src.order() == ByteOrder.LITTLE_ENDIAN ? src : src.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        ElementView v = new ElementView(buf, baseType);
        int bs = BaseType.bytes(baseType);
        t.forEachRun(base, count, (at, n) -> {
            int m = Math.min(n, in.remaining() / bs);
            if (m > 0) {
                v.decode(in, at, m);
            }
        });
        if (in != src) {
            src.position(in.position());
        }
    }
}

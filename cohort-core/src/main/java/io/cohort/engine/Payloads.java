package io.cohort.engine;

import io.cohort.CohortException;
import io.cohort.ObjectBytes;
import io.cohort.ObjectRefusedException;
import io.cohort.Status;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Typed payloads to and from bytes: primitive arrays little-endian, objects by Java serialization
 * (read back through the {@link SerialFilter}). A received {@link io.cohort.Message} decodes its own
 * primitive arrays; its {@code asObject} comes here through the provider.
 */
public final class Payloads {
    private Payloads() {
    }

    private static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    public static byte[] of(int[] a) {
        byte[] b = new byte[Math.multiplyExact(a.length, Integer.BYTES)];
        le(b).asIntBuffer().put(a);
        return b;
    }

    public static byte[] of(long[] a) {
        byte[] b = new byte[Math.multiplyExact(a.length, Long.BYTES)];
        le(b).asLongBuffer().put(a);
        return b;
    }

    public static byte[] of(double[] a) {
        byte[] b = new byte[Math.multiplyExact(a.length, Double.BYTES)];
        le(b).asDoubleBuffer().put(a);
        return b;
    }

    public static byte[] of(float[] a) {
        byte[] b = new byte[Math.multiplyExact(a.length, Float.BYTES)];
        le(b).asFloatBuffer().put(a);
        return b;
    }

    public static byte[] of(short[] a) {
        byte[] b = new byte[Math.multiplyExact(a.length, Short.BYTES)];
        le(b).asShortBuffer().put(a);
        return b;
    }

    public static byte[] of(char[] a) {
        byte[] b = new byte[Math.multiplyExact(a.length, Character.BYTES)];
        le(b).asCharBuffer().put(a);
        return b;
    }

    /** {@link ObjectBytes#of}: what sendObject and the object collectives send. */
    public static byte[] ofObject(Object o) {
        return ObjectBytes.of(o);
    }

    private static int elements(Status s, int width, String type) {
        if (s.length() % width != 0) {
            throw new CohortException("message from rank " + s.source() + " (tag " + s.tag() + ") has " + s.length()
                    + " bytes, not a whole number of " + type + " values; was it sent with another type?");
        }
        return s.length() / width;
    }

    /** Decodes into a caller's array; the message must fit. */
    public static void into(byte[] b, Status s, Object array, int width, int capacity, String type) {
        int whole = elements(s, width, type);
        int n = Math.min(whole, capacity); // a longer message leaves the elements that fit, as a ByteBuffer receive does
        ByteBuffer bb = le(b);
        if (array instanceof int[] a) {
            bb.asIntBuffer().get(a, 0, n);
        } else if (array instanceof long[] a) {
            bb.asLongBuffer().get(a, 0, n);
        } else if (array instanceof double[] a) {
            bb.asDoubleBuffer().get(a, 0, n);
        } else {
            throw new IllegalArgumentException("unsupported array " + array.getClass());
        }
        if (whole > capacity) {
            throw new io.cohort.MessageTruncatedException(s, capacity * width);
        }
    }

    /**
     * Decodes an object another process serialized, through the {@link SerialFilter} the settings
     * name: a refused class or limit is an {@link ObjectRefusedException}, bytes that are no
     * object this peer can read a {@link CohortException}; either fails this call alone.
     */
    public static <T> T toObject(byte[] b, Status s) {
        return toObject(b, s.source() < 0 ? "a message" : "a message from rank " + s.source() + " (tag " + s.tag() + ")");
    }

    /** As {@link #toObject(byte[], Status)}, {@code what} naming the bytes ("the gather block from rank 2"). */
    @SuppressWarnings("unchecked")
    public static <T> T toObject(byte[] b, String what) {
        SerialFilter filter = SerialFilter.configured();
        SerialFilter.Check check = filter.forMessage(b.length);
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            in.setObjectInputFilter(check);
            return (T) in.readObject();
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            // RuntimeException too: hostile bytes reach a class's readObject (a negative size, a bad
            // load factor), which must cost this receive one sentence, not a trace of the JDK.
            if (check.refusal() != null) {
                throw new ObjectRefusedException("refused to deserialize " + what + ": " + check.refusal()
                        + (check.refusal().contains("jdk.serialFilter") ? "" : "; cohort run --serial-filter can widen it"), e);
            }
            if (e instanceof InvalidClassException && String.valueOf(e.getMessage()).contains("REJECTED")) {
                // A jdk.serialFilterFactory of the user's replaced this filter and refused.
                throw new ObjectRefusedException("refused to deserialize " + what + ": the JVM's serial filter"
                        + " factory (jdk.serialFilterFactory) rejected it", e);
            }
            throw new CohortException(what.substring(0, 1).toUpperCase(java.util.Locale.ROOT) + what.substring(1)
                    + " is not a serialized object this peer can read: " + e, e);
        }
    }
}

package io.cohort.engine;

import io.cohort.CohortException;
import io.cohort.Status;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Typed payloads to and from bytes: primitive arrays little-endian, objects by Java serialization. */
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

    public static byte[] ofObject(Object o) {
        if (o != null && !(o instanceof Serializable)) {
            throw new IllegalArgumentException(o.getClass().getName() + " is not Serializable; implement"
                    + " java.io.Serializable or send its bytes yourself");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        } catch (IOException e) {
            throw new CohortException("could not serialize " + o.getClass().getName() + ": " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    private static int elements(Status s, int width, String type) {
        if (s.length() % width != 0) {
            throw new CohortException("message from rank " + s.source() + " (tag " + s.tag() + ") has " + s.length()
                    + " bytes, not a whole number of " + type + " values; was it sent with another type?");
        }
        return s.length() / width;
    }

    public static int[] toInts(byte[] b, Status s) {
        int[] a = new int[elements(s, Integer.BYTES, "int")];
        le(b).asIntBuffer().get(a);
        return a;
    }

    public static long[] toLongs(byte[] b, Status s) {
        long[] a = new long[elements(s, Long.BYTES, "long")];
        le(b).asLongBuffer().get(a);
        return a;
    }

    public static double[] toDoubles(byte[] b, Status s) {
        double[] a = new double[elements(s, Double.BYTES, "double")];
        le(b).asDoubleBuffer().get(a);
        return a;
    }

    public static float[] toFloats(byte[] b, Status s) {
        float[] a = new float[elements(s, Float.BYTES, "float")];
        le(b).asFloatBuffer().get(a);
        return a;
    }

    public static short[] toShorts(byte[] b, Status s) {
        short[] a = new short[elements(s, Short.BYTES, "short")];
        le(b).asShortBuffer().get(a);
        return a;
    }

    public static char[] toChars(byte[] b, Status s) {
        char[] a = new char[elements(s, Character.BYTES, "char")];
        le(b).asCharBuffer().get(a);
        return a;
    }

    /** Decodes into a caller's array; the message must fit. */
    static void into(byte[] b, Status s, Object array, int width, int capacity, String type) {
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

    @SuppressWarnings("unchecked")
    public static <T> T toObject(byte[] b, Status s) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            return (T) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new CohortException("message from rank " + s.source() + " (tag " + s.tag()
                    + ") is not a serialized object this peer can read: " + e, e);
        }
    }
}

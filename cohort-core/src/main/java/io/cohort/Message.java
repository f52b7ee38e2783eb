package io.cohort;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A received message: its {@link Status} and the payload bytes, which belong to the receiver.
 * Typed views decode the bytes as they were encoded by the matching typed send (little-endian).
 */
public final class Message {
    private final Status status;
    private final byte[] payload;

    public Message(Status status, byte[] payload) {
        this.status = status;
        this.payload = payload;
    }

    public Status status() {
        return status;
    }

    public int source() {
        return status.source();
    }

    public int tag() {
        return status.tag();
    }

    public int length() {
        return status.length();
    }

    /** The payload itself (not a copy): the caller owns it. */
    public byte[] bytes() {
        return payload;
    }

    /** A read-only little-endian view of the payload. */
    public ByteBuffer buffer() {
        // asReadOnlyBuffer() resets the order to big-endian, so set the order afterwards.
        return ByteBuffer.wrap(payload).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    private ByteBuffer le() {
        return ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** How many values of {@code width} bytes the payload holds: all of it, or it was sent as another type. */
    private int elements(int width, String type) {
        if (status.length() % width != 0) {
            throw new CohortException("message from rank " + status.source() + " (tag " + status.tag() + ") has "
                    + status.length() + " bytes, not a whole number of " + type + " values; was it sent with another type?");
        }
        return status.length() / width;
    }

    public int[] asInts() {
        int[] a = new int[elements(Integer.BYTES, "int")];
        le().asIntBuffer().get(a);
        return a;
    }

    public long[] asLongs() {
        long[] a = new long[elements(Long.BYTES, "long")];
        le().asLongBuffer().get(a);
        return a;
    }

    public double[] asDoubles() {
        double[] a = new double[elements(Double.BYTES, "double")];
        le().asDoubleBuffer().get(a);
        return a;
    }

    public float[] asFloats() {
        float[] a = new float[elements(Float.BYTES, "float")];
        le().asFloatBuffer().get(a);
        return a;
    }

    public short[] asShorts() {
        short[] a = new short[elements(Short.BYTES, "short")];
        le().asShortBuffer().get(a);
        return a;
    }

    public char[] asChars() {
        char[] a = new char[elements(Character.BYTES, "char")];
        le().asCharBuffer().get(a);
        return a;
    }

    /**
     * Decodes a message sent with {@link Communicator#sendObject}, through the serial filter
     * ({@code cohort run --serial-filter}); may be called again, each call decoding afresh.
     *
     * @throws ObjectRefusedException if the filter refused the object: its class, or a limit (depth,
     *         objects, array length, bytes) named in the message; nothing else fails
     * @throws CohortException if the bytes are no object this peer can read
     */
    public <T> T asObject() {
        return CohortProvider.get().readObject(payload,
                status.source() < 0 ? "a message" : "a message from rank " + status.source() + " (tag " + status.tag() + ")");
    }

    @Override
    public String toString() {
        return "Message[source=" + source() + ", tag=" + tag() + ", length=" + length() + "]";
    }
}

package io.cohort;

import io.cohort.engine.Payloads;

import java.nio.ByteBuffer;

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
        return ByteBuffer.wrap(payload).asReadOnlyBuffer().order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    public int[] asInts() {
        return Payloads.toInts(payload, status);
    }

    public long[] asLongs() {
        return Payloads.toLongs(payload, status);
    }

    public double[] asDoubles() {
        return Payloads.toDoubles(payload, status);
    }

    public float[] asFloats() {
        return Payloads.toFloats(payload, status);
    }

    public short[] asShorts() {
        return Payloads.toShorts(payload, status);
    }

    public char[] asChars() {
        return Payloads.toChars(payload, status);
    }

    /** Decodes a message sent with {@link Communicator#sendObject}. */
    public <T> T asObject() {
        return Payloads.toObject(payload, status);
    }

    @Override
    public String toString() {
        return "Message[source=" + source() + ", tag=" + tag() + ", length=" + length() + "]";
    }
}

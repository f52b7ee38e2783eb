package io.cohort.broadcast.pcode;

import java.nio.ByteBuffer;

/**
 * One sender's input slot (section 3: "a set of input buffers, one for each sender"): holds the
 * one message from that sender that this peer accepted and has not yet delivered. Separate slots
 * per sender give non-interference: a message nobody requests yet blocks only its own sender.
 * Fragments are appended in personal-count order; the message is ready when all bytes are in.
 *
 * <p>The message's length comes from its first frame, so the slot's buffer grows with the bytes that
 * arrive (doubling, from at most {@link #FIRST_ALLOCATION}) instead of being allocated at that length
 * at once: a length field never allocates more than twice the bytes that came with it.
 *
 * <p>Threads: the domain's lock.
 */
final class InputSlot {
    /** The most the first fragment allocates beyond its own bytes. */
    static final int FIRST_ALLOCATION = 64 * 1024;

    private byte[] message;
    /** The message's length, from its first fragment. */
    private int total;
    private int assembled;
    private long position;
    private long[] targets;

    boolean isFree() {
        return message == null;
    }

    boolean isReady() {
        return message != null && assembled == total;
    }

    /**
     * Whether the fragment at {@code offset} of a message of {@code length} bytes multicast at
     * {@code position} is the one this slot takes next. A continuing fragment must agree with the
     * first on length and position, or it could write past the message.
     */
    boolean accepts(int offset, int length, long position) {
        if (message == null) {
            return offset == 0;
        }
        return assembled < total && offset == assembled && length == total && position == this.position;
    }

    /** Appends a fragment of a DATA frame that {@link #accepts(int, int, long)} said yes to. */
    void put(ByteBuffer frame, int payloadOffset, long[] frameTargets) {
        int offset = DataFrameDescriptor.fragmentOffset(frame);
        int length = DataFrameDescriptor.fragmentLength(frame);
        if (offset == 0) {
            total = DataFrameDescriptor.messageLength(frame);
            message = new byte[Math.min(total, Math.max(length, FIRST_ALLOCATION))];
            assembled = 0;
            position = DataFrameDescriptor.position(frame);
            targets = frameTargets;
        }
        if (offset + length > message.length) {
            // Doubling keeps the copies to twice the message; never beyond its length (the validator
            // checked that offset + length <= total).
            message = java.util.Arrays.copyOf(message, (int) Math.min(total,
                    Math.max((long) offset + length, 2L * message.length)));
        }
        frame.get(payloadOffset, message, offset, length);
        assembled += length;
    }

    /** Bytes the slot holds room for now (tests). */
    int capacity() {
        return message == null ? 0 : message.length;
    }

    long position() {
        return position;
    }

    long[] targets() {
        return targets;
    }

    /** Hands the ready message over and frees the slot. */
    byte[] take() {
        byte[] m = message;
        message = null;
        targets = null;
        assembled = 0;
        total = 0;
        return m; // its length is total: isReady() held, and the buffer never grows past total
    }
}

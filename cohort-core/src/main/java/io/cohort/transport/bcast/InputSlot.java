package io.cohort.transport.bcast;

import java.nio.ByteBuffer;

/**
 * One sender's input slot (section 3: "a set of input buffers, one for each sender"): holds the
 * one message from that sender that this peer accepted and has not yet delivered. Separate slots
 * per sender give non-interference: a message nobody requests yet blocks only its own sender.
 * Fragments are appended in personal-count order; the message is ready when all bytes are in.
 *
 * <p>Threads: the domain's lock.
 */
final class InputSlot {
    private byte[] message;
    private int assembled;
    private long position;
    private long[] targets;

    boolean isFree() {
        return message == null;
    }

    boolean isReady() {
        return message != null && assembled == message.length;
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
        return assembled < message.length && offset == assembled && length == message.length
                && position == this.position;
    }

    /** Appends a fragment of a DATA frame that {@link #accepts(int, int, long)} said yes to. */
    void put(ByteBuffer frame, int payloadOffset, long[] frameTargets) {
        int offset = DataFrameDescriptor.fragmentOffset(frame);
        int length = DataFrameDescriptor.fragmentLength(frame);
        if (offset == 0) {
            message = new byte[DataFrameDescriptor.messageLength(frame)];
            assembled = 0;
            position = DataFrameDescriptor.position(frame);
            targets = frameTargets;
        }
        frame.get(payloadOffset, message, offset, length);
        assembled += length;
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
        return m;
    }
}

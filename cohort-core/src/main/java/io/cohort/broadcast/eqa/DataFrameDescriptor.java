package io.cohort.broadcast.eqa;

import java.nio.ByteBuffer;

/**
 * A DATA frame (type {@link EqaHeaderDescriptor#TYPE_DATA}): one packet of a sender's broadcast
 * stream, broadcast to all receivers, or resent point to point to one. Little-endian, after the
 * 24-byte header:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  header (24 bytes); flags RESEND, ACK_REQUEST, PUSH, PUSH_END |  0
 *  +---------------------------------------------------------------+
 *  |  sequence (int64): packet number in the sender's stream,      | 24
 *  |  from 0; receivers find gaps by it (go-back-N)                |
 *  +---------------------------------------------------------------+
 *  |  message (int64): message number in the sender's stream       | 32
 *  +---------------------------------------------------------------+
 *  |  message length (int32): whole message, bytes                | 40
 *  +---------------------------------------------------------------+
 *  |  fragment offset (int32): where this payload goes              | 44
 *  +---------------------------------------------------------------+
 *  |  fragment length (int32): payload bytes in this frame          | 48
 *  +---------------------------------------------------------------+
 *  |  designated receiver (int32): the rank that answers the push   | 52
 *  |  with a PULL; -1 outside the push phase                       |
 *  +---------------------------------------------------------------+
 *  |  payload (fragment length bytes)                              | 56
 * </pre>
 *
 * <p>Threads: stateless; any thread, on a buffer that thread owns.
 */
public final class DataFrameDescriptor {
    public static final int SEQUENCE_OFFSET = 24;
    public static final int MESSAGE_OFFSET = 32;
    public static final int MESSAGE_LENGTH_OFFSET = 40;
    public static final int FRAGMENT_OFFSET_OFFSET = 44;
    public static final int FRAGMENT_LENGTH_OFFSET = 48;
    public static final int DESIGNATED_OFFSET = 52;
    public static final int PAYLOAD_OFFSET = 56;

    private DataFrameDescriptor() {
    }

    public static void write(ByteBuffer b, long sequence, long message, int messageLength, int fragmentOffset,
                             int fragmentLength, int designated) {
        b.putLong(SEQUENCE_OFFSET, sequence);
        b.putLong(MESSAGE_OFFSET, message);
        b.putInt(MESSAGE_LENGTH_OFFSET, messageLength);
        b.putInt(FRAGMENT_OFFSET_OFFSET, fragmentOffset);
        b.putInt(FRAGMENT_LENGTH_OFFSET, fragmentLength);
        b.putInt(DESIGNATED_OFFSET, designated);
    }

    public static long sequence(ByteBuffer b) {
        return b.getLong(SEQUENCE_OFFSET);
    }

    public static long message(ByteBuffer b) {
        return b.getLong(MESSAGE_OFFSET);
    }

    public static int messageLength(ByteBuffer b) {
        return b.getInt(MESSAGE_LENGTH_OFFSET);
    }

    public static int fragmentOffset(ByteBuffer b) {
        return b.getInt(FRAGMENT_OFFSET_OFFSET);
    }

    public static int fragmentLength(ByteBuffer b) {
        return b.getInt(FRAGMENT_LENGTH_OFFSET);
    }

    public static int designated(ByteBuffer b) {
        return b.getInt(DESIGNATED_OFFSET);
    }
}

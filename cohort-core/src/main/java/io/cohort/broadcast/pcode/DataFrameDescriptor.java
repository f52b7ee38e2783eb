package io.cohort.broadcast.pcode;

import java.nio.ByteBuffer;

/**
 * A REGULAR message frame (type {@link BcastHeaderDescriptor#TYPE_DATA}): one fragment of one
 * multicast. Little-endian, after the 32-byte header:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  header (32 bytes, {@link BcastHeaderDescriptor})             |  0
 *  +---------------------------------------------------------------+
 *  |  personal count (int64): this frame's number in its sender's  | 32
 *  |  stream (broadcast, or point-to-point with FLAG_P2P)           |
 *  +---------------------------------------------------------------+
 *  |  position (int64): the sender's call number in the program    | 40
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                  message length (int32)                       | 48
 *  +---------------------------------------------------------------+
 *  |                  fragment offset (int32)                      | 52
 *  +---------------------------------------------------------------+
 *  |                  fragment length (int32)                      | 56
 *  +---------------------------------------------------------------+
 *  |                  reserved (0)                                 | 60
 *  +---------------------------------------------------------------+
 *  |  target set: ceil(N/64) int64 words, bit r = rank r           | 64
 *  +---------------------------------------------------------------+
 *  |  fragment bytes (fragment length)                             | 64 + 8 * words
 * </pre>
 *
 * Personal counters count frames, not messages: a message larger than one datagram is sent as
 * consecutive frames, so loss recovery and the sent buffer work per datagram and reassembly is a
 * plain append (frames of one sender are accepted in counter order).
 */
public final class DataFrameDescriptor {
    public static final int PERSONAL_COUNT_OFFSET = 32;
    public static final int POSITION_OFFSET = 40;
    public static final int MESSAGE_LENGTH_OFFSET = 48;
    public static final int FRAGMENT_OFFSET_OFFSET = 52;
    public static final int FRAGMENT_LENGTH_OFFSET = 56;
    public static final int RESERVED_OFFSET = 60;
    public static final int TARGETS_OFFSET = 64;

    private DataFrameDescriptor() {
    }

    /** Words of the target bitmap for a domain of {@code size} peers. */
    public static int targetWords(int size) {
        return (size + 63) >>> 6;
    }

    /** Where the fragment bytes start in a domain of {@code size} peers. */
    public static int payloadOffset(int size) {
        return TARGETS_OFFSET + 8 * targetWords(size);
    }

    public static void write(ByteBuffer b, long personalCount, long position, int messageLength, int fragmentOffset,
                             int fragmentLength, long[] targets) {
        b.putLong(PERSONAL_COUNT_OFFSET, personalCount);
        b.putLong(POSITION_OFFSET, position);
        b.putInt(MESSAGE_LENGTH_OFFSET, messageLength);
        b.putInt(FRAGMENT_OFFSET_OFFSET, fragmentOffset);
        b.putInt(FRAGMENT_LENGTH_OFFSET, fragmentLength);
        b.putInt(RESERVED_OFFSET, 0);
        for (int i = 0; i < targets.length; i++) {
            b.putLong(TARGETS_OFFSET + 8 * i, targets[i]);
        }
    }

    public static long personalCount(ByteBuffer b) {
        return b.getLong(PERSONAL_COUNT_OFFSET);
    }

    public static long position(ByteBuffer b) {
        return b.getLong(POSITION_OFFSET);
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

    public static long targetWord(ByteBuffer b, int word) {
        return b.getLong(TARGETS_OFFSET + 8 * word);
    }
}

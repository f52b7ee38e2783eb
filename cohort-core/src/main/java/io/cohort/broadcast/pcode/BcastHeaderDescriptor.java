package io.cohort.broadcast.pcode;

import java.nio.ByteBuffer;

/**
 * The 32-byte header in front of every PCODE datagram. Little-endian:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  magic 0x45444F43 ("CODE")                    |  0
 *  +---------------+---------------+-------------------------------+
 *  |  version (u8) |   type (u8)   |          flags (u16)          |  4
 *  +---------------+---------------+-------------------------------+
 *  |                 domain key (int64): the job's tag             |  8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     sender rank (int32)                       | 16
 *  +-------------------------------+-------------------------------+
 *  |      domain size N (u16)      |         reserved (0)          | 20
 *  +-------------------------------+-------------------------------+
 *  |      global counter (int64): original on DATA of the          | 24
 *  |      broadcast stream, non-original (PROGRESS) elsewhere      |
 *  +---------------------------------------------------------------+
 *  |  type-specific body: {@link DataFrameDescriptor},             | 32
 *  |  {@link NackFrameDescriptor}, {@link StatusFrameDescriptor}   |
 * </pre>
 *
 * A datagram is written whole into one buffer and handed to the socket in one call, so there is no
 * publishing order to respect. The receiver checks magic, version, key, size and rank before it
 * looks at the body; anything else is counted and dropped ({@link FrameValidator}).
 */
public final class BcastHeaderDescriptor {
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int TYPE_OFFSET = 5;
    public static final int FLAGS_OFFSET = 6;
    public static final int KEY_OFFSET = 8;
    public static final int SENDER_OFFSET = 16;
    public static final int SIZE_OFFSET = 20;
    public static final int GLOBAL_COUNTER_OFFSET = 24;
    public static final int HEADER_LENGTH = 32;

    public static final int MAGIC = 0x45444F43;
    public static final int VERSION = 1;

    public static final int TYPE_DATA = 1;
    public static final int TYPE_NACK = 2;
    public static final int TYPE_STATUS = 3;

    /** The frame belongs to the point-to-point stream of its sender (section 5.6), not the broadcast one. */
    public static final int FLAG_P2P = 1;
    /** The sender asks for PROGRESS: every receiver should send a STATUS soon (section 5.2). */
    public static final int FLAG_PROGRESS_REQUEST = 2;
    /** The frame is a retransmission (for counting only; its content is that of the original). */
    public static final int FLAG_RESEND = 4;
    /** STATUS only: the sender's program has ended; it needs nothing more and lingers only to answer NACKs. */
    public static final int FLAG_CLOSING = 8;

    private BcastHeaderDescriptor() {
    }

    public static void write(ByteBuffer b, int type, int flags, long key, int sender, int size, long globalCounter) {
        b.putInt(MAGIC_OFFSET, MAGIC);
        b.put(VERSION_OFFSET, (byte) VERSION);
        b.put(TYPE_OFFSET, (byte) type);
        b.putShort(FLAGS_OFFSET, (short) flags);
        b.putLong(KEY_OFFSET, key);
        b.putInt(SENDER_OFFSET, sender);
        b.putShort(SIZE_OFFSET, (short) size);
        b.putShort(SIZE_OFFSET + 2, (short) 0);
        b.putLong(GLOBAL_COUNTER_OFFSET, globalCounter);
    }

    public static int magic(ByteBuffer b) {
        return b.getInt(MAGIC_OFFSET);
    }

    public static int version(ByteBuffer b) {
        return b.get(VERSION_OFFSET) & 0xFF;
    }

    public static int type(ByteBuffer b) {
        return b.get(TYPE_OFFSET) & 0xFF;
    }

    public static int flags(ByteBuffer b) {
        return b.getShort(FLAGS_OFFSET) & 0xFFFF;
    }

    public static void flags(ByteBuffer b, int flags) {
        b.putShort(FLAGS_OFFSET, (short) flags);
    }

    public static long key(ByteBuffer b) {
        return b.getLong(KEY_OFFSET);
    }

    public static int sender(ByteBuffer b) {
        return b.getInt(SENDER_OFFSET);
    }

    public static int size(ByteBuffer b) {
        return b.getShort(SIZE_OFFSET) & 0xFFFF;
    }

    public static long globalCounter(ByteBuffer b) {
        return b.getLong(GLOBAL_COUNTER_OFFSET);
    }
}

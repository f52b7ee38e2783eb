package io.cohort.transport.tcp;

import java.nio.ByteBuffer;

/**
 * The first bytes on every new connection, sent by both ends. Little-endian, 24 bytes:
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                 magic 0x54484F43 ("COHT")                     |  0
 *  +-------------------------------+-------------------------------+
 *  |        version (int16)        |        reserved (int16)       |  4
 *  +-------------------------------+-------------------------------+
 *  |                      job key (int64)                          |  8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     sender's rank (int32)                     | 16
 *  +---------------------------------------------------------------+
 *  |                        job size (int32)                       | 20
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * A connection whose handshake has another magic, version, job key or size, or an impossible
 * rank, is closed and counted; it never becomes a peer.
 */
public final class HandshakeDescriptor {
    public static final int MAGIC = 0x54484F43;
    public static final short VERSION = 1;
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int JOB_KEY_OFFSET = 8;
    public static final int RANK_OFFSET = 16;
    public static final int SIZE_OFFSET = 20;
    public static final int LENGTH = 24;

    private HandshakeDescriptor() {
    }

    public static void write(ByteBuffer b, long jobKey, int rank, int size) {
        int p = b.position();
        b.putInt(p + MAGIC_OFFSET, MAGIC);
        b.putShort(p + VERSION_OFFSET, VERSION);
        b.putShort(p + VERSION_OFFSET + 2, (short) 0);
        b.putLong(p + JOB_KEY_OFFSET, jobKey);
        b.putInt(p + RANK_OFFSET, rank);
        b.putInt(p + SIZE_OFFSET, size);
        b.position(p + LENGTH);
    }

    /** Returns the sender's rank, or -1 if the handshake is not one of this job's. */
    public static int validate(ByteBuffer b, int at, long jobKey, int size) {
        if (b.getInt(at + MAGIC_OFFSET) != MAGIC || b.getShort(at + VERSION_OFFSET) != VERSION
                || b.getLong(at + JOB_KEY_OFFSET) != jobKey || b.getInt(at + SIZE_OFFSET) != size) {
            return -1;
        }
        int rank = b.getInt(at + RANK_OFFSET);
        return rank >= 0 && rank < size ? rank : -1;
    }
}

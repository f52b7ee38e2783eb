package io.cohort.broadcast.eqa;

import java.nio.ByteBuffer;

/**
 * The 24-byte header in front of every EQA datagram. Little-endian:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                  magic 0x31415145 ("EQA1")                    |  0
 *  +---------------+---------------+-------------------------------+
 *  |  version (u8) |   type (u8)   |          flags (u16)          |  4
 *  +---------------+---------------+-------------------------------+
 *  |               group key (int64): the job's broadcast tag      |  8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     sender rank (int32)                       | 16
 *  +-------------------------------+-------------------------------+
 *  |       group size N (u16)      |   target (u16): see below     | 20
 *  +-------------------------------+-------------------------------+
 *  |  body: {@link DataFrameDescriptor}, {@link AckFrameDescriptor}, | 24
 *  |  {@link PullFrameDescriptor}                                  |
 * </pre>
 *
 * The target names the member an ACK or PULL is for, the sender whose stream it acknowledges; it is
 * inside the signed bytes, so an ACK captured on its way to one sender and replayed to another is
 * dropped ({@link EqaCounters.Counter#DROPPED_NOT_FOR_US}) instead of moving the wrong stream's
 * cursor. DATA frames carry 0 there and are dropped as malformed otherwise.
 *
 * <p>A frame is written whole into one buffer and handed to the socket in one call, so there is no
 * publishing order. Receivers check magic, version, key, size and rank before the body
 * ({@link EqaFrameValidator}); anything else is counted and dropped.
 *
 * <p>Threads: stateless; any thread, on a buffer that thread owns.
 */
public final class EqaHeaderDescriptor {
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int TYPE_OFFSET = 5;
    public static final int FLAGS_OFFSET = 6;
    public static final int KEY_OFFSET = 8;
    public static final int SENDER_OFFSET = 16;
    public static final int SIZE_OFFSET = 20;
    /** ACK and PULL: the rank of the sender they acknowledge; DATA: 0. */
    public static final int TARGET_OFFSET = 22;
    public static final int HEADER_LENGTH = 24;

    public static final int MAGIC = 0x31415145;
    public static final int VERSION = 1;

    public static final int TYPE_DATA = 1;
    public static final int TYPE_ACK = 2;
    public static final int TYPE_PULL = 3;

    /** DATA: a retransmission, sent point to point (counted apart; content as the original). */
    public static final int FLAG_RESEND = 1;
    /** DATA: the receiver should acknowledge now, even mid-message (last packet of a resend burst). */
    public static final int FLAG_ACK_REQUEST = 2;
    /** DATA: the packet belongs to the push phase of a Push-Pull message. */
    public static final int FLAG_PUSH = 4;
    /** DATA: the last pushed packet; the designated receiver answers it with a PULL. */
    public static final int FLAG_PUSH_END = 8;
    /** ACK: sent because a packet after a gap arrived (a go-back-N request), not as routine. */
    public static final int FLAG_GAP = 16;

    private EqaHeaderDescriptor() {
    }

    public static void write(ByteBuffer b, int type, int flags, long key, int sender, int size) {
        b.putInt(MAGIC_OFFSET, MAGIC);
        b.put(VERSION_OFFSET, (byte) VERSION);
        b.put(TYPE_OFFSET, (byte) type);
        b.putShort(FLAGS_OFFSET, (short) flags);
        b.putLong(KEY_OFFSET, key);
        b.putInt(SENDER_OFFSET, sender);
        b.putShort(SIZE_OFFSET, (short) size);
        b.putShort(TARGET_OFFSET, (short) 0);
    }

    public static int target(ByteBuffer b) {
        return b.getShort(TARGET_OFFSET) & 0xFFFF;
    }

    /** Names the sender an ACK or PULL is for (after {@link #write}, which leaves 0). */
    public static void target(ByteBuffer b, int target) {
        b.putShort(TARGET_OFFSET, (short) target);
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
}

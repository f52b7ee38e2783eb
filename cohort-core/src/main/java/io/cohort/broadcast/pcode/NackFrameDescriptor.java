package io.cohort.broadcast.pcode;

import java.nio.ByteBuffer;

/**
 * A NACK frame (type {@link BcastHeaderDescriptor#TYPE_NACK}): "send me again what I miss".
 * Little-endian, after the 32-byte header:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  header (32 bytes); flags: FLAG_P2P for the p2p stream         |  0
 *  +---------------------------------------------------------------+
 *  |  kind (int32): 1 REQUEST, 2 PERSONAL_GAP, 3 GLOBAL_GAP         | 32
 *  +---------------------------------------------------------------+
 *  |  about (int32): the rank whose frames are missing; -1 GLOBAL   | 36
 *  +---------------------------------------------------------------+
 *  |  last received (int64): pcv[about] at the NACK's sender        | 40
 *  +---------------------------------------------------------------+
 *  |  from (int64): REQUEST / PERSONAL: unused (0); GLOBAL: lowest  | 48
 *  |  missing global counter                                        |
 *  +---------------------------------------------------------------+
 *  |  to (int64): REQUEST / PERSONAL: highest personal count        | 56
 *  |  wanted; GLOBAL: highest missing global counter                |
 *  +---------------------------------------------------------------+
 *  |  GLOBAL only: the sender's pcv, N int64 (whoever finds its     | 64
 *  |  own frames in the range resends those above pcv[self])        |
 * </pre>
 *
 * REQUEST and PERSONAL_GAP NACKs go by unicast to {@code about} (section 5.6); GLOBAL_GAP NACKs
 * are broadcast, since the sender of a lost frame is unknown (section 5.3).
 */
public final class NackFrameDescriptor {
    public static final int KIND_OFFSET = 32;
    public static final int ABOUT_OFFSET = 36;
    public static final int LAST_RECEIVED_OFFSET = 40;
    public static final int FROM_OFFSET = 48;
    public static final int TO_OFFSET = 56;
    public static final int PCV_OFFSET = 64;
    public static final int LENGTH = 64;

    public static final int KIND_REQUEST = 1;
    public static final int KIND_PERSONAL_GAP = 2;
    public static final int KIND_GLOBAL_GAP = 3;

    private NackFrameDescriptor() {
    }

    /** The frame's length: 64 bytes, plus the pcv for a GLOBAL_GAP NACK. */
    public static int length(int kind, int size) {
        return kind == KIND_GLOBAL_GAP ? PCV_OFFSET + 8 * size : LENGTH;
    }

    public static void write(ByteBuffer b, int kind, int about, long lastReceived, long from, long to) {
        b.putInt(KIND_OFFSET, kind);
        b.putInt(ABOUT_OFFSET, about);
        b.putLong(LAST_RECEIVED_OFFSET, lastReceived);
        b.putLong(FROM_OFFSET, from);
        b.putLong(TO_OFFSET, to);
    }

    public static int kind(ByteBuffer b) {
        return b.getInt(KIND_OFFSET);
    }

    public static int about(ByteBuffer b) {
        return b.getInt(ABOUT_OFFSET);
    }

    public static long lastReceived(ByteBuffer b) {
        return b.getLong(LAST_RECEIVED_OFFSET);
    }

    public static long from(ByteBuffer b) {
        return b.getLong(FROM_OFFSET);
    }

    public static long to(ByteBuffer b) {
        return b.getLong(TO_OFFSET);
    }

    public static long pcv(ByteBuffer b, int rank) {
        return b.getLong(PCV_OFFSET + 8 * rank);
    }
}

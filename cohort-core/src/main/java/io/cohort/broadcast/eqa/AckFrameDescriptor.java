package io.cohort.broadcast.eqa;

import java.nio.ByteBuffer;

/**
 * An ACK frame (type {@link EqaHeaderDescriptor#TYPE_ACK}), receiver to sender, point to point:
 * "I hold every packet of your stream below {@code next}". It moves that receiver's cursor in
 * the sender's retransmission buffer. With {@link EqaHeaderDescriptor#FLAG_GAP} it is also a
 * go-back-N request: a later packet arrived, so resend to me from {@code next} on. Little-endian:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  header (24 bytes); sender = the receiver that acknowledges;  |  0
 *  |  target = the sender acknowledged; flags: GAP                 |
 *  +---------------------------------------------------------------+
 *  |  next (int64): the first sequence number not yet received     | 24
 *  +---------------------------------------------------------------+
 *                                                                    32 = LENGTH
 * </pre>
 *
 * <p>Threads: stateless; any thread, on a buffer that thread owns.
 */
public final class AckFrameDescriptor {
    public static final int NEXT_OFFSET = 24;
    public static final int LENGTH = 32;

    private AckFrameDescriptor() {
    }

    public static void write(ByteBuffer b, long next) {
        b.putLong(NEXT_OFFSET, next);
    }

    public static long next(ByteBuffer b) {
        return b.getLong(NEXT_OFFSET);
    }
}

package io.cohort.broadcast.eqa;

import java.nio.ByteBuffer;

/**
 * A PULL frame (type {@link EqaHeaderDescriptor#TYPE_PULL}): the Push-Pull acknowledgement that
 * only the designated receiver of a message sends, point to point, once it holds every pushed
 * packet: "push of {@code message} done, send the rest". It also acknowledges like an ACK.
 * Little-endian:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  header (24 bytes); sender = the designated receiver;         |  0
 *  |  target = the sender acknowledged                             |
 *  +---------------------------------------------------------------+
 *  |  message (int64): the message whose push phase is complete    | 24
 *  +---------------------------------------------------------------+
 *  |  next (int64): the first sequence number not yet received     | 32
 *  +---------------------------------------------------------------+
 *                                                                    40 = LENGTH
 * </pre>
 *
 * <p>Threads: stateless; any thread, on a buffer that thread owns.
 */
public final class PullFrameDescriptor {
    public static final int MESSAGE_OFFSET = 24;
    public static final int NEXT_OFFSET = 32;
    public static final int LENGTH = 40;

    private PullFrameDescriptor() {
    }

    public static void write(ByteBuffer b, long message, long next) {
        b.putLong(MESSAGE_OFFSET, message);
        b.putLong(NEXT_OFFSET, next);
    }

    public static long message(ByteBuffer b) {
        return b.getLong(MESSAGE_OFFSET);
    }

    public static long next(ByteBuffer b) {
        return b.getLong(NEXT_OFFSET);
    }
}

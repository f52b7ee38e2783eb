package io.cohort.daemon;

import java.nio.ByteBuffer;

/**
 * The one frame a daemon sends without the cluster key: why it is closing a connection before
 * answering it. Without it a client sees only the end of the stream, and cannot tell a daemon that is
 * busy or flooded from one that refused its request (a different cluster key, clocks apart). Its shape
 * starts like every {@link DaemonFrame} and is shorter than any sealed frame, so no sealed frame is
 * mistaken for it:
 *
 * <pre>
 *  offset  size  field
 *   0       4    frame length: {@value #LENGTH}
 *   4       2    magic 0x4344 ("CD")
 *   6       1    version (1)
 *   7       1    type {@value #TYPE} (reserved in {@link MessageType})
 *   8       1    reason ({@link Reason} code)
 *   9       4    retry after: ms a client should wait before asking again (only for {@link Reason#PREDATES_START})
 * </pre>
 *
 * Not authenticated (the client may not hold the key the daemon would seal with): a client only words its
 * failure after it, and never acts on it beyond one retry, so a forged notice can cost a failed request,
 * which whoever can inject it could cause anyway by resetting the connection.
 */
record RefusalNotice(Reason reason, int retryAfterMillis) {
    static final int LENGTH = 13;
    static final int TYPE = 66;

    /** Why the daemon closes; codes are part of the wire format. */
    enum Reason {
        /** Too many connections were waiting to authenticate, or every authenticated place is taken. */
        BUSY(1),
        /** No authentic frame arrived within {@code daemon.auth_timeout}. */
        AUTH_TIMEOUT(2),
        /** The request's MAC does not verify: another cluster key. */
        BAD_MAC(3),
        /** The request's timestamp is further from the daemon's clock than {@code daemon.max_skew}. */
        STALE(4),
        /** The request's nonce was seen before. */
        REPLAYED(5),
        /** The request is time-stamped before the daemon started: a replay, or the client's clock is behind. */
        PREDATES_START(6);

        final int code;

        Reason(int code) {
            this.code = code;
        }

        static Reason of(int code) {
            for (Reason r : values()) {
                if (r.code == code) {
                    return r;
                }
            }
            return null;
        }
    }

    /** The notice for a frame refused for {@code r}, or null when the refusal is not told (malformed, foreign, ...). */
    static RefusalNotice of(Refusal r, int retryAfterMillis) {
        return switch (r) {
            case BAD_MAC -> new RefusalNotice(Reason.BAD_MAC, 0);
            case STALE -> new RefusalNotice(Reason.STALE, 0);
            case REPLAYED -> new RefusalNotice(Reason.REPLAYED, 0);
            case PREDATES_START -> new RefusalNotice(Reason.PREDATES_START, retryAfterMillis);
            default -> null; // not a cohortd client's mistake: nothing to tell it
        };
    }

    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(LENGTH);
        b.putInt(LENGTH).putShort(DaemonFrame.MAGIC).put(DaemonFrame.VERSION).put((byte) TYPE).put((byte) reason.code)
                .putInt(Math.max(0, retryAfterMillis));
        return b.array();
    }

    /** The notice in {@code bytes} from {@code offset} ({@value #LENGTH} bytes), or null when it is not one. */
    static RefusalNotice decode(byte[] bytes, int offset) {
        ByteBuffer b = ByteBuffer.wrap(bytes, offset, LENGTH);
        if (b.getInt() != LENGTH || b.getShort() != DaemonFrame.MAGIC || b.get() != DaemonFrame.VERSION || (b.get() & 0xFF) != TYPE) {
            return null;
        }
        Reason r = Reason.of(b.get() & 0xFF);
        int retry = b.getInt();
        return r == null || retry < 0 ? null : new RefusalNotice(r, retry);
    }
}

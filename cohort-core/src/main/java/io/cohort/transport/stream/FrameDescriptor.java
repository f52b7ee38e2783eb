package io.cohort.transport.stream;

import java.nio.ByteBuffer;

/**
 * The header in front of every message on a TCP connection. Little-endian, 16 bytes:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                     payload length (int32)                    |  0
 *  +-------------------------------+-------------------------------+
 *  |          type (int16)         |         flags (int16)         |  4
 *  +-------------------------------+-------------------------------+
 *  |                   communicator context (int32)                |  8
 *  +---------------------------------------------------------------+
 *  |                           tag (int32)                         | 12
 *  +---------------------------------------------------------------+
 *  |                 payload (length bytes) ...                    | 16
 * </pre>
 *
 * The source rank is not carried: a connection belongs to one pair. {@link #TYPE_DATA} frames
 * carry a message; {@link #TYPE_BYE} (length 0) says the sender will send nothing more, so the
 * receiver may close without losing bytes. Frames are written whole by one thread at a time.
 */
public final class FrameDescriptor {
    public static final int LENGTH_OFFSET = 0;
    public static final int TYPE_OFFSET = 4;
    public static final int FLAGS_OFFSET = 6;
    public static final int CONTEXT_OFFSET = 8;
    public static final int TAG_OFFSET = 12;
    public static final int HEADER_LENGTH = 16;

    public static final short TYPE_DATA = 1;
    public static final short TYPE_BYE = 2;

    private FrameDescriptor() {
    }

    /** Writes a header at the buffer's position (which must be little-endian) and advances it. */
    public static void write(ByteBuffer b, int length, short type, int context, int tag) {
        int p = b.position();
        b.putInt(p + LENGTH_OFFSET, length);
        b.putShort(p + TYPE_OFFSET, type);
        b.putShort(p + FLAGS_OFFSET, (short) 0);
        b.putInt(p + CONTEXT_OFFSET, context);
        b.putInt(p + TAG_OFFSET, tag);
        b.position(p + HEADER_LENGTH);
    }

    public static int length(ByteBuffer b, int at) {
        return b.getInt(at + LENGTH_OFFSET);
    }

    public static short type(ByteBuffer b, int at) {
        return b.getShort(at + TYPE_OFFSET);
    }

    public static short flags(ByteBuffer b, int at) {
        return b.getShort(at + FLAGS_OFFSET);
    }

    public static int context(ByteBuffer b, int at) {
        return b.getInt(at + CONTEXT_OFFSET);
    }

    public static int tag(ByteBuffer b, int at) {
        return b.getInt(at + TAG_OFFSET);
    }
}

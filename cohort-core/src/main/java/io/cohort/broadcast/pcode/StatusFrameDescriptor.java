package io.cohort.broadcast.pcode;

import java.nio.ByteBuffer;

/**
 * A STATUS frame (type {@link BcastHeaderDescriptor#TYPE_STATUS}), always broadcast. It is the
 * paper's "augmented" STATUS (section 5.5): the header's global counter is the PROGRESS
 * information, the body says what the sender has handled so each peer can discard sent frames
 * (P1). Little-endian, after the 32-byte header:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  header (32 bytes); global counter = PROGRESS (non-original)  |  0
 *  +---------------------------------------------------------------+
 *  |  pcv[0..N-1] (int64 each): highest consecutive broadcast-      | 32
 *  |  stream count handled from each rank (own entry: frames sent)  |
 *  +---------------------------------------------------------------+
 *  |  p2p[0..N-1] (int64 each): highest consecutive point-to-point  | 32 + 8N
 *  |  count handled from each rank (own entry: 0)                   |
 * </pre>
 */
public final class StatusFrameDescriptor {
    public static final int PCV_OFFSET = 32;

    private StatusFrameDescriptor() {
    }

    public static int p2pOffset(int size) {
        return PCV_OFFSET + 8 * size;
    }

    public static int length(int size) {
        return PCV_OFFSET + 16 * size;
    }

    public static long pcv(ByteBuffer b, int rank) {
        return b.getLong(PCV_OFFSET + 8 * rank);
    }

    public static long p2p(ByteBuffer b, int size, int rank) {
        return b.getLong(p2pOffset(size) + 8 * rank);
    }

    public static void write(ByteBuffer b, long[] pcv, long[] p2p) {
        int size = pcv.length;
        for (int i = 0; i < size; i++) {
            b.putLong(PCV_OFFSET + 8 * i, pcv[i]);
            b.putLong(p2pOffset(size) + 8 * i, p2p[i]);
        }
    }
}

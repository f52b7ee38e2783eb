package io.cohort.collective;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Frames a set of per-rank blocks into one message and back, for algorithms that forward blocks
 * they gathered (recursive-doubling allgather). Layout, little-endian:
 *
 * <pre>
 *   int count | count x ( int rank | int length | length bytes )
 * </pre>
 *
 * <p>Threads: stateless; any thread.
 */
final class Blocks {
    private Blocks() {
    }

    /** The blocks of {@code ranks} (each non-null in {@code blocks}) as one message. */
    static byte[] frame(byte[][] blocks, int[] ranks, int count) {
        long total = 4;
        for (int i = 0; i < count; i++) {
            total += 8 + blocks[ranks[i]].length;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("blocks of " + total + " bytes exceed one message's limit of 2 GiB");
        }
        ByteBuffer b = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(count);
        for (int i = 0; i < count; i++) {
            byte[] block = blocks[ranks[i]];
            b.putInt(ranks[i]).putInt(block.length).put(block);
        }
        return b.array();
    }

    /** Stores each framed block into {@code blocks[rank]}; returns how many there were. */
    static int unframe(byte[] message, byte[][] blocks) {
        return unframe(message, blocks, null, 0);
    }

    /**
     * Stores each framed block into {@code blocks[rank]} and, if {@code ranks} is not null, its rank
     * into {@code ranks} from {@code at}; returns how many there were.
     */
    static int unframe(byte[] message, byte[][] blocks, int[] ranks, int at) {
        ByteBuffer b = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
        int count = b.getInt();
        for (int i = 0; i < count; i++) {
            int rank = b.getInt();
            byte[] block = new byte[b.getInt()];
            b.get(block);
            blocks[rank] = block;
            if (ranks != null) {
                ranks[at + i] = rank;
            }
        }
        return count;
    }
}

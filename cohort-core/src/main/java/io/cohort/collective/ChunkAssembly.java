package io.cohort.collective;

import io.cohort.CohortException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import static io.cohort.collective.DomainCollectives.CHUNK_BYTES;

/**
 * One message of the broadcast domain's collectives put together from its chunks, the first of
 * which starts with the total length ({@link DomainCollectives#chunk}). That length is a word from
 * the network: nothing is allocated on it alone. The array grows with the chunks that arrived
 * (doubling, so the copies stay linear in the message), and every chunk must be exactly as long as
 * the total says, so a forged total fails at the chunk that contradicts it, with a sentence, rather
 * than allocating 2 GB first.
 */
final class ChunkAssembly {
    private final String from;
    private final int total;
    private byte[] data;
    private int filled;
    private int next = 1;

    /** Starts from chunk 0; {@code from} names the sender for errors ("bcast from rank 2"). */
    ChunkAssembly(byte[] chunk0, String from) {
        this.from = from;
        if (chunk0.length < Integer.BYTES) {
            throw malformed("a first chunk of " + chunk0.length + " bytes, too short for the length it must start with");
        }
        this.total = ByteBuffer.wrap(chunk0).order(ByteOrder.LITTLE_ENDIAN).getInt();
        int carried = chunk0.length - Integer.BYTES;
        if (total < 0 || carried != Math.min(total, CHUNK_BYTES)) {
            throw malformed("a first chunk of " + carried + " bytes for a message of " + total + " bytes");
        }
        this.data = Arrays.copyOfRange(chunk0, Integer.BYTES, chunk0.length); // exact for one chunk
        this.filled = carried;
    }

    /** How many chunks the message has, the first included. */
    int chunks() {
        return DomainCollectives.chunks(total);
    }

    /** Appends chunk {@code k}, which must be the next one and exactly as long as the total implies. */
    void add(int k, byte[] chunk) {
        int due = Math.min(CHUNK_BYTES, total - filled);
        if (k != next || chunk.length != due) {
            throw malformed("chunk " + k + " of " + chunk.length + " bytes where chunk " + next + " of " + due
                    + " bytes was due");
        }
        if (data.length < filled + due) {
            data = Arrays.copyOf(data, (int) Math.min(total, Math.max(filled + due, 2L * data.length)));
        }
        System.arraycopy(chunk, 0, data, filled, due);
        filled += due;
        next++;
    }

    /** The whole message, once every chunk was added. */
    byte[] bytes() {
        if (filled != total) {
            throw malformed(filled + " of " + total + " bytes");
        }
        return data;
    }

    private CohortException malformed(String what) {
        return new CohortException("the " + from + " over the broadcast domain carried " + what
                + "; a peer sent something other than its part of the collective");
    }
}

package io.cohort.collective;

import io.cohort.CohortException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Random;

import static io.cohort.collective.DomainCollectives.CHUNK_BYTES;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The domain collectives' chunked messages: a forged total allocates nothing on its word. */
@Timeout(20)
class ChunkAssemblyTest {
    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void messagesOfOneAndManyChunksComeBackWhole() {
        Random random = new Random(42);
        for (int length : new int[] {0, 1, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 5 * CHUNK_BYTES + 17}) {
            byte[] data = new byte[length];
            random.nextBytes(data);
            ChunkAssembly a = new ChunkAssembly(bytes(DomainCollectives.chunk(data, 0)), "bcast from rank 0");
            assertEquals(DomainCollectives.chunks(length), a.chunks());
            for (int k = 1; k < a.chunks(); k++) {
                a.add(k, bytes(DomainCollectives.chunk(data, k)));
            }
            assertArrayEquals(data, a.bytes(), "length " + length);
        }
    }

    @Test
    void aForgedTotalFailsAtTheChunkThatContradictsItWithoutAllocatingIt() {
        // The datagram: a first chunk claiming 0x7ff00000 bytes. It carries a full chunk, as
        // a real first chunk of a long message does, so it passes; the next real chunk does not.
        byte[] forged = new byte[4 + CHUNK_BYTES];
        ByteBuffer.wrap(forged).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(0x7ff00000);
        long before = allocatedByThisThread();
        ChunkAssembly a = new ChunkAssembly(forged, "bcast from rank 0");
        assertEquals(DomainCollectives.chunks(0x7ff00000), a.chunks());
        CohortException e = assertThrows(CohortException.class, () -> a.add(1, new byte[100]));
        long allocated = allocatedByThisThread() - before;
        assertTrue(allocated < 1 << 20, "allocated " + allocated + " bytes");
        assertEquals("the bcast from rank 0 over the broadcast domain carried chunk 1 of 100 bytes where chunk 1 of"
                + " 32768 bytes was due; a peer sent something other than its part of the collective", e.getMessage());
        // Growth follows the chunks that came: 3 chunks of a "2 GB" message cost a few chunks' worth
        // (the two the test makes, the array doubling from one chunk to four), not gigabytes.
        ChunkAssembly b = new ChunkAssembly(forged, "bcast from rank 0");
        long start = allocatedByThisThread();
        b.add(1, new byte[CHUNK_BYTES]);
        b.add(2, new byte[CHUNK_BYTES]);
        assertTrue(allocatedByThisThread() - start < 16L * CHUNK_BYTES, "grew by " + (allocatedByThisThread() - start));
    }

    @Test
    void malformedFirstChunksAreOneSentence() {
        assertThrows(CohortException.class, () -> new ChunkAssembly(new byte[2], "bcast from rank 1"));
        byte[] negative = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        CohortException e = assertThrows(CohortException.class, () -> new ChunkAssembly(negative, "allgather block from rank 3"));
        assertEquals("the allgather block from rank 3 over the broadcast domain carried a first chunk of 0 bytes for a"
                + " message of -1 bytes; a peer sent something other than its part of the collective", e.getMessage());
        byte[] shortFirst = new byte[4 + 10]; // claims 1000 bytes but carries 10: a one-chunk message carries all
        ByteBuffer.wrap(shortFirst).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(1000);
        assertThrows(CohortException.class, () -> new ChunkAssembly(shortFirst, "bcast from rank 0"));
    }
}

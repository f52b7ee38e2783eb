package io.cohort.transport.shm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pins the collective segment's layout, and checks what a member refuses to map and what it writes. */
@Timeout(30)
class ShmCollectiveSegmentTest {
    @TempDir
    Path dir;

    private ShmTransport transport(int rank) {
        return new ShmTransport(rank, 3, 42, "job", dir, new int[0], 4096);
    }

    @Test
    void offsetsAreTheDocumentedOnes() {
        assertEquals(0, ShmCollectiveDescriptor.MAGIC_OFFSET);
        assertEquals(8, ShmCollectiveDescriptor.JOB_KEY_OFFSET);
        assertEquals(16, ShmCollectiveDescriptor.VERSION_OFFSET);
        assertEquals(20, ShmCollectiveDescriptor.MEMBERS_OFFSET);
        assertEquals(24, ShmCollectiveDescriptor.AREA_BYTES_OFFSET);
        assertEquals(28, ShmCollectiveDescriptor.CONTEXT_OFFSET);
        assertEquals(128 + 2 * 128, ShmCollectiveDescriptor.phaseOffset(2));
        assertEquals(128 + 2 * 128 + 8, ShmCollectiveDescriptor.abandonedOffset(2));
        assertEquals(128 + 2 * 128 + 24, ShmCollectiveDescriptor.headerOffset(2, 1));
        assertEquals(128 + 2 * 128 + 64, ShmCollectiveDescriptor.waitingOffset(2));
        assertEquals(128 + 2 * 128 + 68, ShmCollectiveDescriptor.doorbellOffset(2));
        assertEquals(4096, ShmCollectiveDescriptor.dataOffset(3));
        assertEquals(8192, ShmCollectiveDescriptor.dataOffset(32), "32 lines of 128 bytes end at 4224");
        assertEquals(4096 + 2 * 8192, ShmCollectiveDescriptor.slotOffset(3, 8192, 2));
        assertEquals(4096 + 4 * 8192, ShmCollectiveDescriptor.areaOffset(3, 8192, 1));
        assertEquals(4096 + 5 * 8192, ShmCollectiveDescriptor.segmentBytes(3, 8192));
    }

    @Test
    void membersShareSlotsAndPhasesThroughTheFile() throws IOException {
        ShmCollectiveSegment a = transport(0).createCollectiveSegment("7-1", 3, 0, 4096, 7);
        ShmCollectiveSegment b = transport(1).openCollectiveSegment("7-1", 3, 1, 7);
        assertEquals(4096, b.areaBytes(), "the creator's size");
        a.slot(0).putLong(8, 0x1122334455667788L);
        a.header(1, 0x4400000007L);
        a.arrive(5);
        assertEquals(0x4400000007L, b.header(0, 1));
        assertEquals(5, b.phase(0));
        assertEquals(0x1122334455667788L, b.slot(0).getLong(8));
        assertEquals(ByteOrder.LITTLE_ENDIAN, b.slot(0).order());
        ByteBuffer raw = map(dir.resolve("cohort-job-coll-7-1"));
        assertEquals(5, raw.getLong(ShmCollectiveDescriptor.phaseOffset(0)));
        assertEquals(0x4400000007L, raw.getLong(ShmCollectiveDescriptor.headerOffset(0, 1)));
        assertEquals(ShmCollectiveDescriptor.MAGIC, raw.getLong(0));
        assertFalse(b.abandoned(0));
        a.abandon();
        assertTrue(b.abandoned(0));
        assertEquals(5, b.phase(0), "abandoning keeps the last phase reached");
        a.unlink();
        assertFalse(Files.exists(dir.resolve("cohort-job-coll-7-1")));
        assertEquals(5, b.phase(0), "the mappings outlive the name");
        a.close();
        b.close();
    }

    @Test
    void aSegmentOfAnotherJobCommunicatorOrSizeIsRefusedNamingWhy() throws IOException {
        transport(0).createCollectiveSegment("9-1", 3, 0, 4096, 9);
        ShmTransport other = new ShmTransport(1, 3, 43, "job", dir, new int[0], 4096);
        IOException e = assertThrows(IOException.class, () -> other.openCollectiveSegment("9-1", 3, 1, 9));
        assertTrue(e.getMessage().endsWith("belongs to another job or communicator"), e.getMessage());
        e = assertThrows(IOException.class, () -> transport(1).openCollectiveSegment("9-1", 3, 1, 10));
        assertTrue(e.getMessage().endsWith("belongs to another job or communicator"), e.getMessage());
        e = assertThrows(IOException.class, () -> transport(1).openCollectiveSegment("9-2", 3, 1, 9));
        assertTrue(e.getMessage().endsWith("does not exist"), e.getMessage());
        Files.write(dir.resolve("cohort-job-coll-9-3"), new byte[8192]);
        // Owner-only, as a segment is: a file open to others is refused before its contents are read.
        Files.setPosixFilePermissions(dir.resolve("cohort-job-coll-9-3"),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        e = assertThrows(IOException.class, () -> transport(1).openCollectiveSegment("9-3", 3, 1, 9));
        assertTrue(e.getMessage().endsWith("is not a collective segment of this version"), e.getMessage());
        assertThrows(IOException.class, () -> transport(0).createCollectiveSegment("9-1", 3, 0, 4096, 9),
                "a name that exists is never reused");
    }

    /**
     * The Dekker pair: a member about to sleep raises its waiting word and looks once more; an
     * arrival after that finds the word raised and clears it (to ring), and the look sees the phase.
     */
    @Test
    void aSleeperAsksToBeRungAndAnArrivalTakesTheRequest() throws IOException {
        ShmCollectiveSegment a = transport(0).createCollectiveSegment("11-1", 3, 0, 4096, 11);
        ShmCollectiveSegment b = transport(1).openCollectiveSegment("11-1", 3, 1, 11);
        b.announceDoorbell(40_001); // as if member 1 slept on a doorbell there (a's transport has none to ring from)
        a.setUpComplete();
        b.setUpComplete();
        assertEquals(0, b.prepareSleep(), "no wait: nothing to arm");
        b.waiting(() -> b.phase(0) >= 1);
        assertEquals(0, b.prepareSleep(), "the phase is not there yet: sleep");
        ByteBuffer raw = map(dir.resolve("cohort-job-coll-11-1"));
        assertEquals(1, raw.getInt(ShmCollectiveDescriptor.waitingOffset(1)));
        a.arrive(1);
        assertEquals(0, raw.getInt(ShmCollectiveDescriptor.waitingOffset(1)), "the arrival took the request to ring");
        assertEquals(1, b.prepareSleep(), "the phase came: no sleep");
        b.endSleep();
        assertEquals(0, raw.getInt(ShmCollectiveDescriptor.waitingOffset(1)));
    }

    private static ByteBuffer map(Path p) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()).order(ByteOrder.nativeOrder());
        }
    }
}

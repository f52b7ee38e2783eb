package io.cohort.transport.shm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Two threads hammer one ring: the producer writes records of random length (0 to 3x the ring
 * size, so records wrap and stream through in pieces) followed by their CRC; the consumer reads the
 * byte stream back and checks every record. A lost, duplicated or torn byte fails the checksum.
 */
class ShmRingConcurrencyTest {
    private static final long KEY = 0x1234_5678_9ABC_DEF0L;

    @Test
    @Timeout(60)
    void checksummedRecordsSurviveConcurrentUseOnDirectMemory() throws Exception {
        int capacity = 4096;
        ByteBuffer segment = ByteBuffer.allocateDirect((int) ShmSegmentDescriptor.segmentBytes(capacity));
        hammer(segment, capacity, 200_000);
    }

    @Test
    @Timeout(60)
    void checksummedRecordsSurviveConcurrentUseOnAMappedFile(@TempDir Path dir) throws Exception {
        int capacity = 1 << 16;
        Path file = dir.resolve("ring");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MappedByteBuffer segment = ch.map(FileChannel.MapMode.READ_WRITE, 0, ShmSegmentDescriptor.segmentBytes(capacity));
            hammer(segment, capacity, 100_000);
        }
    }

    private static void hammer(ByteBuffer segment, int capacity, int records) throws Exception {
        ShmRing.format(segment, KEY, 0, 1, capacity);
        ShmRing producer = ShmRing.attach(segment, KEY, 0, 1);
        ShmRing consumer = ShmRing.attach(segment, KEY, 0, 1);
        assertEquals(capacity, producer.capacity());
        assertEquals(capacity, consumer.capacity());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                SplittableRandom random = new SplittableRandom(42);
                ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
                ByteBuffer trailer = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
                for (int r = 0; r < records; r++) {
                    int length = random.nextInt(10) == 0 ? random.nextInt(3 * capacity) : random.nextInt(64);
                    byte[] payload = new byte[length];
                    for (int i = 0; i < length; i++) {
                        payload[i] = (byte) random.nextInt();
                    }
                    CRC32C crc = new CRC32C();
                    crc.update(payload);
                    header.clear();
                    header.putInt(length).flip();
                    trailer.clear();
                    trailer.putLong(crc.getValue()).flip();
                    writeFully(producer, header);
                    writeFully(producer, ByteBuffer.wrap(payload));
                    writeFully(producer, trailer);
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "ring-producer");
        writer.start();
        ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer trailer = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < records; r++) {
            header.clear();
            readFully(consumer, header, writer);
            int length = header.flip().getInt();
            ByteBuffer payload = ByteBuffer.allocate(length);
            readFully(consumer, payload, writer);
            trailer.clear();
            readFully(consumer, trailer, writer);
            CRC32C crc = new CRC32C();
            crc.update(payload.flip());
            assertEquals(trailer.flip().getLong(), crc.getValue(), "checksum of record " + r);
        }
        writer.join();
        assertNull(failure.get());
        assertEquals(0, consumer.available(), "nothing left over");
    }

    private static void writeFully(ShmRing ring, ByteBuffer b) {
        while (b.hasRemaining()) {
            if (ring.write(b) == 0) {
                Thread.onSpinWait();
            }
        }
    }

    private static void readFully(ShmRing ring, ByteBuffer b, Thread writer) {
        while (b.hasRemaining()) {
            if (ring.read(b) == 0) {
                if (!writer.isAlive() && ring.available() == 0) {
                    throw new AssertionError("producer ended with the record incomplete");
                }
                Thread.onSpinWait();
            }
        }
    }

    @Test
    void aForeignOrStaleSegmentIsRefused() {
        int capacity = 1024;
        ByteBuffer segment = ByteBuffer.allocateDirect((int) ShmSegmentDescriptor.segmentBytes(capacity));
        assertThrows(IllegalStateException.class, () -> ShmRing.attach(segment, KEY, 0, 1), "unformatted");
        ShmRing.format(segment, KEY, 0, 1, capacity);
        assertThrows(IllegalStateException.class, () -> ShmRing.attach(segment, KEY + 1, 0, 1), "other job");
        assertThrows(IllegalStateException.class, () -> ShmRing.attach(segment, KEY, 1, 0), "other direction");
        assertThrows(IllegalArgumentException.class, () -> ShmRing.format(segment, KEY, 0, 1, 1000), "not a power of two");
    }
}

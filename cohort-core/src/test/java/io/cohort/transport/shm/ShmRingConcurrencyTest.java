package io.cohort.transport.shm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two threads hammer one ring: the producer writes records of random length (0 to the largest a
 * record takes, so records wrap, pad the end of the ring and land on bytes of earlier laps) whose
 * tag is the CRC of the payload and whose context is the record's number; the consumer checks each.
 * A lost, duplicated, reordered or torn record fails the check, and so does a stale length from an
 * earlier lap mistaken for a new record.
 */
class ShmRingConcurrencyTest {
    private static final long KEY = 0x1234_5678_9ABC_DEF0L;

    @Test
    @Timeout(60)
    void checksummedRecordsSurviveConcurrentUseOnDirectMemory() throws Exception {
        int capacity = 4096;
        ByteBuffer segment = ByteBuffer.allocateDirect((int) ShmSegmentDescriptor.segmentBytes(capacity));
        hammer(segment, capacity, 300_000);
    }

    @Test
    @Timeout(60)
    void checksummedRecordsSurviveConcurrentUseOnAMappedFile(@TempDir Path dir) throws Exception {
        int capacity = 1 << 16;
        Path file = dir.resolve("ring");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MappedByteBuffer segment = ch.map(FileChannel.MapMode.READ_WRITE, 0, ShmSegmentDescriptor.segmentBytes(capacity));
            hammer(segment, capacity, 200_000);
        }
    }

    private static void hammer(ByteBuffer segment, int capacity, int records) throws Exception {
        ShmRing.format(segment, KEY, 0, 1, capacity);
        ShmRing producer = ShmRing.attach(segment, KEY, 0, 1);
        ShmRing consumer = ShmRing.attach(segment, KEY, 0, 1);
        assertEquals(capacity, producer.capacity());
        assertEquals(capacity, consumer.capacity());
        int max = producer.maxPayload();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                SplittableRandom random = new SplittableRandom(42);
                ByteBuffer payload = ByteBuffer.allocate(max);
                for (int r = 0; r < records; r++) {
                    int length = random.nextInt(8) == 0 ? random.nextInt(max + 1) : random.nextInt(64);
                    for (int i = 0; i < length; i++) {
                        payload.put(i, (byte) random.nextInt());
                    }
                    CRC32C crc = new CRC32C();
                    crc.update(payload.duplicate().limit(length));
                    for (int spins = 0; !producer.offer(ShmRecordDescriptor.TYPE_MESSAGE, r, (int) crc.getValue(), length,
                            payload, 0, length); spins++) {
                        pause(spins);
                    }
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "ring-producer");
        writer.start();
        ByteBuffer data = consumer.data();
        for (int r = 0; r < records; r++) {
            int at;
            for (int spins = 0; (at = consumer.poll()) == -1; spins++) {
                if (!writer.isAlive() && consumer.poll() == -1) {
                    throw new AssertionError("producer ended before record " + r, failure.get());
                }
                pause(spins);
            }
            assertTrue(at >= 0, "record " + r + " is well formed");
            assertEquals(ShmRecordDescriptor.TYPE_MESSAGE, consumer.type(at));
            assertEquals(r, consumer.context(at), "records arrive in order, none lost or repeated");
            int length = consumer.payloadLength(at);
            assertEquals(length, consumer.messageLength(at));
            CRC32C crc = new CRC32C();
            crc.update(data.duplicate().position(consumer.payloadIndex(at)).limit(consumer.payloadIndex(at) + length));
            assertEquals((int) crc.getValue(), consumer.tag(at), "checksum of record " + r);
            consumer.consume(at);
        }
        writer.join();
        assertNull(failure.get());
        assertEquals(-1, consumer.poll(), "nothing left over");
        assertTrue(consumer.isEmpty());
    }

    /**
     * Spin briefly, then yield: on a loaded two-core machine the other side may not be running at
     * all, and two threads spinning for each other would advance only once per scheduler slice.
     */
    private static void pause(int spins) {
        if (spins < 100) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    @Test
    void aFullRingRefusesARecordAndTakesItOnceTheConsumerFreesRoom() {
        int capacity = 1024;
        ByteBuffer segment = ByteBuffer.allocateDirect((int) ShmSegmentDescriptor.segmentBytes(capacity));
        ShmRing.format(segment, KEY, 0, 1, capacity);
        ShmRing producer = ShmRing.attach(segment, KEY, 0, 1);
        ShmRing consumer = ShmRing.attach(segment, KEY, 0, 1);
        ByteBuffer payload = ByteBuffer.allocate(producer.maxPayload());
        int written = 0;
        while (producer.offer(ShmRecordDescriptor.TYPE_MESSAGE, written, 0, payload.capacity(), payload, 0, payload.capacity())) {
            written++;
        }
        assertTrue(written >= 2, "a ring holds several of its largest records");
        int at = consumer.poll();
        assertEquals(0, consumer.context(at));
        consumer.consume(at);
        assertTrue(producer.offer(ShmRecordDescriptor.TYPE_MESSAGE, written, 0, payload.capacity(), payload, 0,
                payload.capacity()), "room again after one record was consumed");
        assertThrows(IllegalArgumentException.class, () -> producer.offer(ShmRecordDescriptor.TYPE_MESSAGE, 0, 0, 0,
                payload, 0, producer.maxPayload() + 1), "a record never exceeds maxPayload");
    }

    @Test
    void aCorruptLengthIsReportedAsMalformedNotFollowed() {
        int capacity = 1024;
        ByteBuffer segment = ByteBuffer.allocateDirect((int) ShmSegmentDescriptor.segmentBytes(capacity));
        ShmRing.format(segment, KEY, 0, 1, capacity);
        ShmRing consumer = ShmRing.attach(segment, KEY, 0, 1);
        consumer.data().putInt(0, capacity * 4);
        assertEquals(ShmRing.MALFORMED, consumer.poll());
        consumer.data().putInt(0, 3);
        assertEquals(ShmRing.MALFORMED, consumer.poll(), "shorter than a header");
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

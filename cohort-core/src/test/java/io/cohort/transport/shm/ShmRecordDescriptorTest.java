package io.cohort.transport.shm;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pins the record layout that two processes of possibly different builds share. */
class ShmRecordDescriptorTest {
    @Test
    void offsetsAreTheDocumentedOnes() {
        assertEquals(0, ShmRecordDescriptor.RECORD_LENGTH_OFFSET);
        assertEquals(4, ShmRecordDescriptor.TYPE_OFFSET);
        assertEquals(6, ShmRecordDescriptor.FLAGS_OFFSET);
        assertEquals(8, ShmRecordDescriptor.CONTEXT_OFFSET);
        assertEquals(12, ShmRecordDescriptor.TAG_OFFSET);
        assertEquals(16, ShmRecordDescriptor.MESSAGE_LENGTH_OFFSET);
        assertEquals(20, ShmRecordDescriptor.RESERVED_OFFSET);
        assertEquals(24, ShmRecordDescriptor.HEADER_LENGTH);
        assertEquals(32, ShmRecordDescriptor.ALIGNMENT);
        assertEquals(3, ShmSegmentDescriptor.VERSION);
        assertEquals(256, ShmSegmentDescriptor.RECEIVER_WAITING_OFFSET);
        assertEquals(260, ShmSegmentDescriptor.DOORBELL_PORT_OFFSET);
        assertEquals(264, ShmSegmentDescriptor.SENDER_WAITING_OFFSET);
    }

    @Test
    void alignmentRoundsUpToWholeUnits() {
        assertEquals(32, ShmRecordDescriptor.aligned(24));
        assertEquals(32, ShmRecordDescriptor.aligned(32));
        assertEquals(64, ShmRecordDescriptor.aligned(33));
        assertTrue(ShmRecordDescriptor.isKnownType(ShmRecordDescriptor.TYPE_MESSAGE));
        assertFalse(ShmRecordDescriptor.isKnownType((short) 0));
    }

    @Test
    void anOfferedRecordHasTheDocumentedBytes() {
        int capacity = 1024;
        ByteBuffer segment = ByteBuffer.allocateDirect((int) ShmSegmentDescriptor.segmentBytes(capacity));
        ShmRing.format(segment, 7, 0, 1, capacity);
        ShmRing ring = ShmRing.attach(segment, 7, 0, 1);
        ByteBuffer payload = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5});
        assertTrue(ring.offer(ShmRecordDescriptor.TYPE_MESSAGE, 11, 13, 5, payload, 0, 5));
        ByteBuffer d = segment.duplicate().order(ByteOrder.nativeOrder());
        int base = ShmSegmentDescriptor.DATA_OFFSET;
        assertEquals(29, d.getInt(base));
        assertEquals(ShmRecordDescriptor.TYPE_MESSAGE, d.getShort(base + 4));
        assertEquals(11, d.getInt(base + 8));
        assertEquals(13, d.getInt(base + 12));
        assertEquals(5, d.getInt(base + 16));
        assertEquals(3, d.get(base + 26));
        assertEquals(0, d.getInt(base + 32), "the next record's length word is zero");
        assertEquals(32, d.getLong(ShmSegmentDescriptor.PRODUCER_OFFSET), "producer position after one aligned record");
    }
}

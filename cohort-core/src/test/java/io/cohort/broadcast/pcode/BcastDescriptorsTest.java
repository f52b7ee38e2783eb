package io.cohort.broadcast.pcode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Pins the PCODE frame layouts: peers built from different versions of these files must agree. */
@Timeout(10)
class BcastDescriptorsTest {
    @Test
    void headerOffsetsArePinned() {
        assertEquals(0, BcastHeaderDescriptor.MAGIC_OFFSET);
        assertEquals(4, BcastHeaderDescriptor.VERSION_OFFSET);
        assertEquals(5, BcastHeaderDescriptor.TYPE_OFFSET);
        assertEquals(6, BcastHeaderDescriptor.FLAGS_OFFSET);
        assertEquals(8, BcastHeaderDescriptor.KEY_OFFSET);
        assertEquals(16, BcastHeaderDescriptor.SENDER_OFFSET);
        assertEquals(20, BcastHeaderDescriptor.SIZE_OFFSET);
        assertEquals(24, BcastHeaderDescriptor.GLOBAL_COUNTER_OFFSET);
        assertEquals(32, BcastHeaderDescriptor.HEADER_LENGTH);
        assertEquals(0x45444F43, BcastHeaderDescriptor.MAGIC);
        assertEquals(1, BcastHeaderDescriptor.TYPE_DATA);
        assertEquals(2, BcastHeaderDescriptor.TYPE_NACK);
        assertEquals(3, BcastHeaderDescriptor.TYPE_STATUS);
        assertEquals(1, BcastHeaderDescriptor.FLAG_P2P);
        assertEquals(2, BcastHeaderDescriptor.FLAG_PROGRESS_REQUEST);
        assertEquals(4, BcastHeaderDescriptor.FLAG_RESEND);
        assertEquals(8, BcastHeaderDescriptor.FLAG_CLOSING);
    }

    @Test
    void headerBytesAreLittleEndianAtTheDocumentedOffsets() {
        ByteBuffer b = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        BcastHeaderDescriptor.write(b, 1, 0x0203, 0x1112131415161718L, 0x21222324, 0x3132, 0x4142434445464748L);
        assertArrayEquals(new byte[] {
            0x43, 0x4F, 0x44, 0x45,                         // magic "CODE"
            0x01, 0x01, 0x03, 0x02,                         // version, type, flags
            0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11, // key
            0x24, 0x23, 0x22, 0x21,                         // sender
            0x32, 0x31, 0x00, 0x00,                         // size, reserved
            0x48, 0x47, 0x46, 0x45, 0x44, 0x43, 0x42, 0x41, // global counter
        }, b.array());
    }

    @Test
    void dataFrameOffsetsArePinned() {
        assertEquals(32, DataFrameDescriptor.PERSONAL_COUNT_OFFSET);
        assertEquals(40, DataFrameDescriptor.POSITION_OFFSET);
        assertEquals(48, DataFrameDescriptor.MESSAGE_LENGTH_OFFSET);
        assertEquals(52, DataFrameDescriptor.FRAGMENT_OFFSET_OFFSET);
        assertEquals(56, DataFrameDescriptor.FRAGMENT_LENGTH_OFFSET);
        assertEquals(60, DataFrameDescriptor.RESERVED_OFFSET);
        assertEquals(64, DataFrameDescriptor.TARGETS_OFFSET);
        assertEquals(72, DataFrameDescriptor.payloadOffset(16));
        assertEquals(72, DataFrameDescriptor.payloadOffset(64));
        assertEquals(80, DataFrameDescriptor.payloadOffset(65));
        ByteBuffer b = ByteBuffer.allocate(72).order(ByteOrder.LITTLE_ENDIAN);
        DataFrameDescriptor.write(b, 0x0102030405060708L, 9, 10, 11, 12, new long[] {0b1010});
        assertEquals(0x08, b.get(32));
        assertEquals(9, b.get(40));
        assertEquals(10, b.get(48));
        assertEquals(11, b.get(52));
        assertEquals(12, b.get(56));
        assertEquals(0b1010, b.get(64));
    }

    @Test
    void nackAndStatusOffsetsArePinned() {
        assertEquals(32, NackFrameDescriptor.KIND_OFFSET);
        assertEquals(36, NackFrameDescriptor.ABOUT_OFFSET);
        assertEquals(40, NackFrameDescriptor.LAST_RECEIVED_OFFSET);
        assertEquals(48, NackFrameDescriptor.FROM_OFFSET);
        assertEquals(56, NackFrameDescriptor.TO_OFFSET);
        assertEquals(64, NackFrameDescriptor.PCV_OFFSET);
        assertEquals(64, NackFrameDescriptor.length(NackFrameDescriptor.KIND_REQUEST, 8));
        assertEquals(128, NackFrameDescriptor.length(NackFrameDescriptor.KIND_GLOBAL_GAP, 8));
        assertEquals(1, NackFrameDescriptor.KIND_REQUEST);
        assertEquals(2, NackFrameDescriptor.KIND_PERSONAL_GAP);
        assertEquals(3, NackFrameDescriptor.KIND_GLOBAL_GAP);
        assertEquals(32, StatusFrameDescriptor.PCV_OFFSET);
        assertEquals(32 + 8 * 5, StatusFrameDescriptor.p2pOffset(5));
        assertEquals(32 + 16 * 5, StatusFrameDescriptor.length(5));
        ByteBuffer b = ByteBuffer.allocate(StatusFrameDescriptor.length(2)).order(ByteOrder.LITTLE_ENDIAN);
        StatusFrameDescriptor.write(b, new long[] {1, 2}, new long[] {3, 4});
        assertEquals(1, b.getLong(32));
        assertEquals(2, b.getLong(40));
        assertEquals(3, b.getLong(48));
        assertEquals(4, b.getLong(56));
    }
}

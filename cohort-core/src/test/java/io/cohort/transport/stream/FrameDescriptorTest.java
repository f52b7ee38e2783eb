package io.cohort.transport.stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Pins the data frame header: peers built from different versions of this file must agree. */
@Timeout(10)
class FrameDescriptorTest {
    @Test
    void layoutConstantsArePinned() {
        assertEquals(0, FrameDescriptor.LENGTH_OFFSET);
        assertEquals(4, FrameDescriptor.TYPE_OFFSET);
        assertEquals(6, FrameDescriptor.FLAGS_OFFSET);
        assertEquals(8, FrameDescriptor.CONTEXT_OFFSET);
        assertEquals(12, FrameDescriptor.TAG_OFFSET);
        assertEquals(16, FrameDescriptor.HEADER_LENGTH);
        assertEquals(1, FrameDescriptor.TYPE_DATA);
        assertEquals(2, FrameDescriptor.TYPE_BYE);
    }

    @Test
    void writesLittleEndianBytesAtTheDocumentedOffsets() {
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        FrameDescriptor.write(b, 0x01020304, FrameDescriptor.TYPE_DATA, 0x11121314, 0x21222324);
        assertEquals(16, b.position());
        assertArrayEquals(new byte[] {
            0x04, 0x03, 0x02, 0x01, // length
            0x01, 0x00,             // type
            0x00, 0x00,             // flags
            0x14, 0x13, 0x12, 0x11, // context
            0x24, 0x23, 0x22, 0x21, // tag
        }, b.array());
    }

    @Test
    void roundTripsAtAnOffset() {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        b.position(7);
        FrameDescriptor.write(b, Integer.MAX_VALUE, FrameDescriptor.TYPE_BYE, -5, Integer.MAX_VALUE - 1);
        assertEquals(7 + FrameDescriptor.HEADER_LENGTH, b.position());
        assertEquals(Integer.MAX_VALUE, FrameDescriptor.length(b, 7));
        assertEquals(FrameDescriptor.TYPE_BYE, FrameDescriptor.type(b, 7));
        assertEquals(0, FrameDescriptor.flags(b, 7));
        assertEquals(-5, FrameDescriptor.context(b, 7));
        assertEquals(Integer.MAX_VALUE - 1, FrameDescriptor.tag(b, 7));
        for (int i = 0; i < 7; i++) {
            assertEquals(0, b.get(i), "wrote before the position");
        }
    }

    @Test
    void zeroLengthFrame() {
        ByteBuffer b = ByteBuffer.allocateDirect(16).order(ByteOrder.LITTLE_ENDIAN);
        FrameDescriptor.write(b, 0, FrameDescriptor.TYPE_DATA, 0, 0);
        assertEquals(0, FrameDescriptor.length(b, 0));
        assertEquals(FrameDescriptor.TYPE_DATA, FrameDescriptor.type(b, 0));
    }
}

package io.cohort.broadcast.eqa;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.*;

/** Both retransmission buffer designs against one contract, and the memory that sets them apart. */
@Timeout(10)
class RetransmissionBufferTest {
    private static ByteBuffer packet(int id, int length) {
        ByteBuffer b = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            b.put(i, (byte) (id + i));
        }
        return b;
    }

    private static int idOf(RetransmissionBuffer buf, int receiver, long seq) {
        ByteBuffer into = ByteBuffer.allocate(2000);
        int n = buf.copy(receiver, seq, into);
        return n < 0 ? -1 : into.get(0);
    }

    @ParameterizedTest
    @EnumSource(EqaContext.BufferDesign.class)
    void anEntryIsFreedOnlyWhenEveryCursorHasPassedIt(EqaContext.BufferDesign design) {
        RetransmissionBuffer buf = RetransmissionBuffer.create(design, 3, 4);
        assertEquals(0, buf.store(packet(10, 100)));
        assertEquals(1, buf.store(packet(11, 100)));
        assertEquals(0, buf.acknowledge(0, 2), "receivers 1 and 2 still need both");
        assertEquals(0, buf.acknowledge(1, 1));
        assertEquals(0, buf.lowestCursor());
        assertEquals(1, buf.acknowledge(2, 2), "every cursor passed packet 0");
        assertEquals(1, buf.lowestCursor());
        assertEquals(-1, idOf(buf, 1, 0), "packet 0 is gone for everyone");
        assertEquals(11, idOf(buf, 1, 1), "packet 1 is still held for receiver 1");
        assertEquals(-1, idOf(buf, 0, 1), "receiver 0 acknowledged packet 1");
        assertEquals(1, buf.acknowledge(1, 2));
        assertEquals(2, buf.lowestCursor());
    }

    @ParameterizedTest
    @EnumSource(EqaContext.BufferDesign.class)
    void eachReceiverHasItsOwnCursorThatOnlyMovesForward(EqaContext.BufferDesign design) {
        RetransmissionBuffer buf = RetransmissionBuffer.create(design, 2, 8);
        for (int i = 0; i < 5; i++) {
            buf.store(packet(i, 10));
        }
        buf.acknowledge(0, 4);
        buf.acknowledge(1, 2);
        assertEquals(4, buf.cursor(0));
        assertEquals(2, buf.cursor(1));
        assertEquals(-1, buf.acknowledge(0, 3), "an old ACK changes nothing");
        assertEquals(-1, buf.acknowledge(0, 6), "an ACK beyond what was sent changes nothing");
        assertEquals(4, buf.cursor(0));
        assertEquals(2, idOf(buf, 1, 2));
        assertEquals(4, idOf(buf, 0, 4));
        assertEquals(-1, idOf(buf, 0, 5), "never stored");
    }

    @ParameterizedTest
    @EnumSource(EqaContext.BufferDesign.class)
    void theWindowLimitsHeldPacketsToTheSlowestCursor(EqaContext.BufferDesign design) {
        RetransmissionBuffer buf = RetransmissionBuffer.create(design, 2, 16);
        for (int i = 0; i < 16; i++) {
            assertTrue(buf.hasRoom());
            buf.store(packet(i, 10));
        }
        assertFalse(buf.hasRoom());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> buf.store(packet(99, 10)));
        assertTrue(e.getMessage().contains("16"), e.getMessage());
        buf.acknowledge(0, 16);
        assertFalse(buf.hasRoom(), "receiver 1 still holds the window");
        buf.acknowledge(1, 3);
        assertTrue(buf.hasRoom());
        assertEquals(16, buf.store(packet(16, 10)));
        assertEquals(16 % 100, idOf(buf, 1, 16), "the ring wrapped onto a freed slot");
        assertEquals(3, idOf(buf, 1, 3));
    }

    @Test
    void theSharedBufferHoldsOneCopyThePerChannelBuffersOnePerReceiver() {
        int receivers = 10;
        RetransmissionBuffer shared = new SharedRetransmissionBuffer(receivers, 16);
        RetransmissionBuffer perChannel = new PerChannelRetransmissionBuffers(receivers, 16);
        long sharedEmpty = shared.bytesHeld();
        long perChannelEmpty = perChannel.bytesHeld();
        for (int i = 0; i < 16; i++) {
            shared.store(packet(i, 1000));
            perChannel.store(packet(i, 1000));
        }
        assertEquals(16_000, shared.bytesHeld() - sharedEmpty);
        assertEquals(16_000L * receivers, perChannel.bytesHeld() - perChannelEmpty);
        for (int r = 0; r < receivers; r++) {
            shared.acknowledge(r, 16);
            perChannel.acknowledge(r, 16);
        }
        assertEquals(sharedEmpty, shared.bytesHeld(), "everything acknowledged, everything freed");
        assertEquals(perChannelEmpty, perChannel.bytesHeld());
        assertEquals(sharedEmpty + 16_000, shared.peakBytesHeld());
        assertEquals(8L * receivers + 16L * RetransmissionBuffer.REFERENCE_BYTES, sharedEmpty,
                "with nothing held: the slots and a cursor of 8 bytes per receiver");
    }

    @Test
    void badSizesAreRefusedWithTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SharedRetransmissionBuffer(0, 16));
        assertTrue(e.getMessage().contains("0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new PerChannelRetransmissionBuffers(3, -2));
        assertTrue(e.getMessage().contains("-2"), e.getMessage());
    }
}

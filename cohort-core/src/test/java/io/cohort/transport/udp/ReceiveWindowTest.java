package io.cohort.transport.udp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The receive side of the window: classification, holding early frames, the selective-ack map. */
@Timeout(10)
class ReceiveWindowTest {
    private static ByteBuffer frame(int id) {
        return ByteBuffer.allocate(60).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(0, id);
    }

    @ParameterizedTest(name = "first = {0}")
    @ValueSource(ints = {0, Integer.MAX_VALUE - 2, Integer.MIN_VALUE - 1})
    void classifiesEveryNumber(int first) {
        ReceiveWindow w = new ReceiveWindow(100, first);
        assertEquals(ReceiveWindow.IN_ORDER, w.classify(first));
        assertEquals(ReceiveWindow.EARLY, w.classify(first + 1));
        assertEquals(ReceiveWindow.EARLY, w.classify(first + 99));
        assertEquals(ReceiveWindow.OUT_OF_WINDOW, w.classify(first + 100));
        assertEquals(ReceiveWindow.OUT_OF_WINDOW, w.classify(first + (1 << 30)));
        assertEquals(ReceiveWindow.DUPLICATE, w.classify(first - 1));
        assertEquals(ReceiveWindow.DUPLICATE, w.classify(first - ReceiveWindow.DUPLICATE_HORIZON));
        assertEquals(ReceiveWindow.OUT_OF_WINDOW, w.classify(first - ReceiveWindow.DUPLICATE_HORIZON - 1));
        w.hold(first + 5, frame(5), 60);
        assertEquals(ReceiveWindow.DUPLICATE, w.classify(first + 5), "held already");
    }

    @ParameterizedTest(name = "first = {0}")
    @ValueSource(ints = {0, Integer.MAX_VALUE - 2})
    void heldFramesComeOutInOrderOnceTheGapIsFilled(int first) {
        ReceiveWindow w = new ReceiveWindow(16, first);
        w.hold(first + 2, frame(2), 60);
        w.hold(first + 1, frame(1), 60);
        w.hold(first + 4, frame(4), 60);
        assertEquals(3, w.held());
        assertNull(w.nextHeld(), "frame 0 is still missing");
        assertEquals(0b1011L, w.sackBits(), "1, 2 and 4 are held (bit i = ack+1+i)");
        w.advance(); // frame 0 arrived in order and was delivered
        assertEquals(1, w.nextHeld().getInt(0));
        w.releaseHeld();
        assertEquals(2, w.nextHeld().getInt(0));
        assertEquals(60, w.nextHeld().limit());
        w.releaseHeld();
        assertNull(w.nextHeld(), "3 is missing");
        assertEquals(first + 3, w.ack());
        assertEquals(0b1L, w.sackBits());
        assertEquals(1, w.held());
    }

    @Test
    void framesBeyondSixtyFourGoIntoTheExtendedMap() {
        ReceiveWindow w = new ReceiveWindow(300);
        w.hold(1, frame(1), 60);
        assertEquals(0, w.extraBytes());
        w.hold(64, frame(64), 60);
        assertEquals(0, w.extraBytes(), "bit 63 = frame 64: still in the header");
        w.hold(65, frame(65), 60);
        w.hold(80, frame(80), 60);
        assertEquals(2, w.extraBytes(), "frames 65..80 need 16 bits");
        assertEquals(1L | (1L << 63), w.sackBits());
        ByteBuffer ext = ByteBuffer.allocate(2);
        w.writeExtra(ext, 2);
        assertEquals(0x01, ext.get(0), "bit 0 of byte 0 = frame 65");
        assertEquals((byte) 0x80, ext.get(1), "bit 7 of byte 1 = frame 80");
    }

    @Test
    void windowsBeyondTheAckMapAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ReceiveWindow(UdpSettings.WINDOW_FRAMES_MAX + 1));
        assertEquals(UdpSettings.WINDOW_FRAMES_MAX, new ReceiveWindow(UdpSettings.WINDOW_FRAMES_MAX).window());
    }
}

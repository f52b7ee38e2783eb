package io.cohort.transport.udp;

import io.cohort.transport.SendCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The send side of the window: cumulative and selective acks, invalid acks, RACK-style loss
 * detection with Karn's rule, time-out resends, limits; at sequence 0 and across the wrap.
 */
@Timeout(10)
class SendWindowTest {
    private static final ByteBuffer NONE = ByteBuffer.allocate(0);
    private static final long MS = 1_000_000;

    private static OutboundMessage message() {
        return new OutboundMessage(UdpFrameDescriptor.TYPE_DATA, 0, 0, ByteBuffer.allocate(100), 0, 100, 0,
                SendCompletion.NONE);
    }

    /** Adds {@code n} one-frame messages and sends them all at {@code at}; returns the first number. */
    private static int sendAll(SendWindow w, int n, long at) {
        int first = w.next();
        for (int i = 0; i < n; i++) {
            int s = w.add(message(), 0, 100, true, true);
            w.sent(s, at);
        }
        return first;
    }

    @ParameterizedTest(name = "first = {0}")
    @ValueSource(ints = {0, Integer.MAX_VALUE - 3, -2})
    void cumulativeAckCompletesMessagesInOrderAndSamplesTheNewestFrame(int first) {
        SendWindow w = new SendWindow(16, first);
        SendWindow.AckOutcome o = new SendWindow.AckOutcome();
        OutboundMessage big = message();
        int s0 = w.add(big, 0, 40, true, false);
        int s1 = w.add(big, 40, 60, false, true);
        OutboundMessage small = message();
        int s2 = w.add(small, 0, 100, true, true);
        assertEquals(first, s0);
        assertEquals(first + 2, s2);
        assertEquals(3, w.dueCount());
        w.sent(s0, 10 * MS);
        w.sent(s1, 11 * MS);
        w.sent(s2, 12 * MS);
        assertEquals(0, w.dueCount());
        assertEquals(SendWindow.OK, w.onAck(first + 2, 0, NONE, 0, 0, 15 * MS, o));
        assertTrue(o.advanced);
        assertEquals(2, o.newlyAcked);
        assertEquals(1, o.completedCount);
        assertSame(big, o.completed[0]);
        assertEquals(4 * MS, o.rttSampleNanos, "from the newest frame acknowledged");
        assertEquals(first + 2, w.base());
        assertEquals(SendWindow.OK, w.onAck(first + 3, 0, NONE, 0, 0, 16 * MS, o));
        assertSame(small, o.completed[0]);
        assertTrue(w.isEmpty());
        assertEquals(0, w.bytesInFlight());
    }

    @ParameterizedTest(name = "first = {0}")
    @ValueSource(ints = {0, Integer.MAX_VALUE - 5})
    void selectiveAcksMarkFramesAndAnAckOfUnsentFramesIsInvalid(int first) {
        SendWindow w = new SendWindow(128, first);
        SendWindow.AckOutcome o = new SendWindow.AckOutcome();
        sendAll(w, 100, MS);
        // Frames first+2 and first+4 arrived (bits 1 and 3 above ack first+1... ack = first: bit i = first+1+i).
        assertEquals(SendWindow.OK, w.onAck(first, 0b1010, NONE, 0, 0, 2 * MS, o));
        assertEquals(2, o.newlyAcked);
        assertFalse(o.advanced);
        assertEquals(SendWindow.INVALID, w.onAck(first + 101, 0, NONE, 0, 0, 2 * MS, o), "acks a frame never sent");
        assertEquals(SendWindow.INVALID, w.onAck(first + 50, 1L << 50, NONE, 0, 0, 2 * MS, o), "sack beyond what was sent");
        ByteBuffer ext = ByteBuffer.allocate(5).put(4, (byte) 0x08); // frame first + 65 + 32 + 3 = first + 100
        assertEquals(SendWindow.INVALID, w.onAck(first, 0, ext, 0, 5, 2 * MS, o), "extended map beyond what was sent");
        ext = ByteBuffer.allocate(4).put(0, (byte) 0x01); // frame first + 65
        assertEquals(SendWindow.OK, w.onAck(first, 0, ext, 0, 4, 2 * MS, o));
        assertEquals(1, o.newlyAcked);
        assertEquals(first, w.base(), "nothing changed by the invalid ones");
        // A stale cumulative ack (reordered on the way) is harmless.
        assertEquals(SendWindow.OK, w.onAck(first + 10, 0, NONE, 0, 0, 3 * MS, o));
        assertEquals(SendWindow.OK, w.onAck(first + 5, 0, NONE, 0, 0, 3 * MS, o));
        assertFalse(o.advanced);
        assertEquals(first + 10, w.base());
    }

    @Test
    void aFrameIsLostWhenALaterOneArrivedAndItsAllowanceHasPassed() {
        SendWindow w = new SendWindow(64);
        SendWindow.AckOutcome o = new SendWindow.AckOutcome();
        sendAll(w, 3, 10 * MS); // 0, 1, 2 in one burst: one clock reading
        sendAll(w, 2, 11 * MS); // 3, 4
        w.onAck(0, 1L << 1, NONE, 0, 0, 11 * MS, o); // frame 2 arrived, 0 and 1 did not
        assertEquals(0, w.detectLosses(11 * MS, MS, MS / 4), "within srtt + reorder allowance");
        assertEquals(10 * MS + MS + MS / 4, w.nextLossCheck());
        assertEquals(2, w.detectLosses(w.nextLossCheck(), MS, MS / 4), "0 and 1: sent before 2 (same instant, lower number)");
        assertTrue(w.isDue(0) && w.isDue(1));
        assertFalse(w.isDue(3) || w.isDue(4), "sent after the newest arrival: not judged yet");
        assertEquals(Long.MAX_VALUE, w.nextLossCheck());
    }

    @Test
    void karnsRuleRetransmittedFramesNeitherSampleNorMoveTheLossReference() {
        SendWindow w = new SendWindow(64);
        SendWindow.AckOutcome o = new SendWindow.AckOutcome();
        sendAll(w, 10, 10 * MS);
        assertTrue(w.resend(0));
        assertFalse(w.resend(0), "already due");
        w.sent(0, 50 * MS); // the retransmission
        w.onAck(1, 0, NONE, 0, 0, 51 * MS, o);
        assertEquals(-1, o.rttSampleNanos, "ambiguous: original or retransmission?");
        assertEquals(0, w.detectLosses(200 * MS, MS, MS), "the retransmission's ack says nothing about 1..9");
        w.onAck(1, 1L << 2, NONE, 0, 0, 52 * MS, o); // frame 4, sent once, arrived
        assertEquals(42 * MS, o.rttSampleNanos);
        assertEquals(3, w.detectLosses(200 * MS, MS, MS), "1, 2 and 3 were sent before 4");
    }

    @Test
    void aTimeoutResendsEveryFrameThatOutlivedIt() {
        SendWindow w = new SendWindow(64);
        SendWindow.AckOutcome o = new SendWindow.AckOutcome();
        sendAll(w, 5, 10 * MS);
        sendAll(w, 5, 20 * MS);
        w.onAck(0, 1L << 2, NONE, 0, 0, 21 * MS, o); // frame 3 selectively acked
        assertEquals(4, w.resendSentBefore(15 * MS), "0, 1, 2 and 4; not 3 (arrived), not 5..9 (younger)");
        assertEquals(4, w.dueCount());
        assertEquals(0, w.resendSentBefore(15 * MS), "already due");
        w.onAck(0, 1L << 3, NONE, 0, 0, 22 * MS, o);
        assertEquals(3, w.dueCount(), "a due frame that turns out to have arrived is no longer due");
    }

    @Test
    void limitsInFramesAndBytes() {
        SendWindow w = new SendWindow(8);
        w.limit(3);
        assertEquals(3, w.limit());
        sendAll(w, 3, MS);
        assertFalse(w.hasRoom());
        w.limit(100);
        assertEquals(8, w.limit(), "never beyond the ring");
        w.byteLimit(4 * (100 + UdpFrameDescriptor.FIRST_HEADER_LENGTH));
        assertTrue(w.hasRoom());
        sendAll(w, 1, MS);
        assertFalse(w.hasRoom(), "byte limit reached");
        SendWindow empty = new SendWindow(8);
        empty.byteLimit(1);
        assertTrue(empty.hasRoom(), "one frame may always go, however large");
    }

    @Test
    void clearReturnsTheUnfinishedMessagesOnce() {
        SendWindow w = new SendWindow(8);
        OutboundMessage a = message();
        OutboundMessage b = message();
        w.add(a, 0, 50, true, false);
        w.add(a, 50, 50, false, true);
        w.add(b, 0, 100, true, false);
        OutboundMessage[] pending = w.clear();
        assertEquals(2, pending.length);
        assertSame(a, pending[0]);
        assertSame(b, pending[1]);
        assertTrue(w.isEmpty());
    }
}

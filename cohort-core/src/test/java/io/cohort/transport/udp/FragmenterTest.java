package io.cohort.transport.udp;

import io.cohort.transport.InboundSink;
import io.cohort.transport.InboundTarget;
import io.cohort.transport.TestTargets;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Fragmentation to the datagram size and reassembly into the engine's buffer. */
@Isolated // records JFR events, which are process-wide: another class's peers would add theirs
@Timeout(10)
class FragmenterTest {
    /** A sink that records messages; the target is a fresh array of exactly the message's length. */
    static final class RecordingSink implements InboundSink {
        final List<byte[]> messages = new ArrayList<>();
        final List<int[]> envelopes = new ArrayList<>();
        final List<String> failures = new ArrayList<>();

        @Override
        public InboundTarget begin(int source, int context, int tag, int length) {
            ByteBuffer b = ByteBuffer.allocate(length);
            envelopes.add(new int[] {source, context, tag, length});
            return TestTargets.of(b, () -> {
                assertFalse(b.hasRemaining(), "completed before it was full");
                messages.add(b.array());
            });
        }

        @Override
        public void peerFailed(int source, String reason) {
            failures.add(reason);
        }
    }

    private static OutboundMessage message(byte[] payload) {
        return new OutboundMessage(UdpFrameDescriptor.TYPE_DATA, 5, 6, ByteBuffer.wrap(payload), 0, payload.length, 0, null);
    }

    @Test
    void capacitiesAndCounts() {
        Fragmenter f = new Fragmenter(1472);
        assertEquals(1420, f.firstCapacity());
        assertEquals(1432, f.moreCapacity());
        assertEquals(1, f.fragments(0));
        assertEquals(1, f.fragments(1420));
        assertEquals(2, f.fragments(1421));
        assertEquals(2, f.fragments(1420 + 1432));
        assertEquals(3, f.fragments(1420 + 1432 + 1));
        assertEquals(1 + (Integer.MAX_VALUE - 1420L + 1431) / 1432, f.fragments(Integer.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> new Fragmenter(52));
    }

    @Test
    void aZeroLengthMessageIsOneFirstFragment() {
        Fragmenter f = new Fragmenter(600);
        OutboundMessage m = message(new byte[0]);
        assertFalse(m.fullyFragmented());
        assertEquals(0, f.next(m));
        assertTrue(m.fullyFragmented());
    }

    @Test
    void randomMessagesSurviveFragmentationAndReassembly() {
        Random r = new Random(5);
        for (int datagram : new int[] {576, 1472, 9000, 65_507}) {
            Fragmenter f = new Fragmenter(datagram);
            RecordingSink sink = new RecordingSink();
            Reassembler re = new Reassembler(2, sink);
            List<byte[]> sent = new ArrayList<>();
            for (int k = 0; k < 40; k++) {
                byte[] p = new byte[k == 0 ? 0 : r.nextInt(k % 5 == 0 ? 300_000 : 3000)];
                r.nextBytes(p);
                sent.add(p);
                OutboundMessage m = message(p);
                int fragments = 0;
                while (!m.fullyFragmented()) {
                    boolean first = !m.started;
                    int offset = m.fragmented;
                    int n = f.next(m);
                    fragments++;
                    assertTrue(n <= (first ? f.firstCapacity() : f.moreCapacity()));
                    assertTrue(first || n > 0, "continuations carry bytes");
                    ByteBuffer frame = ByteBuffer.allocate(datagram).order(ByteOrder.LITTLE_ENDIAN);
                    int at = first ? UdpFrameDescriptor.FIRST_HEADER_LENGTH : UdpFrameDescriptor.HEADER_LENGTH;
                    frame.put(at, p, offset, n);
                    int status = first ? re.first(5, 6, p.length, frame, at, n) : re.more(frame, at, n);
                    assertEquals(m.fullyFragmented() ? Reassembler.COMPLETE : Reassembler.OK, status);
                }
                assertEquals(f.fragments(p.length), fragments);
            }
            assertEquals(sent.size(), sink.messages.size());
            for (int i = 0; i < sent.size(); i++) {
                assertArrayEquals(sent.get(i), sink.messages.get(i), "message " + i + " at " + datagram);
                assertArrayEquals(new int[] {2, 5, 6, sent.get(i).length}, sink.envelopes.get(i));
            }
        }
    }

    @Test
    void fragmentsThatDoNotFitTheStreamAreRefused() {
        RecordingSink sink = new RecordingSink();
        Reassembler re = new Reassembler(1, sink);
        ByteBuffer b = ByteBuffer.allocate(100);
        assertEquals(Reassembler.MALFORMED, re.more(b, 0, 10), "a continuation with no message begun");
        assertEquals(Reassembler.MALFORMED, re.first(0, 0, 5, b, 0, 6), "more bytes than the message");
        assertEquals(Reassembler.OK, re.first(0, 0, 20, b, 0, 10));
        assertTrue(re.inMessage());
        assertEquals(Reassembler.MALFORMED, re.first(0, 0, 20, b, 0, 10), "a new message in the middle of one");
        assertEquals(Reassembler.MALFORMED, re.more(b, 0, 11), "past the end of the message");
        assertEquals(Reassembler.COMPLETE, re.more(b, 0, 10));
        assertFalse(re.inMessage());
        assertEquals(1, sink.messages.size());
    }
}

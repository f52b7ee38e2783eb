package io.cohort.transport.stream;

import io.cohort.transport.InboundSink;
import io.cohort.transport.InboundTarget;
import io.cohort.transport.TestTargets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The frame reader against a byte stream whose arrivals the test controls: each {@link
 * FrameReader#read} stands for one readiness event of the selector, as in {@code TcpTransport}.
 */
@Timeout(10)
class FrameReaderTest {

    /** A non-blocking socket's receive side: whatever has arrived, handed out up to the reader's room. */
    private static final class Stream implements ReadableByteChannel {
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        private int readPos;
        private boolean eof;
        int reads;
        int emptyReads;

        void arrive(byte[] bytes) {
            pending.write(bytes, 0, bytes.length);
        }

        int available() {
            return pending.size() - readPos;
        }

        @Override
        public int read(ByteBuffer dst) {
            reads++;
            int n = Math.min(dst.remaining(), available());
            if (n == 0) {
                if (eof) {
                    return -1;
                }
                emptyReads++;
                return 0;
            }
            dst.put(pending.toByteArray(), readPos, n); // test-sized streams: copying is fine
            readPos += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    private record Message(int context, int tag, byte[] payload) {
    }

    private static final class Collector implements InboundSink {
        final List<Message> messages = new ArrayList<>();
        boolean directTarget;

        @Override
        public InboundTarget begin(int source, int context, int tag, int length) {
            ByteBuffer b = directTarget ? ByteBuffer.allocateDirect(length) : ByteBuffer.allocate(length);
            return TestTargets.of(b, () -> {
                byte[] copy = new byte[length];
                b.flip().get(copy);
                messages.add(new Message(context, tag, copy));
            });
        }

        @Override
        public void peerFailed(int source, String reason) {
        }
    }

    private static byte[] frame(short type, int context, int tag, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(FrameDescriptor.HEADER_LENGTH + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        FrameDescriptor.write(b, payload.length, type, context, tag);
        b.put(payload);
        return b.array();
    }

    private static byte[] data(int tag, byte[] payload) {
        return frame(FrameDescriptor.TYPE_DATA, 7, tag, payload);
    }

    private static byte[] payload(int length, int seed) {
        byte[] p = new byte[length];
        for (int i = 0; i < length; i++) {
            p[i] = (byte) (i * 31 + seed);
        }
        return p;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.write(p, 0, p.length);
        }
        return out.toByteArray();
    }

    @Test
    void framesThatArrivedTogetherAreReadWithOneSystemCall() {
        Stream s = new Stream();
        Collector sink = new Collector();
        FrameReader r = new FrameReader(1, s, sink);
        s.arrive(concat(data(1, payload(8, 1)), data(2, new byte[0]), data(3, payload(1000, 3))));

        assertEquals(3, r.read("rank 1"));

        assertEquals(1, s.reads, "a short read means the socket is empty; asking again is a wasted call");
        assertEquals(0, s.emptyReads);
        assertEquals(List.of(1, 2, 3), sink.messages.stream().map(Message::tag).toList());
        assertArrayEquals(payload(1000, 3), sink.messages.get(2).payload());
        assertEquals(FrameReader.End.NONE, r.end());
    }

    @Test
    void aFrameSplitAtEveryPlaceIsDeliveredWholeOnceItsLastByteArrives() {
        byte[] f = data(9, payload(300, 9));
        for (int cut = 1; cut < f.length; cut += 7) {
            Stream s = new Stream();
            Collector sink = new Collector();
            FrameReader r = new FrameReader(1, s, sink);
            s.arrive(Arrays.copyOfRange(f, 0, cut));
            assertEquals(0, r.read("rank 1"), "cut at " + cut);
            s.arrive(Arrays.copyOfRange(f, cut, f.length));
            assertEquals(1, r.read("rank 1"), "cut at " + cut);
            assertArrayEquals(payload(300, 9), sink.messages.get(0).payload(), "cut at " + cut);
            assertEquals(0, s.emptyReads, "cut at " + cut);
        }
    }

    @Test
    void aReadThatFillsTheBufferIsFollowedByAnotherInTheSameCall() {
        // More than the read buffer holds: the first read comes back full, so the reader must go on.
        int length = 40 * 1024;
        Stream s = new Stream();
        Collector sink = new Collector();
        FrameReader r = new FrameReader(1, s, sink);
        s.arrive(concat(data(1, payload(length, 1)), data(2, payload(length, 2)), data(3, payload(length, 3))));

        assertEquals(3, r.read("rank 1"));

        assertEquals(0, s.available());
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(payload(length, i + 1), sink.messages.get(i).payload());
        }
        assertEquals(0, s.emptyReads, "the last read was short, so it ended the call");
    }

    @Test
    void aLargePayloadReadStraightIntoItsTargetStopsAtEachShortRead() {
        for (boolean direct : new boolean[] {false, true}) {
            int length = 600 * 1024; // beyond the heap slice: the heap target is read in slices
            byte[] f = data(5, payload(length, 5));
            Stream s = new Stream();
            Collector sink = new Collector();
            sink.directTarget = direct;
            FrameReader r = new FrameReader(1, s, sink);
            int chunk = 100_000;
            int frames = 0;
            for (int at = 0; at < f.length; at += chunk) {
                s.arrive(Arrays.copyOfRange(f, at, Math.min(f.length, at + chunk)));
                frames += r.read("rank 1");
                assertEquals(0, s.available(), "everything that arrived was read");
            }
            assertEquals(1, frames);
            assertArrayEquals(payload(length, 5), sink.messages.get(0).payload());
            assertEquals(0, s.emptyReads, direct ? "direct target" : "heap target");
        }
    }

    @Test
    void endOfStreamAfterGoodbyeIsACleanEndAtTheNextReadiness() {
        Stream s = new Stream();
        Collector sink = new Collector();
        FrameReader r = new FrameReader(1, s, sink);
        s.arrive(concat(data(1, payload(8, 1)), frame(FrameDescriptor.TYPE_BYE, 0, 0, new byte[0])));
        s.eof = true;

        assertEquals(2, r.read("rank 1"));
        assertTrue(r.byeReceived());
        assertEquals(FrameReader.End.NONE, r.end(), "the short read already said the socket was empty");

        r.read("rank 1"); // the selector reports the end of stream as readable
        assertEquals(FrameReader.End.CLEAN, r.end());
    }

    @Test
    void endOfStreamInsideAFrameLosesThePeer() {
        Stream s = new Stream();
        Collector sink = new Collector();
        FrameReader r = new FrameReader(1, s, sink);
        byte[] f = data(1, payload(100, 1));
        s.arrive(Arrays.copyOfRange(f, 0, 50));
        s.eof = true;

        r.read("rank 1");
        r.read("rank 1");

        assertEquals(FrameReader.End.LOST, r.end());
        assertTrue(r.lostReason().contains("rank 1"), r.lostReason());
        assertTrue(sink.messages.isEmpty());
    }

    @Test
    void aMalformedFrameEndsTheConnectionAndIsCounted() {
        Stream s = new Stream();
        Collector sink = new Collector();
        FrameReader r = new FrameReader(1, s, sink);
        s.arrive(concat(data(1, payload(8, 1)), frame((short) 99, 0, 0, payload(4, 0))));

        assertEquals(1, r.read("rank 1"));

        assertEquals(FrameReader.End.LOST, r.end());
        assertEquals(1, r.malformedFrames());
        assertTrue(r.lostReason().contains("malformed"), r.lostReason());
    }
}

package io.cohort.wireup;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class ControlFrameTest {
    static ControlFrame sample(int type, int bodyLength) {
        byte[] body = new byte[bodyLength];
        for (int i = 0; i < bodyLength; i++) {
            body[i] = (byte) (i * 31 + type);
        }
        return new ControlFrame(type, body);
    }

    static byte[] streamBytes(ControlFrame... frames) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (ControlFrame f : frames) {
            f.writeTo(out);
        }
        out.flush();
        return bytes.toByteArray();
    }

    static byte[] header(int length, int type) {
        return ByteBuffer.allocate(5).putInt(length).put((byte) type).array();
    }

    @Test
    void wireLayoutIsBigEndianLengthThenType() throws IOException {
        byte[] wire = streamBytes(new ControlFrame(ControlMessageType.PEER_TABLE, new byte[] {9, 8, 7}));
        assertArrayEquals(new byte[] {0, 0, 0, 4, 2, 9, 8, 7}, wire);
        ByteBuffer encoded = new ControlFrame(ControlMessageType.PEER_TABLE, new byte[] {9, 8, 7}).encode();
        byte[] e = new byte[encoded.remaining()];
        encoded.get(e);
        assertArrayEquals(wire, e, "encode() and writeTo() must produce the same bytes");
    }

    @Test
    void streamRoundTripOfSeveralFrames() throws IOException {
        ControlFrame[] frames = {sample(1, 0), sample(255, 1), sample(20, 70_000), sample(ControlMessageType.STOP, 3)};
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(streamBytes(frames)));
        for (ControlFrame f : frames) {
            ControlFrame g = ControlFrame.readFrom(in);
            assertNotNull(g);
            assertEquals(f.type(), g.type());
            assertArrayEquals(f.body(), g.body());
        }
        assertNull(ControlFrame.readFrom(in), "clean end of stream between frames gives null");
    }

    @Test
    void streamEndingInsideAFrameIsAnError() throws IOException {
        byte[] wire = streamBytes(sample(3, 100));
        for (int cut : new int[] {1, 3, 4, 5, 50, wire.length - 1}) {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(Arrays.copyOf(wire, cut)));
            if (cut < 4) {
                // DataInputStream.readInt reports a partial length as EOF; readFrom treats it as a clean end.
                assertNull(ControlFrame.readFrom(in), "cut at " + cut);
            } else {
                assertThrows(EOFException.class, () -> ControlFrame.readFrom(in), "cut at " + cut);
            }
        }
    }

    @Test
    void streamRejectsBadLengths() {
        for (int length : new int[] {0, -1, Integer.MIN_VALUE, ControlFrame.MAX_LENGTH + 1, Integer.MAX_VALUE}) {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(header(length, 1)));
            IOException e = assertThrows(IOException.class, () -> ControlFrame.readFrom(in), "length " + length);
            assertTrue(e.getMessage().contains("malformed") && e.getMessage().contains(Integer.toString(length)), e.getMessage());
        }
    }

    @Test
    void aFirstFrameIsBoundedBeforeItsBodyIsAllocated() throws IOException {
        DataInputStream tooLong = new DataInputStream(new ByteArrayInputStream(header(ControlFrame.MAX_FIRST_LENGTH + 1, 1)));
        assertThrows(IOException.class, () -> ControlFrame.readFrom(tooLong, ControlFrame.MAX_FIRST_LENGTH));
        ControlFrame hello = sample(3, ControlFrame.MAX_FIRST_LENGTH - 1);
        ControlFrame read = ControlFrame.readFrom(new DataInputStream(new ByteArrayInputStream(streamBytes(hello))),
                ControlFrame.MAX_FIRST_LENGTH);
        assertArrayEquals(hello.body(), read.body());
    }

    @Test
    void maxLengthItselfIsAccepted() throws IOException {
        ControlFrame big = sample(7, ControlFrame.MAX_LENGTH - 1);
        ControlFrame parsed = ControlFrame.parse(big.encode());
        assertNotNull(parsed);
        assertEquals(ControlFrame.MAX_LENGTH - 1, parsed.body().length);
        ControlFrame read = ControlFrame.readFrom(new DataInputStream(new ByteArrayInputStream(streamBytes(big))));
        assertArrayEquals(big.body(), read.body());
    }

    @Test
    void parseRoundTrip() throws IOException {
        ControlFrame f = sample(ControlMessageType.OUTPUT, 1234);
        ByteBuffer b = f.encode();
        ControlFrame g = ControlFrame.parse(b);
        assertEquals(f.type(), g.type());
        assertArrayEquals(f.body(), g.body());
        assertFalse(b.hasRemaining());
    }

    @Test
    void parseReturnsNullAndLeavesThePartialBufferUnchanged() throws IOException {
        byte[] wire = streamBytes(sample(5, 40));
        for (int have = 0; have < wire.length; have++) {
            ByteBuffer b = ByteBuffer.allocate(100);
            b.position(3); // frames need not start at 0
            b.put(wire, 0, have).flip().position(3);
            assertNull(ControlFrame.parse(b), "only " + have + " bytes present");
            assertEquals(3, b.position(), "position moved with " + have + " bytes");
            assertEquals(3 + have, b.limit(), "limit moved with " + have + " bytes");
        }
    }

    @Test
    void parseTakesFramesOneAtATimeAsBytesArrive() throws IOException {
        ControlFrame[] frames = {sample(1, 10), sample(2, 0), sample(200, 300)};
        byte[] wire = streamBytes(frames);
        ByteBuffer b = ByteBuffer.allocate(wire.length);
        b.flip();
        int next = 0;
        for (byte x : wire) {
            // Append one byte, as a non-blocking channel might deliver it.
            b.compact().put(x).flip();
            ControlFrame f;
            while ((f = ControlFrame.parse(b)) != null) {
                assertEquals(frames[next].type(), f.type());
                assertArrayEquals(frames[next].body(), f.body());
                next++;
            }
        }
        assertEquals(frames.length, next);
        assertFalse(b.hasRemaining());
    }

    @Test
    void parseRejectsBadLengths() {
        for (int length : new int[] {0, -7, ControlFrame.MAX_LENGTH + 1}) {
            ByteBuffer b = ByteBuffer.wrap(header(length, 1));
            IOException e = assertThrows(IOException.class, () -> ControlFrame.parse(b), "length " + length);
            assertTrue(e.getMessage().contains("malformed"), e.getMessage());
        }
    }

    @Test
    void bodyWriterAndReaderRoundTrip() throws IOException {
        byte[] block = {1, 2, 3, 4, 5, 6};
        ControlFrame f = ControlFrame.build(ControlMessageType.LAUNCH)
                .putInt(-42).putLong(Long.MIN_VALUE).putBoolean(true).putBoolean(false).putByte(250)
                .putString("héllo → wörld").putString("").putBytes(block).putBytes(block, 2, 3)
                .frame();
        assertEquals(ControlMessageType.LAUNCH, f.type());
        ControlFrame g = ControlFrame.parse(f.encode());
        ControlFrame.BodyReader r = g.reader();
        assertEquals(-42, r.getInt());
        assertEquals(Long.MIN_VALUE, r.getLong());
        assertTrue(r.getBoolean());
        assertFalse(r.getBoolean());
        assertEquals(250, r.getByte());
        assertEquals("héllo → wörld", r.getString());
        assertEquals("", r.getString());
        assertArrayEquals(block, r.getBytes());
        assertArrayEquals(new byte[] {3, 4, 5}, r.getBytes());
        assertThrows(EOFException.class, r::getInt, "reading past the body");
    }

    @Test
    void bodyReaderRejectsImpossibleBlockLengths() {
        ControlFrame negative = ControlFrame.build(1).putInt(-1).frame();
        assertThrows(IOException.class, () -> negative.reader().getBytes());
        ControlFrame tooLong = ControlFrame.build(1).putInt(1000).putInt(0).frame();
        IOException e = assertThrows(IOException.class, () -> tooLong.reader().getString());
        assertTrue(e.getMessage().contains("malformed"), e.getMessage());
    }

    @Test
    void typeNames() {
        assertEquals("PEER_HELLO", ControlMessageType.name(ControlMessageType.PEER_HELLO));
        assertEquals("UNKNOWN(99)", ControlMessageType.name(99));
        assertEquals("EXITED[0 bytes]", new ControlFrame(ControlMessageType.EXITED, new byte[0]).toString());
    }
}

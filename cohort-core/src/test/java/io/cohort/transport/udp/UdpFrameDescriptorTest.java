package io.cohort.transport.udp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.cohort.transport.udp.UdpFrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Pins the wire layout: offsets, sizes, byte order, and every reason a datagram is refused. */
@Timeout(10)
class UdpFrameDescriptorTest {
    private static final long KEY = 0x1122334455667788L;

    @Test
    void offsetsAndSizesAreTheDocumentedOnes() {
        assertEquals(0, MAGIC_OFFSET);
        assertEquals(4, VERSION_OFFSET);
        assertEquals(5, TYPE_OFFSET);
        assertEquals(6, FLAGS_OFFSET);
        assertEquals(8, JOB_KEY_OFFSET);
        assertEquals(16, RANK_OFFSET);
        assertEquals(20, SEQ_OFFSET);
        assertEquals(24, ACK_OFFSET);
        assertEquals(28, SACK_OFFSET);
        assertEquals(36, WINDOW_OFFSET);
        assertEquals(38, EXTRA_OFFSET);
        assertEquals(40, HEADER_LENGTH);
        assertEquals(40, CONTEXT_OFFSET);
        assertEquals(44, TAG_OFFSET);
        assertEquals(48, MESSAGE_LENGTH_OFFSET);
        assertEquals(52, FIRST_HEADER_LENGTH);
        assertEquals(1, VERSION);
        assertEquals(64, SACK_BITS);
    }

    @Test
    void aFirstFragmentIsLittleEndianByteForByte() {
        ByteBuffer b = ByteBuffer.allocate(60).order(ByteOrder.LITTLE_ENDIAN);
        writeHeader(b, TYPE_DATA, FLAG_FIRST, KEY, 3, 0x01020304, 0x0A0B0C0D, 0x8000000000000001L, 0x1234, 0);
        writeMessageHeader(b, 7, 9, 8);
        b.put(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        byte[] a = b.array();
        assertEquals('C', a[0]);
        assertEquals('O', a[1]);
        assertEquals('H', a[2]);
        assertEquals('U', a[3]);
        assertEquals(1, a[4]);
        assertEquals(TYPE_DATA, a[5]);
        assertEquals(1, a[6]);
        assertEquals(0, a[7]);
        assertEquals((byte) 0x88, a[8]);
        assertEquals((byte) 0x11, a[15]);
        assertEquals(3, a[16]);
        assertEquals(4, a[20]);
        assertEquals(1, a[23]);
        assertEquals(0x0D, a[24]);
        assertEquals(1, a[28]);
        assertEquals((byte) 0x80, a[35]);
        assertEquals(0x34, a[36]);
        assertEquals(0x12, a[37]);
        assertEquals(7, a[40]);
        assertEquals(9, a[44]);
        assertEquals(8, a[48]);
        assertEquals(1, a[52]);
        assertEquals(60, b.position());
        assertEquals(3, check(b, 60, KEY, 4));
        assertEquals(0x01020304, seq(b));
        assertEquals(0x0A0B0C0D, ack(b));
        assertEquals(0x8000000000000001L, sack(b));
        assertEquals(0x1234, window(b));
        assertEquals(7, context(b));
        assertEquals(9, tag(b));
        assertEquals(8, messageLength(b));
        assertEquals(FIRST_HEADER_LENGTH, payloadOffset(b));
    }

    private static ByteBuffer frame(byte type, short flags, int length, int extra) {
        ByteBuffer b = ByteBuffer.allocate(Math.max(length, HEADER_LENGTH)).order(ByteOrder.LITTLE_ENDIAN);
        writeHeader(b, type, flags, KEY, 1, 0, 0, 0, 16, extra);
        return b;
    }

    @Test
    void everyKindOfBadDatagramHasItsReason() {
        assertEquals(TRUNCATED, check(frame(TYPE_ACK, (short) 0, 40, 0), 39, KEY, 4), "shorter than the header");
        assertEquals(TRUNCATED, check(frame(TYPE_ACK, (short) 0, 40, 0), 0, KEY, 4), "empty");
        ByteBuffer junk = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 0xDEADBEEF);
        assertEquals(NOT_COHORT, check(junk, 10, KEY, 4), "short and foreign");
        assertEquals(NOT_COHORT, check(junk, 40, KEY, 4));
        ByteBuffer b = frame(TYPE_ACK, (short) 0, 40, 0);
        b.put(VERSION_OFFSET, (byte) 2);
        assertEquals(WRONG_VERSION, check(b, 40, KEY, 4));
        assertEquals(WRONG_JOB, check(frame(TYPE_ACK, (short) 0, 40, 0), 40, KEY + 1, 4));
        b = frame(TYPE_ACK, (short) 0, 40, 0);
        b.putInt(RANK_OFFSET, 4);
        assertEquals(BAD_RANK, check(b, 40, KEY, 4), "rank beyond the job");
        b.putInt(RANK_OFFSET, -1);
        assertEquals(BAD_RANK, check(b, 40, KEY, 4));
        assertEquals(MALFORMED, check(frame((byte) 0, (short) 0, 40, 0), 40, KEY, 4), "type 0");
        assertEquals(MALFORMED, check(frame((byte) 9, (short) 0, 40, 0), 40, KEY, 4), "type 9");
        b = frame(TYPE_ACK, (short) 0, 40, 0);
        b.putShort(WINDOW_OFFSET, (short) 0);
        assertEquals(MALFORMED, check(b, 40, KEY, 4), "a window of 0");
        assertEquals(MALFORMED, check(frame(TYPE_DATA, (short) 2, 41, 0), 41, KEY, 4), "unknown flag");
        assertEquals(MALFORMED, check(frame(TYPE_DATA, (short) 0, 41, 1), 41, KEY, 4), "extra on data");
        assertEquals(MALFORMED, check(frame(TYPE_DATA, (short) 0, 40, 0), 40, KEY, 4), "a continuation without payload");
        assertEquals(TRUNCATED, check(frame(TYPE_DATA, FLAG_FIRST, 51, 0), 51, KEY, 4), "first without message header");
        b = frame(TYPE_DATA, FLAG_FIRST, 60, 0);
        b.putInt(MESSAGE_LENGTH_OFFSET, -5);
        assertEquals(MALFORMED, check(b, 60, KEY, 4), "negative message length");
        b.putInt(MESSAGE_LENGTH_OFFSET, 7);
        assertEquals(MALFORMED, check(b, 60, KEY, 4), "first fragment longer than its message");
        b.putInt(MESSAGE_LENGTH_OFFSET, Integer.MAX_VALUE);
        assertEquals(1, check(b, 60, KEY, 4), "the largest message is fine");
        assertEquals(MALFORMED, check(frame(TYPE_BYE, (short) 0, 41, 0), 41, KEY, 4), "bye with payload");
        assertEquals(MALFORMED, check(frame(TYPE_BYE, FLAG_FIRST, 40, 0), 40, KEY, 4), "bye with a flag");
        assertEquals(TRUNCATED, check(frame(TYPE_ACK, (short) 0, 48, 8), 47, KEY, 4), "ack shorter than its map");
        assertEquals(MALFORMED, check(frame(TYPE_ACK, (short) 0, 49, 8), 49, KEY, 4), "ack longer than its map");
        assertEquals(MALFORMED, check(frame(TYPE_ACK, (short) 0, 40 + MAX_EXTRA + 1, MAX_EXTRA + 1),
                40 + MAX_EXTRA + 1, KEY, 4), "map beyond any window");
        assertEquals(1, check(frame(TYPE_ACK, (short) 0, 48, 8), 48, KEY, 4));
        assertEquals(1, check(frame(TYPE_BYE, (short) 0, 40, 0), 40, KEY, 4));
        assertEquals(1, check(frame(TYPE_DATA, (short) 0, 41, 0), 41, KEY, 4));
    }
}

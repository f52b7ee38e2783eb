package io.cohort.transport.tcp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Pins the connection handshake's hello and checks that strangers are recognised. */
@Timeout(10)
class HandshakeDescriptorTest {
    static final long KEY = 0x0102030405060708L;

    static final byte[] NONCE = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

    static ByteBuffer handshake(long key, int rank, int size) {
        ByteBuffer b = ByteBuffer.allocate(HandshakeDescriptor.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        HandshakeDescriptor.write(b, key, rank, size, NONCE);
        return b;
    }

    @Test
    void layoutConstantsArePinned() {
        assertEquals(0x54484F43, HandshakeDescriptor.MAGIC);
        assertEquals(2, HandshakeDescriptor.VERSION);
        assertEquals(0, HandshakeDescriptor.MAGIC_OFFSET);
        assertEquals(4, HandshakeDescriptor.VERSION_OFFSET);
        assertEquals(8, HandshakeDescriptor.JOB_TAG_OFFSET);
        assertEquals(16, HandshakeDescriptor.RANK_OFFSET);
        assertEquals(20, HandshakeDescriptor.SIZE_OFFSET);
        assertEquals(24, HandshakeDescriptor.NONCE_OFFSET);
        assertEquals(40, HandshakeDescriptor.LENGTH);
        assertEquals(16, HandshakeDescriptor.PROOF_LENGTH);
    }

    @Test
    void writesLittleEndianBytes() {
        ByteBuffer b = handshake(KEY, 3, 0x0A0B0C0D);
        assertEquals(40, b.position());
        byte[] a = b.array();
        assertEquals("COHT", new String(a, 0, 4, StandardCharsets.US_ASCII), "magic reads COHT on the wire");
        assertArrayEquals(new byte[] {2, 0, 0, 0}, java.util.Arrays.copyOfRange(a, 4, 8), "version 2, reserved 0");
        assertArrayEquals(new byte[] {8, 7, 6, 5, 4, 3, 2, 1}, java.util.Arrays.copyOfRange(a, 8, 16));
        assertArrayEquals(new byte[] {3, 0, 0, 0}, java.util.Arrays.copyOfRange(a, 16, 20));
        assertArrayEquals(new byte[] {0x0D, 0x0C, 0x0B, 0x0A}, java.util.Arrays.copyOfRange(a, 20, 24));
        assertArrayEquals(NONCE, java.util.Arrays.copyOfRange(a, 24, 40), "the nonce as it is");
        assertArrayEquals(NONCE, HandshakeDescriptor.nonce(b, 0));
    }

    @Test
    void theProofsClaimsNameTheJobBothRanksInOrderAndTheSize() {
        byte[] b = HandshakeDescriptor.bound(KEY, 3, 1, 0x0A0B0C0D);
        assertArrayEquals(new byte[] {8, 7, 6, 5, 4, 3, 2, 1, 3, 0, 0, 0, 1, 0, 0, 0, 0x0D, 0x0C, 0x0B, 0x0A}, b);
    }

    @Test
    void validateReturnsTheSendersRank() {
        for (int rank = 0; rank < 5; rank++) {
            assertEquals(rank, HandshakeDescriptor.validate(handshake(KEY, rank, 5), 0, KEY, 5));
        }
    }

    @Test
    void validateAtAnOffset() {
        ByteBuffer b = ByteBuffer.allocate(56).order(ByteOrder.LITTLE_ENDIAN);
        b.position(9);
        HandshakeDescriptor.write(b, KEY, 2, 4, NONCE);
        assertEquals(49, b.position());
        assertEquals(2, HandshakeDescriptor.validate(b, 9, KEY, 4));
        assertEquals(-1, HandshakeDescriptor.validate(b, 0, KEY, 4));
    }

    @Test
    void foreignHandshakesAreRejected() {
        ByteBuffer wrongMagic = handshake(KEY, 1, 4);
        wrongMagic.putInt(HandshakeDescriptor.MAGIC_OFFSET, 0x48545450); // "PTTH"
        assertEquals(-1, HandshakeDescriptor.validate(wrongMagic, 0, KEY, 4), "wrong magic");

        ByteBuffer wrongVersion = handshake(KEY, 1, 4);
        wrongVersion.putShort(HandshakeDescriptor.VERSION_OFFSET, (short) 1);
        assertEquals(-1, HandshakeDescriptor.validate(wrongVersion, 0, KEY, 4), "version 1, whose hello carried the key in clear");

        assertEquals(-1, HandshakeDescriptor.validate(handshake(KEY + 1, 1, 4), 0, KEY, 4), "wrong job tag");
        assertEquals(-1, HandshakeDescriptor.validate(handshake(KEY, 1, 5), 0, KEY, 4), "wrong size");
        assertEquals(-1, HandshakeDescriptor.validate(handshake(KEY, 4, 4), 0, KEY, 4), "rank == size");
        assertEquals(-1, HandshakeDescriptor.validate(handshake(KEY, -1, 4), 0, KEY, 4), "negative rank");
        assertEquals(-1, HandshakeDescriptor.validate(handshake(KEY, Integer.MAX_VALUE, 4), 0, KEY, 4), "huge rank");

        ByteBuffer garbage = ByteBuffer.wrap("GET / HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII))
                .order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(-1, HandshakeDescriptor.validate(garbage, 0, KEY, 4), "an HTTP request");
        assertEquals(-1, HandshakeDescriptor.validate(ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN), 0, 0, 0),
                "all zeros");
    }
}

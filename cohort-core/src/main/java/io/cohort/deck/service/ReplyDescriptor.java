package io.cohort.deck.service;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The answer to any DECK request, sent on {@link DeckContexts#REPLY} with the request's reply tag
 * as the message tag, so the caller receives it with an ordinary matched receive. Little-endian:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+-----------------------------------------------+
 *  | status (int8) |                reserved (24 bits)             |  0
 *  +---------------+-----------------------------------------------+
 *  |                       value a (int32)                         |  4
 *  +---------------------------------------------------------------+
 *  |                       value b (int32)                         |  8
 *  +---------------------------------------------------------------+
 *  |                   text length n (int32)                       | 12
 *  +---------------------------------------------------------------+
 *  |          text (n bytes of UTF-8): the error sentence ...      | 16
 * </pre>
 *
 * {@link #OK}: done, {@code a}/{@code b} carry the result (lookup: owner rank and id; join:
 * member id; bcast: members reached). {@link #FAILED}: refused, the text says why.
 * {@link #GONE}: the addressed mailbox or group no longer exists on that peer (a stale address;
 * the caller looks the name up again). Stateless helpers; any thread.
 */
final class ReplyDescriptor {
    static final int STATUS_OFFSET = 0;
    static final int A_OFFSET = 4;
    static final int B_OFFSET = 8;
    static final int TEXT_LENGTH_OFFSET = 12;
    static final int HEADER_LENGTH = 16;

    static final byte OK = 0;
    static final byte FAILED = 1;
    static final byte GONE = 2;

    private ReplyDescriptor() {
    }

    static byte[] ok(int a, int b) {
        return encode(OK, a, b, "");
    }

    static byte[] failed(String why) {
        return encode(FAILED, 0, 0, why);
    }

    static byte[] gone() {
        return encode(GONE, 0, 0, "");
    }

    static byte[] encode(byte status, int a, int b, String text) {
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        byte[] m = new byte[HEADER_LENGTH + t.length];
        ByteBuffer w = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
        w.put(STATUS_OFFSET, status);
        w.putInt(A_OFFSET, a);
        w.putInt(B_OFFSET, b);
        w.putInt(TEXT_LENGTH_OFFSET, t.length);
        w.put(HEADER_LENGTH, t);
        return m;
    }

    static boolean isValid(byte[] m) {
        return m.length >= HEADER_LENGTH && m[STATUS_OFFSET] >= OK && m[STATUS_OFFSET] <= GONE
                && le(m).getInt(TEXT_LENGTH_OFFSET) == m.length - HEADER_LENGTH;
    }

    static byte status(byte[] m) {
        return m[STATUS_OFFSET];
    }

    static int a(byte[] m) {
        return le(m).getInt(A_OFFSET);
    }

    static int b(byte[] m) {
        return le(m).getInt(B_OFFSET);
    }

    static String text(byte[] m) {
        return new String(m, HEADER_LENGTH, m.length - HEADER_LENGTH, StandardCharsets.UTF_8);
    }

    private static ByteBuffer le(byte[] m) {
        return ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
    }
}

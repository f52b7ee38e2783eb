package io.cohort.deck.service;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A request to the naming service on rank 0, sent on {@link DeckContexts#NAMING} with the
 * caller's reply tag as the message tag. Little-endian:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+-------------------------------+
 *  |   op (int8)   |  kind (int8)  |        reserved (int16)       |  0
 *  +---------------+---------------+-------------------------------+
 *  |          id (int32): the owner's local id of the entry        |  4
 *  +---------------------------------------------------------------+
 *  |                  name length n (int32, 1..255)                |  8
 *  +---------------------------------------------------------------+
 *  |                  name (n bytes of UTF-8) ...                  | 12
 * </pre>
 *
 * {@link #OP_REGISTER} binds the name to (sender's rank, id) for an entry of {@code kind};
 * {@link #OP_LOOKUP} asks for the binding of a name (kind: the kind expected, id 0);
 * {@link #OP_UNREGISTER} removes a binding (only its owner may, with the same id). The reply
 * ({@link ReplyDescriptor}) of a lookup carries the owner's rank in {@code a} and the id in
 * {@code b}. Stateless helpers; any thread.
 */
final class NamingRequestDescriptor {
    static final int OP_OFFSET = 0;
    static final int KIND_OFFSET = 1;
    static final int ID_OFFSET = 4;
    static final int NAME_LENGTH_OFFSET = 8;
    static final int HEADER_LENGTH = 12;

    static final byte OP_REGISTER = 1;
    static final byte OP_LOOKUP = 2;
    static final byte OP_UNREGISTER = 3;

    static final byte KIND_MAILBOX = 1;
    static final byte KIND_GROUP = 2;

    private NamingRequestDescriptor() {
    }

    static byte[] encode(byte op, byte kind, int id, byte[] name) {
        byte[] b = new byte[HEADER_LENGTH + name.length];
        ByteBuffer w = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        w.put(OP_OFFSET, op);
        w.put(KIND_OFFSET, kind);
        w.putInt(ID_OFFSET, id);
        w.putInt(NAME_LENGTH_OFFSET, name.length);
        w.put(HEADER_LENGTH, name);
        return b;
    }

    /** Whether {@code b} is a well-formed request (foreign or truncated ones are dropped). */
    static boolean isValid(byte[] b) {
        if (b.length < HEADER_LENGTH) {
            return false;
        }
        byte op = op(b);
        byte kind = kind(b);
        int n = le(b).getInt(NAME_LENGTH_OFFSET);
        return op >= OP_REGISTER && op <= OP_UNREGISTER && (kind == KIND_MAILBOX || kind == KIND_GROUP)
                && n >= 1 && n <= DeckNames.MAX_NAME_BYTES && b.length == HEADER_LENGTH + n;
    }

    static byte op(byte[] b) {
        return b[OP_OFFSET];
    }

    static byte kind(byte[] b) {
        return b[KIND_OFFSET];
    }

    static int id(byte[] b) {
        return le(b).getInt(ID_OFFSET);
    }

    static String name(byte[] b) {
        return DeckNames.decode(b, HEADER_LENGTH, le(b).getInt(NAME_LENGTH_OFFSET));
    }

    static String kindName(byte kind) {
        return kind == KIND_GROUP ? "group" : "mailbox";
    }

    private static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }
}

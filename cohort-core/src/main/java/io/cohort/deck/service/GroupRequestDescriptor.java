package io.cohort.deck.service;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A request to a group server, sent on {@link DeckContexts#GROUP} to the peer that created the
 * group, with the caller's reply tag as the message tag. Little-endian:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+-----------------------------------------------+
 *  |   op (int8)   |                reserved (24 bits)             |  0
 *  +---------------+-----------------------------------------------+
 *  |            group id (int32, local to the server's peer)       |  4
 *  +---------------------------------------------------------------+
 *  |  argument (int32): JOIN mailbox id, LEAVE/SYNC member id, 0   |  8
 *  +---------------------------------------------------------------+
 *  |               BCAST: the user's bytes ...                     | 12
 * </pre>
 *
 * JOIN adds the sender's mailbox (sender rank, mailbox id) and is answered with the member id in
 * {@code a}; LEAVE removes a member; BCAST posts the bytes to every member's mailbox and is
 * answered with the number of members reached; SYNC is answered once every member has synced;
 * DESTROY is answered once broadcasts in flight are done. A request for a group that no longer
 * exists on that peer is answered {@link ReplyDescriptor#GONE}. Stateless; any thread.
 */
final class GroupRequestDescriptor {
    static final int OP_OFFSET = 0;
    static final int GROUP_ID_OFFSET = 4;
    static final int ARGUMENT_OFFSET = 8;
    static final int HEADER_LENGTH = 12;

    static final byte OP_JOIN = 1;
    static final byte OP_LEAVE = 2;
    static final byte OP_BCAST = 3;
    static final byte OP_SYNC = 4;
    static final byte OP_DESTROY = 5;

    private GroupRequestDescriptor() {
    }

    static byte[] encode(byte op, int groupId, int argument, byte[] body) {
        byte[] m = new byte[HEADER_LENGTH + (body == null ? 0 : body.length)];
        ByteBuffer w = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
        w.put(OP_OFFSET, op);
        w.putInt(GROUP_ID_OFFSET, groupId);
        w.putInt(ARGUMENT_OFFSET, argument);
        if (body != null) {
            System.arraycopy(body, 0, m, HEADER_LENGTH, body.length);
        }
        return m;
    }

    static boolean isValid(byte[] m) {
        return m.length >= HEADER_LENGTH && m[OP_OFFSET] >= OP_JOIN && m[OP_OFFSET] <= OP_DESTROY
                && (m[OP_OFFSET] == OP_BCAST || m.length == HEADER_LENGTH);
    }

    static byte op(byte[] m) {
        return m[OP_OFFSET];
    }

    static int groupId(byte[] m) {
        return ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).getInt(GROUP_ID_OFFSET);
    }

    static int argument(byte[] m) {
        return ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).getInt(ARGUMENT_OFFSET);
    }

    static byte[] body(byte[] m) {
        return Arrays.copyOfRange(m, HEADER_LENGTH, m.length);
    }
}

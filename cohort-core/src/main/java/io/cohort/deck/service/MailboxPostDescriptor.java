package io.cohort.deck.service;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A message posted to a mailbox, sent on {@link DeckContexts#MAILBOX} to the mailbox's owner with
 * the poster's reply tag as the message tag. Little-endian:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |            mailbox id (int32, local to the owner)             |  0
 *  +---------------------------------------------------------------+
 *  |  origin (int32): world rank that posted or called bcast       |  4
 *  +---------------------------------------------------------------+
 *  |                   the user's bytes ...                        |  8
 * </pre>
 *
 * The owner answers {@link ReplyDescriptor#OK} once the message is in the mailbox, or
 * {@link ReplyDescriptor#GONE} if the mailbox was destroyed. A group broadcast is one post per
 * member, sent by the group's broadcaster with the caller's rank as origin. Stateless; any thread.
 */
final class MailboxPostDescriptor {
    static final int MAILBOX_ID_OFFSET = 0;
    static final int ORIGIN_OFFSET = 4;
    static final int HEADER_LENGTH = 8;

    private MailboxPostDescriptor() {
    }

    static byte[] encode(int mailboxId, int origin, byte[] body, int bodyOffset, int bodyLength) {
        byte[] m = new byte[HEADER_LENGTH + bodyLength];
        ByteBuffer w = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
        w.putInt(MAILBOX_ID_OFFSET, mailboxId);
        w.putInt(ORIGIN_OFFSET, origin);
        System.arraycopy(body, bodyOffset, m, HEADER_LENGTH, bodyLength);
        return m;
    }

    static boolean isValid(byte[] m) {
        return m.length >= HEADER_LENGTH;
    }

    static int mailboxId(byte[] m) {
        return ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).getInt(MAILBOX_ID_OFFSET);
    }

    static int origin(byte[] m) {
        return ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).getInt(ORIGIN_OFFSET);
    }

    static byte[] body(byte[] m) {
        return Arrays.copyOfRange(m, HEADER_LENGTH, m.length);
    }
}

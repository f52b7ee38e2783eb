package io.cohort.deck.service;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pins the layouts of DECK's wire messages (offsets, byte order) and their validity checks. */
class DeckDescriptorsTest {
    private static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void contextsAreTheTopSixteenAndDistinct() {
        assertEquals(Integer.MAX_VALUE - 15, DeckContexts.RESERVED_LOWEST);
        int[] all = {DeckContexts.NAMING, DeckContexts.MAILBOX, DeckContexts.GROUP, DeckContexts.REPLY};
        for (int i = 0; i < all.length; i++) {
            assertTrue(DeckContexts.isReserved(all[i]));
            for (int j = i + 1; j < all.length; j++) {
                assertTrue(all[i] != all[j]);
            }
        }
        assertFalse(DeckContexts.isReserved(0));
        assertFalse(DeckContexts.isReserved(Integer.MAX_VALUE - 16));
    }

    @Test
    void namingRequestLayout() {
        byte[] m = NamingRequestDescriptor.encode(NamingRequestDescriptor.OP_REGISTER, NamingRequestDescriptor.KIND_GROUP,
                0x01020304, DeckNames.encode("né"));
        assertEquals(12 + 3, m.length);
        assertEquals(1, m[0]);
        assertEquals(2, m[1]);
        assertEquals(0, le(m).getShort(2));
        assertEquals(0x04, m[4], "little-endian id");
        assertEquals(0x01020304, le(m).getInt(4));
        assertEquals(3, le(m).getInt(8));
        assertTrue(NamingRequestDescriptor.isValid(m));
        assertEquals("né", NamingRequestDescriptor.name(m));
        assertEquals(0x01020304, NamingRequestDescriptor.id(m));
        byte[] truncated = java.util.Arrays.copyOf(m, m.length - 1);
        assertFalse(NamingRequestDescriptor.isValid(truncated));
        m[0] = 9;
        assertFalse(NamingRequestDescriptor.isValid(m), "unknown op");
        assertFalse(NamingRequestDescriptor.isValid(new byte[3]));
    }

    @Test
    void replyLayout() {
        byte[] ok = ReplyDescriptor.ok(7, -2);
        assertEquals(16, ok.length);
        assertEquals(ReplyDescriptor.OK, ok[0]);
        assertEquals(7, le(ok).getInt(4));
        assertEquals(-2, le(ok).getInt(8));
        assertEquals(0, le(ok).getInt(12));
        byte[] failed = ReplyDescriptor.failed("no such thing");
        assertEquals(ReplyDescriptor.FAILED, ReplyDescriptor.status(failed));
        assertEquals("no such thing", ReplyDescriptor.text(failed));
        assertEquals(13, le(failed).getInt(12));
        assertTrue(ReplyDescriptor.isValid(failed));
        assertTrue(ReplyDescriptor.isValid(ReplyDescriptor.gone()));
        assertFalse(ReplyDescriptor.isValid(java.util.Arrays.copyOf(failed, 20)));
    }

    @Test
    void mailboxPostLayout() {
        byte[] body = {9, 8, 7, 6};
        byte[] m = MailboxPostDescriptor.encode(5, 3, body, 1, 2);
        assertEquals(10, m.length);
        assertEquals(5, le(m).getInt(0));
        assertEquals(3, le(m).getInt(4));
        assertArrayEquals(new byte[] {8, 7}, MailboxPostDescriptor.body(m));
        assertEquals(5, MailboxPostDescriptor.mailboxId(m));
        assertEquals(3, MailboxPostDescriptor.origin(m));
        assertFalse(MailboxPostDescriptor.isValid(new byte[7]));
    }

    @Test
    void groupRequestLayout() {
        byte[] m = GroupRequestDescriptor.encode(GroupRequestDescriptor.OP_BCAST, 11, 0, new byte[] {1, 2});
        assertEquals(14, m.length);
        assertEquals(3, m[0]);
        assertEquals(11, le(m).getInt(4));
        assertEquals(0, le(m).getInt(8));
        assertArrayEquals(new byte[] {1, 2}, GroupRequestDescriptor.body(m));
        assertTrue(GroupRequestDescriptor.isValid(m));
        byte[] join = GroupRequestDescriptor.encode(GroupRequestDescriptor.OP_JOIN, 11, 4, null);
        assertEquals(12, join.length);
        assertEquals(4, GroupRequestDescriptor.argument(join));
        assertTrue(GroupRequestDescriptor.isValid(join));
        assertFalse(GroupRequestDescriptor.isValid(java.util.Arrays.copyOf(join, 13)), "only BCAST carries bytes");
        join[0] = 0;
        assertFalse(GroupRequestDescriptor.isValid(join));
    }

    @Test
    void namesAreCheckedWithOneSentence() {
        assertEquals("a DECK name must not be empty",
                assertThrows(IllegalArgumentException.class, () -> DeckNames.encode("")).getMessage());
        String longName = "x".repeat(300);
        assertEquals("the DECK name 'xxxxxxxxxxxxxxxxxxxx...' is 300 bytes of UTF-8; names may have at most 255",
                assertThrows(IllegalArgumentException.class, () -> DeckNames.encode(longName)).getMessage());
    }
}

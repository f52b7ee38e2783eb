package io.cohort.deck.service;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static io.cohort.deck.service.NamingRequestDescriptor.KIND_GROUP;
import static io.cohort.deck.service.NamingRequestDescriptor.KIND_MAILBOX;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The naming service's table alone: bindings, and the sentences users see when asking wrongly. */
class NameTableTest {
    private final Map<Integer, String> failed = new HashMap<>();
    private final NameTable table = new NameTable(failed::get);

    @Test
    void registerLookupUnregister() {
        assertOk(table.register("inbox", KIND_MAILBOX, 2, 7));
        byte[] r = table.lookup("inbox", KIND_MAILBOX);
        assertOk(r);
        assertEquals(2, ReplyDescriptor.a(r));
        assertEquals(7, ReplyDescriptor.b(r));
        assertOk(table.unregister("inbox", KIND_MAILBOX, 2, 7));
        assertFailed("no mailbox named 'inbox' exists; it was never created or has been destroyed (create it with"
                + " createMailbox first)", table.lookup("inbox", KIND_MAILBOX));
    }

    @Test
    void namesAreJobWideAndKindsAreChecked() {
        assertOk(table.register("g", KIND_GROUP, 0, 1));
        assertFailed("the name 'g' is already taken by a group of rank 0; DECK names are job-wide, so choose another",
                table.register("g", KIND_MAILBOX, 3, 1));
        assertFailed("'g' names a group, not a mailbox", table.lookup("g", KIND_MAILBOX));
        assertFailed("no group named 'h' exists; it was never created or has been destroyed (create it with createGroup"
                + " first)", table.lookup("h", KIND_GROUP));
    }

    @Test
    void onlyTheOwnerUnregisters() {
        assertOk(table.register("inbox", KIND_MAILBOX, 2, 7));
        assertFailed("no mailbox named 'inbox' is registered by rank 3 to unregister",
                table.unregister("inbox", KIND_MAILBOX, 3, 7));
        assertEquals(1, table.size());
    }

    @Test
    void entriesOfFailedPeersAreDropped() {
        assertOk(table.register("inbox", KIND_MAILBOX, 2, 7));
        failed.put(2, "rank 2 exited with code 1");
        assertFailed("the mailbox 'inbox' was on rank 2, which has failed (rank 2 exited with code 1)",
                table.lookup("inbox", KIND_MAILBOX));
        assertEquals(0, table.size());
        assertOk(table.register("inbox", KIND_MAILBOX, 1, 1));
    }

    private static void assertOk(byte[] reply) {
        assertEquals(ReplyDescriptor.OK, ReplyDescriptor.status(reply), () -> ReplyDescriptor.text(reply));
    }

    private static void assertFailed(String sentence, byte[] reply) {
        assertEquals(ReplyDescriptor.FAILED, ReplyDescriptor.status(reply));
        assertEquals(sentence, ReplyDescriptor.text(reply));
    }
}

package io.cohort.systest;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * DECK across processes: the deck example (group created on rank 0, mailboxes on every peer, a
 * task broadcast to the group, results posted to rank 0's mailbox) as a real job, over shared
 * memory and over TCP.
 */
class DeckSystemTest {
    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    @Timeout(90)
    void groupsAndMailboxesWorkAcrossProcesses(String transport) throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "4", "--transport", transport, "--example", "deck", "20000");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of(
                "deck: 4 peers joined group 'deck-demo', sum of squares 1..20000 = 2666866670000 (correct)",
                "deck: a post to a destroyed mailbox was refused: no mailbox named 'inbox-3' exists; it was never created"
                        + " or has been destroyed (create it with createMailbox first)"), p.out(), p.toString());
        assertEquals(List.of(), p.err(), "a clean job prints nothing on stderr");
    }
}

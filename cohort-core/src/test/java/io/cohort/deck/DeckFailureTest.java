package io.cohort.deck;

import io.cohort.CohortException;
import io.cohort.LocalCohort;
import io.cohort.PeerFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What DECK does when peers die: lost members are dropped, a dead server is a clear error. */
class DeckFailureTest {
    /** Thrown on purpose by a peer that "dies". */
    static final class Crash extends RuntimeException {
        Crash() {
            super("crashed on purpose");
        }
    }

    @Test
    @Timeout(30)
    void aDeadMemberNoLongerHoldsUpSyncOrBroadcasts() {
        AtomicReference<String> outcome = new AtomicReference<>("rank 1 never finished");
        CohortException e = assertThrows(CohortException.class, () -> LocalCohort.builder().size(3).run(world -> {
            Deck deck = Deck.of(world);
            Mailbox box = deck.createMailbox("f" + world.rank());
            if (world.rank() == 0) {
                deck.createGroup("fragile", 1);
            }
            world.barrier();
            if (world.rank() == 0) {
                world.recv(1, 9); // stays up (serving the group) until rank 1 is done
            } else {
                int me = deck.join("fragile", box);
                int other = world.rank() == 1 ? 2 : 1;
                world.send(other, 8, new byte[0]); // both have joined before rank 2 dies
                world.recv(other, 8);
                if (world.rank() == 2) {
                    throw new Crash();
                }
                deck.sync("fragile", me); // released once the server sees rank 2 is gone
                int reached = deck.bcast("fragile", new byte[] {1});
                outcome.set("synced; broadcast reached " + reached);
                world.send(0, 9, new byte[0]);
            }
        }));
        assertTrue(e.getCause() instanceof Crash, String.valueOf(e));
        assertEquals("synced; broadcast reached 1", outcome.get());
    }

    @Test
    @Timeout(30)
    void aMemberWhosePeerClosedItsWorldIsDroppedByTheNextBroadcast() {
        AtomicReference<String> outcome = new AtomicReference<>("rank 1 never finished");
        LocalCohort.builder().size(3).run(world -> {
            Deck deck = Deck.of(world);
            Mailbox box = deck.createMailbox("c" + world.rank());
            if (world.rank() == 0) {
                deck.createGroup("closing", 0);
            }
            world.barrier();
            deck.join("closing", box);
            world.barrier();
            if (world.rank() == 2) {
                world.close(); // finished: says goodbye, serves nothing more
                return;
            }
            if (world.rank() == 1) {
                assertThrows(io.cohort.PeerClosedException.class, () -> world.recv(2, 7)); // rank 2 has closed
                int reached = deck.bcast("closing", new byte[] {1}); // hung before: the post to rank 2 never answered
                outcome.set("broadcast reached " + reached);
                world.send(0, 9, new byte[0]);
            } else {
                world.recv(1, 9); // serves the group until rank 1 is done
            }
        });
        assertEquals("broadcast reached 2", outcome.get());
    }

    @Test
    @Timeout(30)
    void aMemberWhoseMailboxWasClosedNoLongerHoldsUpSync() {
        LocalCohort.builder().size(3).run(world -> {
            Deck deck = Deck.of(world);
            Mailbox box = deck.createMailbox("s" + world.rank());
            if (world.rank() == 0) {
                deck.createGroup("syncing", 0);
            }
            world.barrier();
            int me = deck.join("syncing", box);
            world.barrier();
            if (world.rank() == 2) {
                box.close(); // without leave: closing the mailbox leaves its groups
                world.send(0, 5, new byte[0]);
                world.send(1, 5, new byte[0]);
            } else {
                world.recv(2, 5);
                deck.sync("syncing", me); // waited for rank 2's member for ever before
            }
            world.barrier();
        });
    }

    @Test
    @Timeout(30)
    void closingAMailboxLeavesOnlyTheGroupItJoinedNotOneRecreatedUnderTheName() {
        LocalCohort.builder().size(1).run(world -> {
            Deck deck = Deck.of(world);
            Mailbox a = deck.createMailbox("a");
            Mailbox b = deck.createMailbox("b");
            deck.createGroup("g", 0);
            assertEquals(1, deck.join("g", a));
            deck.destroyGroup("g");
            deck.createGroup("g", 0);
            assertEquals(1, deck.join("g", b), "member ids start again in the new group");
            a.close(); // its membership was in the old group
            assertEquals(1, deck.bcast("g", new byte[] {1}), "b is still a member");
        });
    }

    @Test
    @Timeout(30)
    void aDeadNamingServiceIsAClearError() {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        CohortException e = assertThrows(CohortException.class, () -> LocalCohort.builder().size(2).run(world -> {
            Deck deck = Deck.of(world);
            world.barrier();
            if (world.rank() == 0) {
                throw new Crash();
            }
            // In-JVM a "dead" peer's threads live on: ask only once rank 1 knows rank 0 is gone.
            assertThrows(PeerFailedException.class, () -> world.recv(0, 99));
            try {
                deck.post("anything", new byte[1]);
            } catch (RuntimeException t) {
                seen.set(t);
                throw t;
            }
        }));
        assertTrue(e.getCause() instanceof Crash, String.valueOf(e));
        Throwable t = seen.get();
        assertTrue(t instanceof PeerFailedException, String.valueOf(t));
        assertTrue(t.getMessage().startsWith("the DECK naming service on rank 0 cannot be reached: "), t.getMessage());
    }
}

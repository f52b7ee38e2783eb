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

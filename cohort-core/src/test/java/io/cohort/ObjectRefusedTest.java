package io.cohort;

import io.cohort.engine.HostilePayloads;

import io.cohort.deck.Deck;
import io.cohort.deck.Mailbox;
import io.cohort.engine.Payloads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile object messages through the real API, ranks in one JVM: the bomb and a forged array
 * length fail the receive that meets them, fast and with a sentence, and the communicator serves
 * the next receive. Preemptive time-outs: unfiltered, the bomb never returns.
 */
@Timeout(60)
class ObjectRefusedTest {
    @Test
    void aRefusedObjectFailsThatReceiveAloneAndFast() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> LocalCohort.run(2, world -> {
            if (world.rank() == 0) {
                world.sendObject(1, 5, HostilePayloads.bomb(100));
                world.sendObject(1, 6, "after the bomb");
                world.send(1, 7, HostilePayloads.forgedIntArray(0x7ff00000)); // raw bytes, received as an object
                world.sendObject(1, 8, List.of(1, 2, 3));
                world.send(1, 9, Payloads.ofObject(HostilePayloads.bomb(100)));
            } else {
                long t0 = System.nanoTime();
                ObjectRefusedException e = assertThrows(ObjectRefusedException.class, () -> world.recvObject(0, 5));
                long millis = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(millis < 500, "the bomb's receive took " + millis + " ms");
                assertTrue(e.getMessage().startsWith("refused to deserialize a message from rank 0 (tag 5): an object at"
                        + " depth 21 is past maxdepth=20 of the serial filter 'maxdepth=20;maxrefs=10000000'"), e.getMessage());
                assertEquals("after the bomb", world.recvObject(0, 6));
                ObjectRefusedException a = assertThrows(ObjectRefusedException.class, () -> world.recvObject(0, 7));
                assertTrue(a.getMessage().contains("(tag 7): an array of 2146435072 int claims more than the 16 bytes"
                        + " left in the message"), a.getMessage());
                assertEquals(List.of(1, 2, 3), world.recvObject(0, 8));
                Message m = world.recv(0, 9); // the same through Message.asObject
                assertThrows(ObjectRefusedException.class, m::asObject);
            }
            world.barrier(); // the communicator still works for both
            assertEquals(List.of(0, 1), List.of(world.bcastObject(0, world.rank() == 0 ? 0 : null),
                    world.bcastObject(1, world.rank() == 1 ? 1 : null)));
        }));
    }

    @Test
    void deckMailAndObjectCollectivesGoThroughTheFilter() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> LocalCohort.run(2, world -> {
            Deck deck = Deck.of(world);
            Mailbox inbox = world.rank() == 1 ? deck.createMailbox("inbox") : null;
            world.barrier();
            if (world.rank() == 0) {
                deck.postObject("inbox", (java.io.Serializable) HostilePayloads.bomb(100));
                deck.postObject("inbox", "fine");
            } else {
                ObjectRefusedException e = assertThrows(ObjectRefusedException.class, () -> inbox.take().asObject());
                assertTrue(e.getMessage().startsWith("refused to deserialize mail from rank 0: "), e.getMessage());
                assertEquals("fine", inbox.take().asObject());
            }
            // An Object[] collective: rank 0's element is the bomb, so rank 1's decode is refused.
            Object[] got = new Object[2];
            Object[] mine = {world.rank() == 0 ? HostilePayloads.bomb(100) : "one"};
            if (world.rank() == 1) {
                ObjectRefusedException g = assertThrows(ObjectRefusedException.class, () -> world.allgather(mine, got));
                assertTrue(g.getMessage().contains("from rank 0"), g.getMessage());
            } else {
                try {
                    world.allgather(mine, got); // rank 0 decodes rank 1's harmless block
                } catch (ObjectRefusedException own) {
                    // its own block may come back to it through the algorithm: refused alike
                }
            }
        }));
    }
}

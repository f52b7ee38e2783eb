package io.cohort;

import io.cohort.deck.Deck;
import io.cohort.deck.DeckException;
import io.cohort.deck.Mailbox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arguments a program can get wrong, each refused in the calling peer in one sentence before anything
 * is sent or taken: no wrong data, no lost message, no hang, no exception from deep in the engine.
 */
@Timeout(60)
class BadArgumentsTest {
    private static void refused(Class<? extends RuntimeException> type, String part, Runnable call) {
        RuntimeException e = assertThrows(type, call::run);
        assertTrue(e.getMessage() != null && e.getMessage().contains(part), "expected '" + part + "' in: " + e.getMessage());
    }

    @Test
    void overlappingReceiveBlocksAreRefusedNotOverwritten() {
        LocalCohort.run(3, world -> {
            int r = world.rank();
            int[] counts = {2, 2, 2};
            int[] steps = {0, 1, 4};
            refused(IllegalArgumentException.class, "blocks of ranks 0 and 1 overlap",
                    () -> world.allgatherv(new int[] {r, r}, new int[6], counts, steps));
            refused(IllegalArgumentException.class, "overlap",
                    () -> world.gatherv(r, new int[] {r, r}, new int[6], counts, steps)); // each its own root: local
            refused(IllegalArgumentException.class, "alltoallv recv blocks of ranks 0 and 1 overlap",
                    () -> world.alltoallv(new int[6], counts, new int[] {0, 2, 4}, new int[6], counts, steps));
            // Empty blocks may sit anywhere, and blocks may touch.
            int[] got = new int[6];
            world.allgatherv(new int[] {r, r}, got, counts, new int[] {0, 2, 4});
            assertArrayEquals(new int[] {0, 0, 1, 1, 2, 2}, got);
            world.allgatherv(new int[0], new int[1], new int[] {0, 0, 0}, new int[] {0, 0, 0});
        });
    }

    @Test
    void objectsThatCannotTravelAreFoundBeforeAnyPeerGetsItsBlock() {
        LocalCohort.run(3, world -> {
            Object[] send = {"a", "b", new Object()};
            refused(IllegalArgumentException.class, "element 2 is a java.lang.Object, which is not Serializable",
                    () -> world.alltoall(send, new Object[3]));
            refused(IllegalArgumentException.class, "not Serializable", () -> world.scatter(world.rank(), send, new Object[1]));
            refused(IllegalArgumentException.class, "one element type, not String[] and Integer[]",
                    () -> world.allgather(new String[] {"s"}, new Integer[3]));
            // Peers that disagree: one sentence on the receivers, not an ArrayStoreException.
            boolean strings = world.rank() == 0;
            CohortException e = assertThrows(CohortException.class, () -> world.allgather(
                    strings ? new String[] {"s"} : new Integer[] {1}, strings ? new String[3] : new Integer[3]));
            assertTrue(e.getMessage().contains("cannot hold"), e.getMessage());
        });
    }

    @Test
    void aNullTypedReceiveBufferLosesNoMessage() {
        LocalCohort.run(2, world -> {
            if (world.rank() == 0) {
                world.send(1, 3, new int[] {42});
            } else {
                refused(IllegalArgumentException.class, "the receive buffer is null", () -> world.recv(0, 3, (int[]) null));
                refused(IllegalArgumentException.class, "the receive buffer is null", () -> world.recv(0, 3, (long[]) null));
                int[] one = new int[1];
                world.recv(0, 3, one);
                assertEquals(42, one[0], "the message is still there");
            }
            refused(IndexOutOfBoundsException.class, "are not within the array of 4",
                    () -> world.send(1 - world.rank(), 9, new byte[4], 2, 3));
            refused(IllegalArgumentException.class, "the send buffer is null",
                    () -> world.isend(1 - world.rank(), 9, (byte[]) null, 0, 1));
        });
    }

    @Test
    void everyNullPointToPointBufferIsOneSentence() {
        LocalCohort.run(2, world -> {
            int peer = 1 - world.rank();
            String send = "the send buffer is null";
            refused(IllegalArgumentException.class, send, () -> world.send(peer, 1, (int[]) null));
            refused(IllegalArgumentException.class, send, () -> world.send(peer, 1, (double[]) null));
            refused(IllegalArgumentException.class, send, () -> world.send(peer, 1, (char[]) null));
            refused(IllegalArgumentException.class, send, () -> world.send(peer, 1, (byte[]) null));
            refused(IllegalArgumentException.class, send, () -> world.send(peer, 1, (java.nio.ByteBuffer) null));
            refused(IllegalArgumentException.class, send, () -> world.send(peer, 1, (java.nio.ByteBuffer) null, 0, 1));
            refused(IllegalArgumentException.class, send, () -> world.isend(peer, 1, (long[]) null));
            refused(IllegalArgumentException.class, send, () -> world.isend(peer, 1, (byte[]) null));
            refused(IllegalArgumentException.class, send, () -> world.isend(peer, 1, (java.nio.ByteBuffer) null));
            String recv = "the receive buffer is null";
            refused(IllegalArgumentException.class, recv, () -> world.recv(peer, 1, (byte[]) null));
            refused(IllegalArgumentException.class, recv, () -> world.recv(peer, 1, (byte[]) null, 0, 1));
            refused(IllegalArgumentException.class, recv, () -> world.recv(peer, 1, (java.nio.ByteBuffer) null));
            refused(IllegalArgumentException.class, recv, () -> world.irecv(peer, 1, (java.nio.ByteBuffer) null));
            refused(IllegalArgumentException.class, recv, () -> world.irecv(peer, 1, (java.nio.ByteBuffer) null, 0, 1));
            // Nothing was sent or taken: a message still goes through.
            world.send(peer, 2, new int[] {world.rank()});
            int[] got = new int[1];
            world.recv(peer, 2, got);
            assertEquals(peer, got[0]);
        });
    }

    @Test
    void aClosedCommunicatorRefusesEveryCall() {
        LocalCohort.run(4, world -> {
            Communicator d = world.dup();
            d.close();
            refused(IllegalStateException.class, "closed", () -> d.send(0, 0, new byte[1]));
            refused(IllegalStateException.class, "closed", () -> d.iprobe(0, 0));
            refused(IllegalStateException.class, "closed", () -> d.recv(0, 0, new byte[1], 0, 1));
            refused(IllegalStateException.class, "closed", d::barrier);
            refused(IllegalStateException.class, "closed", () -> d.allreduce(new int[1], new int[1], Op.SUM));
            // A half of the world: a rank outside the job is outside the communicator, and ANY_SOURCE no destination.
            Communicator half = world.split(world.rank() % 2, world.rank());
            refused(IllegalArgumentException.class, "ANY_SOURCE",
                    () -> half.send(Communicator.ANY_SOURCE, 0, new byte[1]));
            refused(IllegalArgumentException.class, "outside this communicator",
                    () -> half.create(new Group(new int[] {world.rank(), 9}, world.rank())));
            half.close();
            world.barrier();
        });
    }

    @Test
    void statusCountsWholeElementsOnly() {
        Status s = new Status(0, 0, 7);
        refused(IllegalArgumentException.class, "at least 1 byte", () -> s.count(0));
        refused(IllegalArgumentException.class, "not a whole number of 4-byte elements", () -> s.count(4));
        assertEquals(7, s.count(1));
    }

    @Test
    void deckNamesMessagesAndMembersAreChecked() {
        LocalCohort.run(2, world -> {
            Deck deck = Deck.of(world);
            refused(IllegalArgumentException.class, "lone UTF-16 surrogate", () -> deck.createMailbox("\uD800"));
            Mailbox box = deck.createMailbox("box-" + world.rank());
            refused(IllegalArgumentException.class, "the message is null", () -> deck.post("box-0", null));
            if (world.rank() == 0) {
                deck.createGroup("g", 0);
            }
            world.barrier();
            int me = deck.join("g", box);
            refused(IllegalArgumentException.class, "the message is null", () -> deck.bcast("g", null));
            // Each rank knows the other's member id only by being told.
            int[] other = new int[1];
            if (world.rank() == 0) {
                world.send(1, 5, new int[] {me});
                world.recv(1, 5, other);
            } else {
                world.recv(0, 5, other);
                world.send(0, 5, new int[] {me});
            }
            refused(DeckException.class, "only that rank may leave", () -> deck.leave("g", other[0]));
            world.barrier();
            deck.leave("g", me);
            world.barrier();
            if (world.rank() == 0) {
                deck.destroyGroup("g");
            }
            box.close();
            world.barrier();
        });
    }
}

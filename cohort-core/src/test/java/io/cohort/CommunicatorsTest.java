package io.cohort;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Groups, and communicators made by dup, split and create, with in-JVM peers. */
@Timeout(60)
class CommunicatorsTest {

    @Test
    void groupSetOperationsKeepMpisOrders() {
        Group g = new Group(new int[] {4, 2, 0, 6}, 2);
        Group h = new Group(new int[] {6, 1, 2}, 2);
        assertEquals(1, g.rank());
        assertEquals(2, h.rank());
        assertArrayEquals(new int[] {4, 2, 0, 6, 1}, g.union(h).worldRanks());
        assertArrayEquals(new int[] {2, 6}, g.intersection(h).worldRanks());
        assertArrayEquals(new int[] {4, 0}, g.difference(h).worldRanks());
        assertArrayEquals(new int[] {0, 6}, g.incl(2, 3).worldRanks());
        assertArrayEquals(new int[] {4, 6}, g.excl(1, 2).worldRanks());
        assertArrayEquals(new int[] {2, Group.UNDEFINED, 0}, g.translateRanks(new int[] {1, 0, 3}, h));
        assertEquals(Group.UNDEFINED, g.difference(h).rank());
        assertEquals(Group.Comparison.IDENTICAL, g.compare(new Group(new int[] {4, 2, 0, 6}, 0)));
        assertEquals(Group.Comparison.SIMILAR, g.compare(new Group(new int[] {0, 2, 4, 6}, 0)));
        assertEquals(Group.Comparison.UNEQUAL, g.compare(h));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> g.incl(4));
        assertTrue(e.getMessage().contains("rank 4 is not in this group of 4"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Group(new int[] {1, 1}, 0));
        assertThrows(IllegalArgumentException.class, () -> g.excl(1, 1));
    }

    @Test
    void splitRanksByKeyAndKeepsTrafficApart() {
        LocalCohort.run(5, world -> {
            int me = world.rank();
            Communicator half = world.split(me % 2, -me); // reversed order inside each color
            int[] expected = me % 2 == 0 ? new int[] {4, 2, 0} : new int[] {3, 1};
            assertArrayEquals(expected, half.group().worldRanks());
            assertEquals(expected.length, half.size());
            assertEquals(indexOf(expected, me), half.rank());

            // The same tag on the world and on the new communicator: each receive gets its own.
            int next = (half.rank() + 1) % half.size();
            int prev = (half.rank() - 1 + half.size()) % half.size();
            half.isend(next, 7, ("half from " + me).getBytes(StandardCharsets.UTF_8));
            world.isend((me + 1) % 5, 7, ("world from " + me).getBytes(StandardCharsets.UTF_8));
            Message w = world.recv(Communicator.ANY_SOURCE, 7);
            assertEquals("world from " + ((me + 4) % 5), new String(w.bytes(), StandardCharsets.UTF_8));
            Message h = half.recv(Communicator.ANY_SOURCE, Communicator.ANY_TAG);
            assertEquals(prev, h.source(), "the status carries the communicator's rank");
            assertEquals("half from " + expected[prev], new String(h.bytes(), StandardCharsets.UTF_8));

            byte[] b = half.bcast(0, half.rank() == 0 ? new byte[] {(byte) me} : null);
            assertEquals(expected[0], b[0]);
            half.barrier();
            half.close();
        });
    }

    @Test
    void createGivesMembersACommunicatorAndOthersNull() {
        LocalCohort.run(6, world -> {
            Group evens = world.group().incl(0, 2, 4);
            Communicator c = world.create(evens);
            if (world.rank() % 2 == 1) {
                assertNull(c);
                return;
            }
            assertNotNull(c);
            assertEquals(3, c.size());
            assertEquals(world.rank() / 2, c.rank());
            // Nested: split the new communicator again, and a dup of that.
            Communicator single = c.split(c.rank(), 0);
            assertEquals(1, single.size());
            Communicator d = c.dup();
            d.send((d.rank() + 1) % 3, 1, new int[] {d.rank()});
            int[] got = new int[1];
            Status s = d.recv(Communicator.ANY_SOURCE, 1, got);
            assertEquals((d.rank() + 2) % 3, s.source());
            assertEquals(s.source(), got[0]);
            c.barrier();
        });
    }

    /**
     * createGroup is collective over the group only: the evens make a communicator (in the group's
     * order, reversed) while the odds make their own among themselves, and neither waits for the
     * other; then both talk inside and across without their messages mixing.
     */
    @Test
    void aReceiveNoMessageMatchedCanBeCancelledAndTakesNothing() {
        LocalCohort.run(3, world -> {
            int r = world.rank();
            Communicator sub = world.split(0, r); // translated requests too
            for (Communicator c : List.of(world, sub)) {
                java.nio.ByteBuffer never = java.nio.ByteBuffer.allocate(4);
                Request pending = c.irecv(Communicator.ANY_SOURCE, 99, never);
                c.barrier();
                assertTrue(pending.cancel(), "nothing matched it");
                Status st = pending.await();
                assertTrue(st.cancelled(), st.toString());
                assertEquals(0, never.position(), "nothing written");
                assertFalse(pending.cancel(), "already complete");
                Request noBuffer = c.irecv(Communicator.ANY_SOURCE, 97);
                assertTrue(noBuffer.cancel());
                noBuffer.await();
                IllegalStateException e = assertThrows(IllegalStateException.class, noBuffer::message);
                assertEquals("this receive was cancelled; it carries no message", e.getMessage());
                c.barrier(); // every rank cancelled before anyone sends tag 99
                // A message it would have matched goes to the next receive.
                int[] got = new int[1];
                Request next = c.irecv((r + c.size() - 1) % c.size(), 99, java.nio.ByteBuffer.allocate(4));
                c.send((r + 1) % c.size(), 99, new int[] {r});
                Status s = next.await();
                assertFalse(s.cancelled());
                assertEquals((r + c.size() - 1) % c.size(), s.source());
                // A matched receive is not cancelled: it completes with its message.
                Request matched = c.irecv((r + c.size() - 1) % c.size(), 98, java.nio.ByteBuffer.allocate(4));
                c.send((r + 1) % c.size(), 98, new int[] {r});
                while (!matched.isDone()) {
                    matched.test();
                }
                assertFalse(matched.cancel());
                assertFalse(matched.await().cancelled());
                c.barrier();
            }
        });
    }

    @Test
    void createGroupIsCollectiveOverTheGroupOnly() {
        LocalCohort.run(7, world -> {
            int r = world.rank();
            Group mine = r % 2 == 0 ? world.group().incl(6, 4, 2, 0) : world.group().incl(1, 3, 5);
            Communicator c = world.createGroup(mine, 9);
            assertEquals(r % 2 == 0 ? 4 : 3, c.size());
            assertEquals(r % 2 == 0 ? (6 - r) / 2 : r / 2, c.rank());
            int[] sum = new int[1];
            c.allreduce(new int[] {r}, sum, Op.SUM);
            assertEquals(r % 2 == 0 ? 12 : 9, sum[0]);
            // Same tags on the new communicator and the world: each receive gets its own.
            int right = (c.rank() + 1) % c.size();
            c.send(right, 1, new int[] {100 + r});
            world.send((r + 1) % 7, 1, new int[] {r});
            int[] w = new int[1];
            world.recv((r + 6) % 7, 1, w);
            assertEquals((r + 6) % 7, w[0]);
            int[] got = new int[1];
            Status st = c.recv(Communicator.ANY_SOURCE, 1, got);
            assertEquals((c.rank() + c.size() - 1) % c.size(), st.source());
            // A second creation with another tag, among a subset that overlaps both.
            if (r < 3) {
                Communicator low = world.createGroup(world.group().incl(0, 1, 2), 10);
                assertEquals(r, low.rank());
                low.barrier();
            }
        });
    }

    @Test
    void createGroupMistakesAreOneSentence() {
        AtomicInteger failures = new AtomicInteger();
        LocalCohort.run(3, world -> {
            IllegalArgumentException e;
            if (world.rank() == 2) {
                e = assertThrows(IllegalArgumentException.class, () -> world.createGroup(world.group().incl(0, 1), 0));
                assertTrue(e.getMessage().contains("this peer (rank 2) is not in the group"), e.getMessage());
                e = assertThrows(IllegalArgumentException.class, () -> world.createGroup(world.group().incl(2), -1));
                assertTrue(e.getMessage().contains("tag -1 is not 0 to"), e.getMessage());
                return;
            }
            // Ranks 0 and 1 give different groups of the same two peers: both are told.
            Group g = world.rank() == 0 ? world.group().incl(0, 1) : world.group().incl(1, 0);
            e = assertThrows(IllegalArgumentException.class, () -> world.createGroup(g, 3));
            assertTrue(e.getMessage().contains("the members gave different groups"), e.getMessage());
            failures.incrementAndGet();
        });
        assertEquals(2, failures.get());
    }

    @Test
    void aTruncatedReceiveNamesTheSenderInTheCommunicatorsRanks() {
        LocalCohort.run(4, world -> {
            Communicator c = world.split(0, -world.rank()); // communicator rank 3 - world rank
            int peer = c.size() - 1 - c.rank(); // talk to the mirror rank: world ranks 0-3 and 1-2
            c.send(peer, 1, new byte[] {1, 2});
            c.send(peer, 2, new byte[] {3, 4});
            MessageTruncatedException blocking = assertThrows(MessageTruncatedException.class,
                    () -> c.recv(peer, 1, new byte[1]));
            assertEquals(peer, blocking.status().source());
            assertTrue(blocking.getMessage().contains("from rank " + peer + " "), blocking.getMessage());
            Request r = c.irecv(Communicator.ANY_SOURCE, 2, java.nio.ByteBuffer.allocate(1));
            MessageTruncatedException waited = assertThrows(MessageTruncatedException.class, r::await);
            assertEquals(peer, waited.status().source());
            c.close();
        });
    }

    @Test
    void dupIsolatesFromTheWorld() {
        LocalCohort.run(3, world -> {
            Communicator dup = world.dup();
            assertEquals(world.rank(), dup.rank());
            assertEquals(Group.Comparison.IDENTICAL, dup.group().compare(world.group()));
            int peer = (world.rank() + 1) % 3;
            dup.send(peer, 3, new byte[] {1});
            world.send(peer, 3, new byte[] {2});
            assertEquals(2, world.recv(Communicator.ANY_SOURCE, Communicator.ANY_TAG).bytes()[0]);
            assertEquals(1, dup.recv(Communicator.ANY_SOURCE, Communicator.ANY_TAG).bytes()[0]);
        });
    }

    @Test
    void aBadColorOnOnePeerIsAnErrorOnEveryPeer() {
        AtomicInteger failures = new AtomicInteger();
        LocalCohort.run(4, world -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> world.split(world.rank() == 2 ? -5 : 0, 0));
            assertTrue(e.getMessage().contains("rank 2 gave color -5"), e.getMessage());
            failures.incrementAndGet();
        });
        assertEquals(4, failures.get());
    }

    @Test
    void differentGroupsInCreateAreAnErrorOnEveryPeer() {
        AtomicInteger failures = new AtomicInteger();
        LocalCohort.run(3, world -> {
            Group g = world.rank() == 1 ? world.group().incl(0, 1) : world.group().incl(0, 2);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> world.create(g));
            assertTrue(e.getMessage().contains("gave different groups"), e.getMessage());
            failures.incrementAndGet();
            // The communicator is still usable afterwards.
            world.barrier();
        });
        assertEquals(3, failures.get());
    }

    @Test
    void eachCommunicatorHasItsOwnBroadcastDomain() {
        LocalCohort.run(4, world -> {
            Communicator half = world.split(world.rank() / 2, 0);
            BroadcastDomain d = half.broadcastDomain();
            BroadcastDomain w = world.broadcastDomain();
            assertEquals(2, d.size());
            assertEquals(half.rank(), d.rank());
            for (int round = 0; round < 50; round++) {
                byte[] mine = (world.rank() + ":" + round).getBytes(StandardCharsets.UTF_8);
                d.multicast(mine, 1 - d.rank());
                w.multicast(mine, others(world.rank(), 4));
                int partner = half.group().worldRank(1 - half.rank());
                assertEquals(partner + ":" + round, new String(d.request(1 - d.rank(), d.rank()), StandardCharsets.UTF_8));
                for (int q = 0; q < 4; q++) {
                    if (q != world.rank()) {
                        assertEquals(q + ":" + round, new String(w.request(q, others(q, 4)), StandardCharsets.UTF_8));
                    }
                }
            }
        });
    }

    private static int[] others(int me, int n) {
        return java.util.stream.IntStream.range(0, n).filter(q -> q != me).toArray();
    }

    private static int indexOf(int[] a, int v) {
        return Arrays.stream(a).boxed().toList().indexOf(v);
    }
}

package io.cohort.deck;

import io.cohort.LocalCohort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DECK groups between in-JVM peers: membership, broadcast, sync, destroy and their errors. */
class GroupTest {
    private static byte[] seq(int n) {
        return ByteBuffer.allocate(4).putInt(n).array();
    }

    private static int seq(Mail m) {
        return ByteBuffer.wrap(m.bytes()).getInt();
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "tcp"})
    @Timeout(60)
    void membersReceiveEveryBroadcastInTheSameOrder(String transport) {
        int n = 4;
        int each = 10;
        LocalCohort.builder().size(n).transport(transport).run(world -> {
            Deck deck = Deck.of(world);
            Mailbox box = deck.createMailbox("inbox-" + world.rank());
            if (world.rank() == 0) {
                deck.createGroup("all", n);
            }
            world.barrier();
            int me = deck.join("all", box);
            deck.sync("all", me); // everyone has joined: broadcasts may start
            for (int i = 0; i < each; i++) {
                assertEquals(n, deck.bcast("all", seq(world.rank() * 1000 + i)));
            }
            List<Integer> got = new ArrayList<>();
            int[] next = new int[n];
            for (int k = 0; k < n * each; k++) {
                Mail m = box.take();
                int s = seq(m);
                assertEquals(m.source(), s / 1000);
                assertEquals(next[m.source()]++, s % 1000, "FIFO per broadcaster");
                got.add(s);
            }
            // The one broadcaster thread orders the group's broadcasts: every member sees one order.
            world.send(0, 1, got.stream().mapToInt(Integer::intValue).toArray());
            if (world.rank() == 0) {
                int[][] orders = new int[n][];
                for (int r = 0; r < n; r++) {
                    orders[r] = world.recv(r, 1).asInts();
                }
                for (int r = 1; r < n; r++) {
                    assertEquals(java.util.Arrays.toString(orders[0]), java.util.Arrays.toString(orders[r]));
                }
            }
            deck.sync("all", me);
            deck.leave("all", me);
            world.barrier();
            if (world.rank() == 0) {
                deck.destroyGroup("all");
            }
            box.close();
            world.barrier();
        });
    }

    /** Peers outside a group may broadcast to it; a group below its minimum refuses to. */
    @Test
    @Timeout(30)
    void outsidersBroadcastAndSmallGroupsRefuse() {
        LocalCohort.builder().size(3).run(world -> {
            Deck deck = Deck.of(world);
            if (world.rank() == 1) {
                deck.createGroup("pair", 2);
            }
            world.barrier();
            if (world.rank() == 0) {
                DeckException e = assertThrows(DeckException.class, () -> deck.bcast("pair", new byte[1]));
                assertEquals("group 'pair' has 0 members, fewer than its minimum of 2; broadcast once enough members"
                        + " have joined (sync waits for them)", e.getMessage());
            }
            world.barrier();
            Mailbox box = null;
            int me = 0;
            if (world.rank() > 0) {
                box = deck.createMailbox("p" + world.rank());
                me = deck.join("pair", box);
            }
            if (world.rank() == 2) {
                deck.leave("pair", me); // back to one member
            }
            world.barrier();
            if (world.rank() == 0) {
                DeckException e = assertThrows(DeckException.class, () -> deck.bcast("pair", new byte[1]));
                assertEquals("group 'pair' has 1 member, fewer than its minimum of 2; broadcast once enough members"
                        + " have joined (sync waits for them)", e.getMessage());
            }
            world.barrier();
            if (world.rank() == 2) {
                me = deck.join("pair", box);
                assertEquals(3, me, "ids are never reused");
            }
            world.barrier();
            if (world.rank() == 0) {
                assertEquals(2, deck.bcastObject("pair", "from outside"));
            } else {
                Mail m = box.take();
                assertEquals(0, m.source());
                assertEquals("from outside", m.asObject());
                deck.leave("pair", me);
                DeckException e = assertThrows(DeckException.class, () -> deck.leave("pair", 42));
                assertEquals("member 42 is not in group 'pair' (it left, was never joined, or was lost)", e.getMessage());
            }
            world.barrier();
            if (world.rank() == 0) {
                DeckException e = assertThrows(DeckException.class, () -> deck.join("nope", deck.createMailbox("x")));
                assertEquals("no group named 'nope' exists; it was never created or has been destroyed (create it with"
                        + " createGroup first)", e.getMessage());
                deck.destroyGroup("pair");
                e = assertThrows(DeckException.class, () -> deck.bcast("pair", new byte[1]));
                assertEquals("no group named 'pair' exists; it was never created or has been destroyed (create it with"
                        + " createGroup first)", e.getMessage());
            }
            world.barrier();
        });
    }

    /** Members reach sync in a different order each round; nobody is released before the last. */
    @Test
    @Timeout(60)
    void syncReleasesOnlyWhenTheLastMemberArrivesInAnyOrder() {
        int n = 5;
        int rounds = 12;
        AtomicInteger arrived = new AtomicInteger(); // shared: the peers are threads of this JVM
        LocalCohort.builder().size(n).run(world -> {
            Deck deck = Deck.of(world);
            Mailbox turns = deck.createMailbox("turn-" + world.rank());
            if (world.rank() == 2) {
                deck.createGroup("barrier", n);
            }
            world.barrier();
            int me = deck.join("barrier", turns);
            Random random = new Random(7); // the same orders on every peer
            List<Integer> order = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                order.add(r);
            }
            for (int round = 0; round < rounds; round++) {
                Collections.shuffle(order, random);
                int pos = order.indexOf(world.rank());
                if (pos > 0) {
                    turns.take(); // wait for the one before us in this round's order
                }
                arrived.incrementAndGet();
                if (pos + 1 < n) {
                    deck.post("turn-" + order.get(pos + 1), new byte[] {(byte) round});
                }
                deck.sync("barrier", me);
                assertEquals((round + 1) * n, arrived.get(), "released before every member had arrived");
                deck.sync("barrier", me); // nobody counts the next round before all have checked this one
            }
            deck.leave("barrier", me);
            world.barrier();
            if (world.rank() == 0) {
                deck.destroyGroup("barrier");
            }
            turns.close();
            world.barrier();
        });
    }

    /** Two members join and leave over and over while an outsider broadcasts and a steady member listens. */
    @Test
    @Timeout(120)
    void joinsAndLeavesDuringBroadcasts() {
        int broadcasts = 300;
        LocalCohort.builder().size(4).run(world -> {
            Deck deck = Deck.of(world);
            int rank = world.rank();
            Mailbox box = deck.createMailbox("churn-" + rank);
            Mailbox control = deck.createMailbox("control-" + rank);
            if (rank == 0) {
                deck.createGroup("churn", 1);
            }
            world.barrier();
            if (rank == 0) {
                // Rank 1 has joined before the first broadcast: the barrier below follows its join.
                world.barrier();
                for (int i = 0; i < broadcasts; i++) {
                    assertTrue(deck.bcast("churn", seq(i)) >= 1);
                }
                deck.post("control-2", new byte[0]);
                deck.post("control-3", new byte[0]);
            } else if (rank == 1) {
                int me = deck.join("churn", box);
                world.barrier();
                for (int i = 0; i < broadcasts; i++) {
                    assertEquals(i, seq(box.take()), "the steady member misses nothing");
                }
                deck.leave("churn", me);
            } else {
                world.barrier();
                int last = -1;
                int joins = 0;
                int lastId = 0;
                while (control.poll().isEmpty()) {
                    int me = deck.join("churn", box);
                    assertTrue(me > lastId, "member ids grow");
                    lastId = me;
                    joins++;
                    for (Optional<Mail> m = box.poll(); m.isPresent(); m = box.poll()) {
                        int s = seq(m.get());
                        assertTrue(s > last, "a churning member sees each broadcast once, in order");
                        last = s;
                    }
                    deck.leave("churn", me);
                }
                for (Optional<Mail> m = box.poll(); m.isPresent(); m = box.poll()) {
                    assertTrue(seq(m.get()) > last);
                    last = seq(m.get());
                }
                assertTrue(joins > 0);
            }
            world.barrier();
            if (rank == 0) {
                deck.destroyGroup("churn");
            }
            box.close();
            control.close();
            world.barrier();
        });
    }

    /**
     * Destroy waits for the broadcasts queued before it: three threads of rank 1 broadcast until the
     * group is gone, so several are in flight when rank 2 destroys it; each one accepted reached
     * every member.
     */
    @Test
    @Timeout(60)
    void destroyWaitsForBroadcastsInFlight() {
        AtomicInteger accepted = new AtomicInteger();
        LocalCohort.builder().size(3).run(world -> {
            Deck deck = Deck.of(world);
            Mailbox box = deck.createMailbox("d" + world.rank());
            if (world.rank() == 0) {
                deck.createGroup("doomed", 1);
            }
            world.barrier();
            deck.join("doomed", box);
            world.barrier();
            if (world.rank() == 1) {
                List<Thread> senders = new ArrayList<>();
                List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
                for (int t = 0; t < 3; t++) {
                    Thread s = new Thread(() -> {
                        try {
                            while (true) {
                                assertEquals(3, deck.bcast("doomed", seq(accepted.get())));
                                if (accepted.incrementAndGet() == 5) {
                                    deck.post("d2", new byte[] {-1}); // rank 2: destroy the group now
                                }
                            }
                        } catch (DeckException e) {
                            if (!e.getMessage().equals("group 'doomed' is being destroyed")
                                    && !e.getMessage().startsWith("no group named 'doomed' exists")) {
                                failures.add(e);
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    });
                    s.start();
                    senders.add(s);
                }
                for (Thread s : senders) {
                    try {
                        s.join();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                }
                assertEquals(List.of(), failures);
            }
            int seen = 0;
            if (world.rank() == 2) {
                while (box.take().length() == 4) {
                    seen++;
                }
                deck.destroyGroup("doomed");
            }
            world.barrier();
            // Rank 1's senders are done: every broadcast it had accepted is in every mailbox.
            for (Optional<Mail> m = box.poll(); m.isPresent(); m = box.poll()) {
                seen++;
            }
            assertTrue(accepted.get() >= 5);
            assertEquals(accepted.get(), seen);
            box.close();
            world.barrier();
        });
    }

    /** A member whose mailbox is destroyed is dropped at the next broadcast; sync no longer waits for it. */
    @Test
    @Timeout(30)
    void membersWithDestroyedMailboxesAreLost() {
        LocalCohort.builder().size(3).run(world -> {
            Deck deck = Deck.of(world);
            Mailbox box = deck.createMailbox("l" + world.rank());
            if (world.rank() == 0) {
                deck.createGroup("lossy", 1);
            }
            world.barrier();
            int me = world.rank() > 0 ? deck.join("lossy", box) : 0;
            if (world.rank() == 1) {
                box.close();
            }
            world.barrier();
            if (world.rank() == 0) {
                assertEquals(1, deck.bcast("lossy", new byte[] {1}), "only rank 2's mailbox is left");
            }
            world.barrier();
            if (world.rank() == 2) {
                assertEquals(1, box.take().bytes()[0]);
                deck.sync("lossy", me); // alone now: released at once
            }
            world.barrier();
            if (world.rank() == 0) {
                deck.destroyGroup("lossy");
            }
            if (world.rank() != 1) {
                box.close();
            }
            world.barrier();
        });
    }
}

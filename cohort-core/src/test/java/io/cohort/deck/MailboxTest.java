package io.cohort.deck;

import io.cohort.BroadcastDomain;
import io.cohort.LocalCohort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mailboxes between in-JVM peers: naming, posting, taking, and the errors. */
class MailboxTest {
    /** Every peer posts to every peer's mailbox (its own too), in order, over each transport. */
    @ParameterizedTest
    @ValueSource(strings = {"local", "tcp", "shm"})
    @Timeout(60)
    void everyPeerPostsToEveryMailbox(String transport) {
        int posts = 20;
        LocalCohort.builder().size(4).transport(transport).run(world -> {
            Deck deck = Deck.of(world);
            assertSame(deck, Deck.of(world), "one Deck per peer");
            Mailbox box = deck.createMailbox("box-" + world.rank());
            world.barrier();
            for (int i = 0; i < posts; i++) {
                for (int r = 0; r < world.size(); r++) {
                    deck.post("box-" + r, new byte[] {(byte) world.rank(), (byte) r, (byte) i});
                }
            }
            int[] next = new int[world.size()];
            for (int k = 0; k < posts * world.size(); k++) {
                Mail m = box.take();
                byte[] b = m.bytes();
                assertEquals(m.source(), b[0]);
                assertEquals(world.rank(), b[1]);
                assertEquals(next[m.source()]++, b[2], "FIFO per poster");
            }
            for (int n : next) {
                assertEquals(posts, n);
            }
            assertEquals(Optional.empty(), box.poll());
            box.close(); // before the barrier: rank 0's naming service stops when its world closes
            world.barrier();
        });
    }

    /**
     * Rank 0 (the naming service's peer) waits in a broadcast-domain request while rank 1 registers
     * a mailbox, which needs rank 0's answer before rank 1 multicasts: only rank 0's progress agent can
     * answer meanwhile. Without it this deadlocks (it did, with collectives over the domain).
     */
    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    @Timeout(60)
    void namingServiceAnswersWhileItsPeerWaitsInTheDomain(String transport) {
        LocalCohort.builder().size(2).transport(transport).run(world -> {
            Deck deck = Deck.of(world);
            BroadcastDomain d = world.broadcastDomain();
            if (world.rank() == 0) {
                assertEquals("registered", new String(d.request(1, 0), StandardCharsets.UTF_8));
                deck.post("late", new byte[] {42});
            } else {
                Mailbox box = deck.createMailbox("late");
                d.multicast(ByteBuffer.wrap("registered".getBytes(StandardCharsets.UTF_8)), 0);
                assertArrayEquals(new byte[] {42}, box.take().bytes());
                box.close();
            }
            world.barrier();
        });
    }

    @Test
    @Timeout(30)
    void objectsTimeoutsAndPolling() {
        LocalCohort.builder().size(2).run(world -> {
            Deck deck = Deck.of(world);
            if (world.rank() == 1) {
                Mailbox box = deck.createMailbox("objects");
                assertEquals(Optional.empty(), box.poll());
                assertEquals(Optional.empty(), box.take(Duration.ofMillis(20)), "nothing came in time");
                assertEquals(Optional.empty(), box.take(Duration.ZERO));
                world.barrier();
                Mail m = box.take();
                assertEquals(0, m.source());
                assertEquals("hello", m.asObject());
                Mail n = box.take(Duration.ofSeconds(20)).orElseThrow();
                assertArrayEquals(new byte[0], n.bytes());
                assertEquals(0, box.pending());
                assertEquals(1, box.owner());
                assertEquals("objects", box.name());
            } else {
                world.barrier();
                deck.postObject("objects", "hello");
                deck.post("objects", new byte[0]);
            }
        });
    }

    @Test
    @Timeout(30)
    void unknownDuplicateAndMistakenNamesFailWithOneSentence() {
        LocalCohort.builder().size(2).run(world -> {
            Deck deck = Deck.of(world);
            if (world.rank() == 0) {
                deck.createMailbox("taken");
                deck.createGroup("a-group", 1);
            }
            world.barrier();
            if (world.rank() == 1) {
                DeckException e = assertThrows(DeckException.class, () -> deck.post("nobody", new byte[1]));
                assertEquals("no mailbox named 'nobody' exists; it was never created or has been destroyed"
                        + " (create it with createMailbox first)", e.getMessage());
                e = assertThrows(DeckException.class, () -> deck.createMailbox("taken"));
                assertEquals("the name 'taken' is already taken by a mailbox of rank 0; DECK names are job-wide, so"
                        + " choose another", e.getMessage());
                e = assertThrows(DeckException.class, () -> deck.post("a-group", new byte[1]));
                assertEquals("'a-group' names a group, not a mailbox", e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> deck.createMailbox(""));
            }
            world.barrier();
        });
    }

    /** A destroyed mailbox refuses posts, also from a peer that had its address cached. */
    @ParameterizedTest
    @ValueSource(strings = {"local", "tcp"})
    @Timeout(30)
    void postingToADestroyedMailboxFails(String transport) {
        LocalCohort.builder().size(2).transport(transport).run(world -> {
            Deck deck = Deck.of(world);
            Mailbox box = world.rank() == 0 ? deck.createMailbox("short-lived") : null;
            world.barrier();
            if (world.rank() == 1) {
                deck.post("short-lived", new byte[] {1}); // the address is cached from here on
            } else {
                assertEquals(1, box.take().bytes()[0]);
                box.close();
                box.close(); // idempotent
                DeckException e = assertThrows(DeckException.class, box::take);
                assertEquals("mailbox 'short-lived' was destroyed; create a new one to receive again", e.getMessage());
            }
            world.barrier();
            if (world.rank() == 1) {
                DeckException e = assertThrows(DeckException.class, () -> deck.post("short-lived", new byte[] {2}));
                assertEquals("no mailbox named 'short-lived' exists; it was never created or has been destroyed"
                        + " (create it with createMailbox first)", e.getMessage());
            }
            world.barrier();
            // The name is free again, and may now live on another peer.
            if (world.rank() == 1) {
                deck.createMailbox("short-lived");
            }
            world.barrier();
            if (world.rank() == 0) {
                deck.post("short-lived", new byte[] {3});
            } else {
                assertEquals(0, deck.createMailbox("other").pending());
            }
            world.barrier();
        });
    }

    @Test
    @Timeout(30)
    void destroyingWakesAWaitingTaker() throws Exception {
        LocalCohort.run(1, world -> {
            Mailbox box = Deck.of(world).createMailbox("waited-on");
            CompletableFuture<Throwable> taker = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    box.take();
                    taker.complete(null);
                } catch (Throwable e) {
                    taker.complete(e);
                }
            });
            t.start();
            box.close();
            Throwable e = taker.join();
            assertTrue(e instanceof DeckException, String.valueOf(e));
            assertEquals("mailbox 'waited-on' was destroyed; create a new one to receive again", e.getMessage());
        });
    }

    @Test
    @Timeout(30)
    void onlyOwnMailboxesJoinGroups() {
        java.util.concurrent.atomic.AtomicReference<Mailbox> ofRankZero = new java.util.concurrent.atomic.AtomicReference<>();
        LocalCohort.builder().size(2).run(world -> {
            Deck deck = Deck.of(world);
            Mailbox mine = deck.createMailbox("m" + world.rank());
            if (world.rank() == 0) {
                ofRankZero.set(mine);
                deck.createGroup("club", 1);
            }
            world.barrier();
            int id = deck.join("club", mine);
            assertTrue(id > 0);
            if (world.rank() == 1) {
                // Peers are threads here, so another peer's Mailbox object is within reach: still refused.
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> deck.join("club", ofRankZero.get()));
                assertEquals("mailbox 'm0' belongs to rank 0; join with a mailbox this peer created", e.getMessage());
                DeckException d = assertThrows(DeckException.class, () -> deck.join("club", mine));
                assertEquals("that mailbox of rank 1 already is member " + id + " of group 'club'", d.getMessage());
            }
            world.barrier();
        });
    }
}

package io.cohort.deck;

import io.cohort.CohortProvider;
import io.cohort.Communicator;

import java.io.Serializable;

/**
 * One peer's door to DECK's services (DECK paper, section 4): mailboxes registered by name in
 * the naming service on rank 0, and groups, each served by a thread in the peer that created it.
 *
 * <pre>
 *   Deck deck = Deck.of(world);
 *   Mailbox inbox = deck.createMailbox("worker-" + world.rank());
 *   deck.post("worker-0", bytes);            // anyone may post; only the creator takes
 *   Mail m = inbox.take();
 *
 *   if (world.rank() == 0) deck.createGroup("workers", 4);   // a group-server thread on rank 0
 *   int me = deck.join("workers", inbox);    // broadcasts to the group land in inbox
 *   deck.sync("workers", me);                // released once every member has synced
 *   deck.bcast("workers", bytes);            // members or not, as in PVM
 * </pre>
 *
 * Names are job-wide, ranks are world ranks. Every call that asks a server waits for its answer
 * with an ordinary receive (so the calling thread drives progress as any receive does) and fails
 * with a {@link DeckException} whose message says what was wrong, or a
 * {@link io.cohort.PeerFailedException} if the server's peer is gone. See {@code docs/deck.md}.
 *
 * <p>Threads: any thread of the peer may call any method, concurrently.
 *
 * <p>Cohort makes each peer's Deck ({@link #of}); programs do not extend this class.
 */
public abstract class Deck {
    /** For Cohort's implementation; a program gets its peer's Deck from {@link #of}. */
    protected Deck() {
    }

    /**
     * The Deck of the peer that owns {@code comm} (any communicator of the peer gives the same one).
     *
     * @throws IllegalArgumentException if {@code comm} was not made by {@code Cohort.init} or {@code LocalCohort}
     * @throws IllegalStateException if {@code comm} is closed
     */
    public static Deck of(Communicator comm) {
        return CohortProvider.get().peerService(comm, Deck.class);
    }

    /** This peer's world rank. */
    public abstract int rank();

    /**
     * Creates a mailbox owned by this peer and registers it under {@code name}.
     *
     * @throws DeckException if the name is taken
     */
    public abstract Mailbox createMailbox(String name);

    /**
     * Posts {@code message} to the mailbox registered as {@code mailbox}; returns once it is in the
     * mailbox (not once it is taken).
     *
     * @throws DeckException if no such mailbox exists or it was destroyed
     */
    public abstract void post(String mailbox, byte[] message);

    /** Posts a serialized object; the owner reads it with {@link Mail#asObject()}. */
    public abstract void postObject(String mailbox, Serializable message);

    /**
     * Creates a group: starts its server thread in this peer and registers {@code name}. The group
     * refuses broadcasts while it has fewer than {@code minMembers} members.
     *
     * @throws DeckException if the name is taken
     */
    public abstract void createGroup(String name, int minMembers);

    /**
     * Adds {@code mailbox} (one of this peer's) to the group and returns the new member's id;
     * the group's broadcasts are then posted to it.
     */
    public abstract int join(String group, Mailbox mailbox);

    /** Removes member {@code memberId} from the group; its mailbox gets no more broadcasts. */
    public abstract void leave(String group, int memberId);

    /**
     * Posts {@code message} to the mailbox of every member of the group (the caller need not be a
     * member); returns, once all are delivered, how many members it reached (members whose peer
     * failed or whose mailbox was destroyed meanwhile are dropped from the group).
     *
     * @throws DeckException if the group has fewer members than its minimum
     */
    public abstract int bcast(String group, byte[] message);

    /** Broadcasts a serialized object; members read it with {@link Mail#asObject()}. */
    public abstract int bcastObject(String group, Serializable message);

    /**
     * Waits until every member of the group has called sync (and the group has at least its
     * minimum of members), then returns in all of them.
     */
    public abstract void sync(String group, int memberId);

    /**
     * Destroys the group once the broadcasts already accepted are delivered: its name is
     * unregistered, members waiting in sync fail, its threads end. Any peer may destroy a group.
     */
    public abstract void destroyGroup(String group);
}

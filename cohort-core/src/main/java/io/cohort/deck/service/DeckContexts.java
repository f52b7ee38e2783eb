package io.cohort.deck.service;

/**
 * The communicator contexts DECK's messages travel on, and the range reserved for them.
 *
 * <p>Communicators allocate their contexts upwards from 0 (the world uses 0 and 1, each derived
 * communicator the next free pair), so the top sixteen values, {@link #RESERVED_LOWEST} to
 * {@link Integer#MAX_VALUE}, are reserved for DECK: no communicator may ever be given a context in
 * this range, and context allocation (sub-communicators, {@code dup}, {@code split}) must stop
 * below {@link #RESERVED_LOWEST}. Arrivals on the request contexts are taken from the engine by
 * {@link io.cohort.engine.ProgressEngine#onContext} handlers; replies are ordinary matched
 * receives.
 *
 * <p>Constants only; any thread.
 */
public final class DeckContexts {
    /** The lowest context reserved for DECK ({@code Integer.MAX_VALUE - 15}). */
    public static final int RESERVED_LOWEST = Integer.MAX_VALUE - 15;
    /** Requests to the naming service on rank 0 ({@link NamingRequestDescriptor}). */
    public static final int NAMING = Integer.MAX_VALUE;
    /** Posts to a peer's mailboxes ({@link MailboxPostDescriptor}). */
    public static final int MAILBOX = Integer.MAX_VALUE - 1;
    /** Requests to the group servers of a peer ({@link GroupRequestDescriptor}). */
    public static final int GROUP = Integer.MAX_VALUE - 2;
    /** Replies to all of the above ({@link ReplyDescriptor}); the tag is the request's reply tag. */
    public static final int REPLY = Integer.MAX_VALUE - 3;

    private DeckContexts() {
    }

    /** Whether {@code context} lies in DECK's reserved range. */
    public static boolean isReserved(int context) {
        return context >= RESERVED_LOWEST;
    }
}

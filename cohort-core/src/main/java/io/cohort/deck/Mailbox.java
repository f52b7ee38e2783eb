package io.cohort.deck;

import java.time.Duration;
import java.util.Optional;

/**
 * A DECK mailbox: created by one peer ({@link Deck#createMailbox}) and registered by name, so any
 * peer may post to it ({@link Deck#post}) or make it a group member ({@link Deck#join}); only its
 * creator takes messages out, in arrival order (FIFO per poster).
 *
 * <p>Waiting happens on a Java queue that arrivals fill, not inside the engine; in slices of a
 * millisecond the waiting thread offers one round of progress to the engine (a no-op when another
 * thread is driving it), so arrivals are drained promptly even when no other thread of the peer is
 * communicating.
 *
 * <p>Threads: any thread of the creating peer may take, poll or close, concurrently.
 */
public abstract class Mailbox implements AutoCloseable {
    /** For Cohort's implementation; a program gets a mailbox from {@link Deck#createMailbox}. */
    protected Mailbox() {
    }

    public abstract String name();

    /** World rank of the creator, the only peer that may take from it. */
    public abstract int owner();

    /** Messages waiting to be taken. */
    public abstract int pending();

    /**
     * Takes the next message, waiting as long as it takes.
     *
     * @throws DeckException if the mailbox is or gets destroyed
     */
    public abstract Mail take();

    /** Takes the next message, waiting at most {@code timeout}; empty if none came in time. */
    public abstract Optional<Mail> take(Duration timeout);

    /** The next message if one is waiting, without blocking. */
    public abstract Optional<Mail> poll();

    /**
     * Destroys the mailbox: unregisters its name, leaves the groups it joined (so that a sync does
     * not wait for it), refuses further posts (posters get a clear error), drops messages not yet
     * taken and wakes waiting takers with an error. Idempotent.
     */
    @Override
    public abstract void close();
}

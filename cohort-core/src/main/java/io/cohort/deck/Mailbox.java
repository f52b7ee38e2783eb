package io.cohort.deck;

import io.cohort.CohortException;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A DECK mailbox: created by one peer ({@link Deck#createMailbox}) and registered by name, so any
 * peer may post to it ({@link Deck#post}) or make it a group member ({@link Deck#join}); only its
 * creator takes messages out, in arrival order (FIFO per poster).
 *
 * <p>Waiting happens on a Java queue the engine's handler fills, not inside the engine; in slices
 * of {@value #SLICE_MICROS} µs the waiting thread offers one round of progress to the engine (a
 * no-op when another thread is driving it), so arrivals are drained promptly even when no other
 * thread of the peer is communicating.
 *
 * <p>Threads: any thread of the creating peer may take, poll or close, concurrently.
 */
public final class Mailbox implements AutoCloseable {
    /** Longest wait on the queue between two offers of progress. */
    static final long SLICE_MICROS = 1000;

    private final Deck deck;
    private final String name;
    private final int id;
    private final LinkedBlockingQueue<Mail> queue = new LinkedBlockingQueue<>();
    /** The groups this mailbox joined (server and member id): left when it is destroyed. */
    final java.util.Set<Deck.Membership> memberships = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean destroyed;

    Mailbox(Deck deck, String name, int id) {
        this.deck = deck;
        this.name = name;
        this.id = id;
    }

    public String name() {
        return name;
    }

    /** World rank of the creator, the only peer that may take from it. */
    public int owner() {
        return deck.rank();
    }

    int id() {
        return id;
    }

    Deck deck() {
        return deck;
    }

    /** Messages waiting to be taken. */
    public int pending() {
        return queue.size();
    }

    /** Called by the post office (on the delivering thread); false once destroyed. */
    boolean deliver(Mail m) {
        if (destroyed) {
            return false;
        }
        queue.add(m);
        return true;
    }

    /**
     * Takes the next message, waiting as long as it takes.
     *
     * @throws DeckException if the mailbox is or gets destroyed
     */
    public Mail take() {
        return waitFor(Long.MAX_VALUE).orElseThrow();
    }

    /** Takes the next message, waiting at most {@code timeout}; empty if none came in time. */
    public Optional<Mail> take(Duration timeout) {
        long nanos = timeout.toNanos();
        return waitFor(nanos <= 0 ? 0 : System.nanoTime() + nanos);
    }

    /** The next message if one is waiting, without blocking. */
    public Optional<Mail> poll() {
        checkOpen();
        Mail m = queue.poll();
        if (m == null) {
            deck.engine().progressOnce();
            m = queue.poll();
        }
        return Optional.ofNullable(m == null ? null : answered(m));
    }

    private Optional<Mail> waitFor(long deadline) {
        checkOpen();
        while (true) {
            Mail m = queue.poll();
            if (m != null) {
                return Optional.of(answered(m));
            }
            checkOpen();
            if (deck.engine().isClosed()) {
                throw new IllegalStateException("this peer's communicator is closed; mailbox '" + name + "' can no longer receive");
            }
            deck.engine().progressOnce();
            long slice = TimeUnit.MICROSECONDS.toNanos(SLICE_MICROS);
            if (deadline != Long.MAX_VALUE) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    Mail last = queue.poll();
                    return Optional.ofNullable(last == null ? null : answered(last));
                }
                slice = Math.min(slice, left);
            }
            try {
                m = queue.poll(slice, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CohortException("interrupted while waiting on mailbox '" + name + "'");
            }
            if (m != null) {
                return Optional.of(answered(m));
            }
        }
    }

    /** Waits (briefly: the post office's next task) until the poster's reply is out; see {@link Mail}. */
    private Mail answered(Mail m) {
        while (!m.isAnswered() && !deck.engine().isClosed()) {
            Thread.yield();
        }
        return m;
    }

    private void checkOpen() {
        if (destroyed) {
            throw new DeckException("mailbox '" + name + "' was destroyed; create a new one to receive again");
        }
    }

    boolean isDestroyed() {
        return destroyed;
    }

    /** Marks it destroyed: posts are refused from now on, waiting takers wake within a slice. */
    void markDestroyed() {
        destroyed = true;
        queue.clear();
    }

    /**
     * Destroys the mailbox: unregisters its name, leaves the groups it joined (so that a sync does
     * not wait for it), refuses further posts (posters get a clear error), drops messages not yet
     * taken and wakes waiting takers with an error. Idempotent.
     */
    @Override
    public void close() {
        deck.destroyMailbox(this);
    }

    @Override
    public String toString() {
        return "Mailbox[" + name + " of rank " + deck.rank() + "]";
    }
}

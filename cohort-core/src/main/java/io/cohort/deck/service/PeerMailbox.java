package io.cohort.deck.service;

import io.cohort.CohortException;
import io.cohort.deck.DeckException;
import io.cohort.deck.Mail;
import io.cohort.deck.Mailbox;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A mailbox of this peer's {@link PeerDeck}: the queue its {@link PostOffice} fills as posts arrive.
 *
 * <p>Waiting happens on that Java queue, not inside the engine; in slices of
 * {@value #SLICE_MICROS} µs the waiting thread offers one round of progress to the engine (a
 * no-op when another thread is driving it), so arrivals are drained promptly even when no other
 * thread of the peer is communicating.
 *
 * <p>Threads: any thread of the creating peer may take, poll or close, concurrently.
 */
final class PeerMailbox extends Mailbox {
    /**
     * A post in the queue. False while the post office has yet to send the poster its reply: the
     * owner is handed the mail only after that, so an owner that takes it and closes its world at
     * once cannot say goodbye before the reply (the poster would then fail with PeerClosedException).
     */
    static final class Delivery {
        final Mail mail;
        private volatile boolean answered;

        Delivery(Mail mail) {
            this.mail = mail;
        }

        void answered() {
            answered = true;
        }

        boolean isAnswered() {
            return answered;
        }
    }

    /** Longest wait on the queue between two offers of progress. */
    static final long SLICE_MICROS = 1000;

    private final PeerDeck deck;
    private final String name;
    private final int id;
    private final LinkedBlockingQueue<Delivery> queue = new LinkedBlockingQueue<>();
    /** The groups this mailbox joined (server and member id): left when it is destroyed. */
    final java.util.Set<PeerDeck.Membership> memberships = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean destroyed;

    PeerMailbox(PeerDeck deck, String name, int id) {
        this.deck = deck;
        this.name = name;
        this.id = id;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int owner() {
        return deck.rank();
    }

    int id() {
        return id;
    }

    PeerDeck deck() {
        return deck;
    }

    @Override
    public int pending() {
        return queue.size();
    }

    /** Called by the post office (on the delivering thread); false once destroyed. */
    boolean deliver(Delivery d) {
        if (destroyed) {
            return false;
        }
        queue.add(d);
        return true;
    }

    @Override
    public Mail take() {
        return waitFor(Long.MAX_VALUE).orElseThrow();
    }

    @Override
    public Optional<Mail> take(Duration timeout) {
        long nanos = timeout.toNanos();
        return waitFor(nanos <= 0 ? 0 : System.nanoTime() + nanos);
    }

    @Override
    public Optional<Mail> poll() {
        checkOpen();
        Delivery m = queue.poll();
        if (m == null) {
            deck.engine().progressOnce();
            m = queue.poll();
        }
        return Optional.ofNullable(m == null ? null : answered(m));
    }

    private Optional<Mail> waitFor(long deadline) {
        checkOpen();
        while (true) {
            Delivery m = queue.poll();
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
                    Delivery last = queue.poll();
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

    /** Waits (briefly: the post office's next task) until the poster's reply is out; see {@link Delivery}. */
    private Mail answered(Delivery m) {
        while (!m.isAnswered() && !deck.engine().isClosed()) {
            Thread.yield();
        }
        return m.mail;
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

    @Override
    public void close() {
        deck.destroyMailbox(this);
    }

    @Override
    public String toString() {
        return "Mailbox[" + name + " of rank " + deck.rank() + "]";
    }
}

package io.cohort.transport.udp;

/**
 * Decides when a pair owes its peer an explicit ACK frame. Every outgoing frame carries the
 * current acknowledgement, so most acks ride on data; an ACK frame is sent only when
 *
 * <ul>
 *   <li>the peer needs to know now: a frame arrived out of order (it should retransmit the gap),
 *       a duplicate arrived (our earlier ack was probably lost), or the goodbye arrived;</li>
 *   <li>{@code ackEvery} frames have arrived since the last ack we sent (so a streaming sender's
 *       window keeps moving without waiting for the delay);</li>
 *   <li>or the delay since the first unacknowledged arrival has passed with nothing to ride on.</li>
 * </ul>
 *
 * <p>Threads: guarded by the pair's lock (any frame a sending thread sends acknowledges too).
 */
final class AckTracker {
    static final long NONE = Long.MAX_VALUE;

    private final long delayNanos;
    private final int ackEvery;
    private int unacked;
    private boolean urgent;
    private long dueAt = NONE;

    AckTracker(long delayNanos, int ackEvery) {
        this.delayNanos = delayNanos;
        this.ackEvery = Math.max(1, ackEvery);
    }

    /** A sequenced frame arrived; {@code urgent} if the peer should hear of it at once. */
    void arrived(long now, boolean urgent) {
        unacked++;
        if (urgent || unacked >= ackEvery) {
            this.urgent = true;
        } else if (dueAt == NONE) {
            dueAt = now + delayNanos;
        }
    }

    /** An ACK should go out on the next occasion (e.g. a duplicate: our ack was lost). */
    void urgent() {
        urgent = true;
    }

    /** A frame carrying the current acknowledgement went out. */
    void sent() {
        unacked = 0;
        urgent = false;
        dueAt = NONE;
    }

    boolean isUrgent() {
        return urgent;
    }

    /** Whether an ACK frame is owed by {@code now}. */
    boolean due(long now) {
        return urgent || (dueAt != NONE && now - dueAt >= 0);
    }

    /** When the delayed ack falls due ({@link #NONE} if nothing waits, "now" if urgent). */
    long dueAt(long now) {
        return urgent ? now : dueAt;
    }
}

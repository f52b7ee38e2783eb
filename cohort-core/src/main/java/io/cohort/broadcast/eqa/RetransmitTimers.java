package io.cohort.broadcast.eqa;

/**
 * How long a sender waits for each receiver's acknowledgement before it resends to that receiver:
 * an estimate per receiver of the time from a packet's broadcast to its acknowledgement, in the
 * manner of TCP's (RFC 6298: a smoothed round trip plus four times its mean deviation), so that a
 * receiver whose host is slow to schedule it (more peers than processors) is given the time it
 * needs instead of being sent the same packets again every 2 ms, while a quick LAN recovers a
 * lost tail in well under a millisecond.
 *
 * <ul>
 *   <li>Before a receiver's first sample its timeout is {@code cohort.eqa.retransmitTimeoutMicros}.
 *   <li>A sample is the time from a packet's first broadcast to the ACK that first covers it. A
 *       packet resent to that receiver gives none (Karn's rule: the ACK may answer either copy).
 *   <li>Each timeout doubles the receiver's timeout (up to {@link #MAX_NANOS}) until a new sample;
 *       nothing goes below a quarter of the configured timeout.
 * </ul>
 *
 * <p>Threads: the peer's owner thread only, as its {@link EqaSender}.
 */
final class RetransmitTimers {
    /** The longest a receiver is waited for between two resends. */
    static final long MAX_NANOS = 1_000_000_000L;

    private final long minNanos;
    /** When each packet of the window was first broadcast, by sequence modulo the window. */
    private final long[] sentAt;
    /** Per receiver slot: smoothed round trip and its mean deviation (0 before the first sample). */
    private final long[] srtt;
    private final long[] rttvar;
    private final long[] timeout;
    /** Per receiver slot: sequences below this were resent to it, so their ACKs are no samples. */
    private final long[] resentBelow;

    RetransmitTimers(int receivers, int window, long initialNanos) {
        this.minNanos = Math.max(10_000L, initialNanos / 4);
        this.sentAt = new long[window];
        this.srtt = new long[receivers];
        this.rttvar = new long[receivers];
        this.timeout = new long[receivers];
        this.resentBelow = new long[receivers];
        java.util.Arrays.fill(timeout, initialNanos);
    }

    /** Packet {@code seq} was broadcast for the first time at {@code now}. */
    void broadcast(long seq, long now) {
        sentAt[(int) (seq % sentAt.length)] = now;
    }

    /**
     * Receiver {@code slot} acknowledged everything below {@code next}, the first ACK to cover
     * {@code next - 1}: a sample unless that packet was resent to it. The caller guarantees that
     * {@code next - 1} is still in the window (the receiver's cursor was at or below it).
     */
    void acknowledged(int slot, long next, long now) {
        long seq = next - 1;
        if (seq < resentBelow[slot]) {
            return;
        }
        long r = Math.max(0, now - sentAt[(int) (seq % sentAt.length)]);
        if (srtt[slot] == 0) {
            srtt[slot] = Math.max(1, r);
            rttvar[slot] = r / 2;
        } else {
            rttvar[slot] += (Math.abs(srtt[slot] - r) - rttvar[slot]) / 4;
            srtt[slot] += (r - srtt[slot]) / 8;
        }
        timeout[slot] = Math.min(MAX_NANOS, Math.max(minNanos, srtt[slot] + 4 * rttvar[slot]));
    }

    /** Everything below {@code next} went to receiver {@code slot} again: no samples from it. */
    void resent(int slot, long next) {
        resentBelow[slot] = Math.max(resentBelow[slot], next);
    }

    /** Receiver {@code slot} timed out: wait twice as long next time, until a sample says otherwise. */
    void backOff(int slot) {
        timeout[slot] = Math.min(MAX_NANOS, Math.max(timeout[slot], minNanos) * 2);
    }

    /** How long to wait for receiver {@code slot} now. */
    long timeout(int slot) {
        return timeout[slot];
    }

    /** The smoothed round trip to receiver {@code slot} in nanoseconds; 0 before its first sample. */
    long smoothedRoundTrip(int slot) {
        return srtt[slot];
    }
}

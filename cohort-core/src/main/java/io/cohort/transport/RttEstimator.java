package io.cohort.transport;

/**
 * The adaptive retransmission time-out of one pair (Jacobson/Karels, as RFC 6298 states it):
 *
 * <pre>
 *   first sample R:   SRTT = R, RTTVAR = R/2
 *   later samples R:  RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R|,  SRTT = 7/8 SRTT + 1/8 R
 *   RTO = clamp(SRTT + max(G, 4 RTTVAR), floor, ceiling)       G = 1 µs, the clock's granularity
 *   time-out:         RTO = min(2 RTO, ceiling)                 exponential backoff
 * </pre>
 *
 * Karn's rule is the caller's part: it samples only frames that were sent once, so a sample never
 * confuses an original with its retransmission. A fresh sample ends the backoff.
 *
 * Used by the UDP transport per pair and by the broadcast domain for its NACK timers.
 *
 * <p>Threads: updated by the progress owner under the pair's lock; {@link #rtoNanos()} is read by
 * sending threads without it, hence volatile.
 */
public final class RttEstimator {
    private static final long GRANULARITY_NANOS = 1_000;

    private final long floorNanos;
    private final long ceilingNanos;
    private long srtt;
    private long rttvar;
    private boolean sampled;
    private volatile long rto; // written by the owner, read by any sender arming a timer

    public RttEstimator(long initialNanos, long floorNanos, long ceilingNanos) {
        if (floorNanos <= 0 || ceilingNanos < floorNanos) {
            throw new IllegalArgumentException("need 0 < floor <= ceiling");
        }
        this.floorNanos = floorNanos;
        this.ceilingNanos = ceilingNanos;
        this.rto = clamp(initialNanos);
    }

    /** A round-trip time measured on a frame that was transmitted exactly once. */
    public void sample(long rttNanos) {
        long r = Math.max(1, rttNanos);
        if (!sampled) {
            srtt = r;
            rttvar = r / 2;
            sampled = true;
        } else {
            rttvar = (3 * rttvar + Math.abs(srtt - r)) / 4;
            srtt = (7 * srtt + r) / 8;
        }
        rto = clamp(srtt + Math.max(GRANULARITY_NANOS, 4 * rttvar));
    }

    /** A retransmission timer expired: double the time-out, up to the ceiling. */
    public void backoff() {
        long doubled = rto > ceilingNanos / 2 ? ceilingNanos : rto * 2;
        rto = clamp(doubled);
    }

    public long rtoNanos() {
        return rto;
    }

    /** The smoothed round-trip time, or the time-out while nothing has been measured. */
    public long srttNanos() {
        return sampled ? srtt : rto;
    }

    public long rttvarNanos() {
        return rttvar;
    }

    public boolean hasSample() {
        return sampled;
    }

    private long clamp(long nanos) {
        return Math.max(floorNanos, Math.min(ceilingNanos, nanos));
    }
}

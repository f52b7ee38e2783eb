package io.cohort.broadcast.pcode;

import io.cohort.transport.RttEstimator;

/**
 * Adapts the NACK timers of section 5.7 to what this domain measures, so that a slow or queued
 * medium does not turn NACKs into a retransmission storm (a NACK that overtakes its original makes
 * the sender queue a copy behind it, which delays the next original, which draws more NACKs).
 *
 * <p>Two estimators, both Jacobson/Karels ({@link RttEstimator}):
 * <ul>
 *   <li><b>lateness</b>: from the moment a stream is needed (a request waits on it, or a gap shows)
 *       to the arrival of the awaited frame as an original. Sampled whether or not a NACK went out
 *       first; a sample after a NACK is a NACK that came too early. The REQUEST NACK's initial delay
 *       is {@code max(REQUEST_NACK_DELAY, lateness time-out)}: we ask only once the original is
 *       overdue.</li>
 *   <li><b>recovery round trip</b>: from a stream's first NACK to the arrival of the awaited frame
 *       as a retransmission, sampled only when exactly one NACK went out for it (Karn's rule). The
 *       repeat interval is {@code max(NACK_INTERVAL, recovery time-out)}, doubled for every repeat of
 *       the same need (exponential backoff, as TCP's RTO), up to the ceiling.</li>
 * </ul>
 * On an idle or fast medium both time-outs stay under the configured values, which then rule;
 * the estimators only ever lengthen a timer. The PERSONAL_GAP delay is not adapted: a gap on one
 * path is a loss, not a late frame.
 *
 * <p>Threads: the domain's lock.
 */
final class NackPacing {
    private final PcodeContext ctx;
    private final RttEstimator lateness;
    private final RttEstimator recovery;
    /** Per stream: when the current need began (0: none), the awaited personal count, NACKs sent since. */
    private final long[] needAt;
    private final long[] awaited;
    private final long[] firstNackAt;
    private final int[] nacks;

    NackPacing(PcodeContext ctx, int streams) {
        this.ctx = ctx;
        long floor = 1_000; // 1 µs: the estimators never bound the timers from below, the settings do
        this.lateness = new RttEstimator(floor, floor, ctx.nackCeilingNanos);
        this.recovery = new RttEstimator(floor, floor, ctx.nackCeilingNanos);
        this.needAt = new long[streams];
        this.awaited = new long[streams];
        this.firstNackAt = new long[streams];
        this.nacks = new int[streams];
    }

    /** {@code stream} is needed from now: its frame {@code expected} is awaited. */
    void need(int stream, long expected, long now) {
        if (needAt[stream] == 0 || awaited[stream] != expected) {
            needAt[stream] = now == 0 ? 1 : now;
            awaited[stream] = expected;
            nacks[stream] = 0;
        }
    }

    /** A NACK about {@code stream} went out. */
    void nackSent(int stream, long now) {
        if (needAt[stream] != 0 && nacks[stream]++ == 0) {
            firstNackAt[stream] = now;
        }
    }

    /** A DATA frame of {@code stream} with personal count {@code pc} arrived; {@code resend} if it is a copy. */
    void arrived(int stream, long pc, boolean resend, long now) {
        if (needAt[stream] == 0 || pc != awaited[stream]) {
            return;
        }
        if (!resend) {
            lateness.sample(now - needAt[stream]);
        } else if (nacks[stream] == 1) {
            recovery.sample(now - firstNackAt[stream]);
        }
        needAt[stream] = 0;
    }

    /** The initial delay of a REQUEST NACK. */
    long requestDelay() {
        return lateness.hasSample() ? Math.max(ctx.requestNackDelayNanos, lateness.rtoNanos()) : ctx.requestNackDelayNanos;
    }

    /** The time until the next NACK about {@code stream}, given the NACKs already sent for its need. */
    long repeatInterval(int stream) {
        long base = recovery.hasSample() ? Math.max(ctx.nackIntervalNanos, recovery.rtoNanos()) : ctx.nackIntervalNanos;
        int doublings = Math.min(needAt[stream] == 0 ? 0 : Math.max(0, nacks[stream] - 1), 16);
        long interval = base << doublings;
        return interval < 0 || interval > ctx.nackCeilingNanos ? Math.max(base, ctx.nackCeilingNanos) : interval;
    }

    /** The repeat interval of needs that have no stream (the GLOBAL_GAP NACK). */
    long baseInterval() {
        return recovery.hasSample() ? Math.max(ctx.nackIntervalNanos, recovery.rtoNanos()) : ctx.nackIntervalNanos;
    }

    long latenessTimeoutNanos() {
        return lateness.rtoNanos();
    }

    long recoveryTimeoutNanos() {
        return recovery.rtoNanos();
    }
}

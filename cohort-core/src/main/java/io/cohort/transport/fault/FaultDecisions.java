package io.cohort.transport.fault;

import java.util.SplittableRandom;

/**
 * The random decisions of one direction of one port, separated from all I/O so they can be tested
 * and replayed: the n-th call of {@link #next()} gives the same answer for the same plan and seed,
 * whatever the timing. Draws happen in a fixed order per datagram (burst, loss, duplication,
 * reorder, jitter) and only for the faults the plan switches on. Not thread-safe: one decider per
 * direction, used under that direction's discipline (owner thread, or the send lock).
 */
public final class FaultDecisions {
    /** Deliver normally. */
    public static final int PASS = 0;
    /** Drop: random loss. */
    public static final int DROP_LOSS = 1;
    /** Drop: part of a burst. */
    public static final int DROP_BURST = 1 << 1;
    /** Deliver twice. */
    public static final int DUPLICATE = 1 << 2;
    /** Hold back until later datagrams have passed. */
    public static final int HOLD = 1 << 3;
    /** Any drop. */
    public static final int DROP = DROP_LOSS | DROP_BURST;

    private final FaultPlan plan;
    private final SplittableRandom random;
    private int burstLeft;
    private boolean burstStarted;
    private long delayNanos;
    private long decisions;

    public FaultDecisions(FaultPlan plan, long seed) {
        this.plan = plan;
        this.random = new SplittableRandom(seed);
    }

    /** Decides the fate of the next datagram: a bit set of the constants above. */
    public int next() {
        decisions++;
        delayNanos = plan.delayNanos;
        burstStarted = false;
        if (burstLeft > 0) {
            burstLeft--;
            return DROP_BURST;
        }
        if (plan.burstRate > 0 && random.nextDouble() < plan.burstRate) {
            burstLeft = plan.burstLength - 1;
            burstStarted = true;
            return DROP_BURST;
        }
        if (plan.loss > 0 && random.nextDouble() < plan.loss) {
            return DROP_LOSS;
        }
        int d = PASS;
        if (plan.dup > 0 && random.nextDouble() < plan.dup) {
            d |= DUPLICATE;
        }
        if (plan.reorder > 0 && random.nextDouble() < plan.reorder) {
            d |= HOLD;
        }
        if (plan.jitterNanos > 0) {
            delayNanos += (long) (random.nextDouble() * plan.jitterNanos);
        }
        return d;
    }

    /** The delay of the datagram last decided on (delay plus its jitter; 0 if none). */
    public long delayNanos() {
        return delayNanos;
    }

    /** True if the last decision started a burst (the first datagram of it). */
    public boolean burstStarted() {
        return burstStarted;
    }

    /** Decisions made so far. */
    public long count() {
        return decisions;
    }
}

package io.cohort.idle;

/**
 * Spins, then yields, then blocks with growing periods: PSE's "spin for a while, then deschedule".
 * The spin phase catches replies that arrive within microseconds; the blocking phase keeps many
 * peers on few cores polite, because a blocked progress owner is woken by the kernel when bytes
 * arrive instead of by its timer.
 */
public final class BackoffIdleStrategy implements IdleStrategy {
    private final int maxSpins;
    private final int maxYields;
    private final long minBlockNanos;
    private final long maxBlockNanos;

    private final long yieldNanos;

    private int spins;
    private int yields;
    private long yieldingSince;
    private long blockNanos;

    public BackoffIdleStrategy(int maxSpins, int maxYields, long minBlockNanos, long maxBlockNanos) {
        this(maxSpins, maxYields, 0, minBlockNanos, maxBlockNanos);
    }

    /**
     * With {@code yieldNanos} above 0, the yield phase lasts that long (by the clock, at least
     * {@code maxYields} yields) rather than a count of yields: a yield that hands the processor to
     * another thread may take a whole time slice, or a microsecond when none is waiting.
     */
    public BackoffIdleStrategy(int maxSpins, int maxYields, long yieldNanos, long minBlockNanos, long maxBlockNanos) {
        if (maxSpins < 0 || maxYields < 0 || yieldNanos < 0 || minBlockNanos <= 0 || maxBlockNanos < minBlockNanos) {
            throw new IllegalArgumentException("backoff needs spins >= 0, yields >= 0, a yield time >= 0 and 0 < minBlock <= maxBlock");
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.yieldNanos = yieldNanos;
        this.minBlockNanos = minBlockNanos;
        this.maxBlockNanos = maxBlockNanos;
        this.blockNanos = minBlockNanos;
    }

    @Override
    public void idle(Blocker blocker) {
        if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (inYieldPhase()) {
            yields++;
            Thread.yield();
        } else {
            blocker.block(blockNanos);
            blockNanos = Math.min(maxBlockNanos, blockNanos << 1);
        }
    }

    /** Whether this idle call yields: within the count of yields, or within the yield time since the first. */
    private boolean inYieldPhase() {
        if (yieldNanos == 0) {
            return yields < maxYields;
        }
        long now = System.nanoTime();
        if (yields == 0) {
            yieldingSince = now;
            return true;
        }
        return yields < maxYields || now - yieldingSince < yieldNanos;
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        blockNanos = minBlockNanos;
    }

    @Override
    public String name() {
        return "backoff";
    }
}

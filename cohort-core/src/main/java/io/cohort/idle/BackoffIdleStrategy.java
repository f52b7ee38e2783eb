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

    private int spins;
    private int yields;
    private long blockNanos;

    public BackoffIdleStrategy(int maxSpins, int maxYields, long minBlockNanos, long maxBlockNanos) {
        if (maxSpins < 0 || maxYields < 0 || minBlockNanos <= 0 || maxBlockNanos < minBlockNanos) {
            throw new IllegalArgumentException("backoff needs spins >= 0, yields >= 0 and 0 < minBlock <= maxBlock");
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minBlockNanos = minBlockNanos;
        this.maxBlockNanos = maxBlockNanos;
        this.blockNanos = minBlockNanos;
    }

    @Override
    public void idle(Blocker blocker) {
        if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            blocker.block(blockNanos);
            blockNanos = Math.min(maxBlockNanos, blockNanos << 1);
        }
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

package io.cohort.idle;

/** Blocks at once for a fixed period: the least CPU, and a kernel wake-up on every message. */
public final class ParkingIdleStrategy implements IdleStrategy {
    private final long blockNanos;

    public ParkingIdleStrategy(long blockNanos) {
        this.blockNanos = blockNanos;
    }

    @Override
    public void idle(Blocker blocker) {
        blocker.block(blockNanos);
    }

    @Override
    public void reset() {
    }

    @Override
    public boolean blocksAtOnce() {
        return true;
    }

    @Override
    public String name() {
        return "park";
    }
}

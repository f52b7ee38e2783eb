package io.cohort.idle;

/** Never gives up the CPU: the lowest latency, and a full core per waiting thread. */
public final class BusySpinIdleStrategy implements IdleStrategy {
    @Override
    public void idle(Blocker blocker) {
        Thread.onSpinWait();
    }

    @Override
    public void reset() {
    }

    @Override
    public String name() {
        return "busy-spin";
    }
}

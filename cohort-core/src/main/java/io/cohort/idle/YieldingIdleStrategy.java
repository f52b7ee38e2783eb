package io.cohort.idle;

/** Yields the CPU to other runnable threads between polls; still 100% CPU when nothing else runs. */
public final class YieldingIdleStrategy implements IdleStrategy {
    @Override
    public void idle(Blocker blocker) {
        Thread.yield();
    }

    @Override
    public void reset() {
    }

    @Override
    public String name() {
        return "yield";
    }
}

package io.cohort.idle;

/**
 * How a waiting thread gives up the CPU: the progress owner blocks in the transports' readiness
 * wait (so the kernel wakes it when bytes arrive); other threads park.
 */
@FunctionalInterface
public interface Blocker {
    /** Blocks for at most {@code nanos}; may return earlier (data, wake-up, interrupt). */
    void block(long nanos);

    /** A blocker that parks the calling thread. */
    Blocker PARK = new Blocker() {
        @Override
        public void block(long nanos) {
            java.util.concurrent.locks.LockSupport.parkNanos(nanos);
        }
    };
}

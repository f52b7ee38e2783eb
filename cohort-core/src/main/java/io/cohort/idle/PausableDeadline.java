package io.cohort.idle;

import java.util.concurrent.TimeUnit;

/**
 * A deadline that does not count the pauses of this process ({@link LocalPause}), for the waits of
 * wire-up that may span a suspension of the whole job: a peer that waited for the peer table when
 * the job was stopped must not give up the moment it runs again. The wait must look at least every
 * {@link #MAX_WAIT_NANOS} ({@link #nextWait}), so that a pause inside it is seen. One thread.
 */
public final class PausableDeadline {
    /** The longest single wait between two looks: 100 ms. */
    public static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final LocalPause pauses;
    private long deadline;

    /** A deadline {@code timeoutNanos} from now. */
    public PausableDeadline(long timeoutNanos) {
        long now = System.nanoTime();
        pauses = new LocalPause(now);
        deadline = now + timeoutNanos;
    }

    /** Nanoseconds left (0 or less: passed), once the deadline has moved later by any pause since the last look. */
    public long remaining() {
        long now = System.nanoTime();
        deadline += pauses.look(now);
        return deadline - now;
    }

    /** How long the next wait may be: what is left, but at most {@link #MAX_WAIT_NANOS}; 0 or less if passed. */
    public long nextWait() {
        return Math.min(remaining(), MAX_WAIT_NANOS);
    }
}

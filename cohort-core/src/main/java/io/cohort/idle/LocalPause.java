package io.cohort.idle;

import java.util.concurrent.TimeUnit;

/**
 * How long the process itself did not run while a waiting loop waited: the job was suspended
 * (Ctrl-Z, {@code kill -STOP}), a garbage collection stopped the world, the machine or its virtual
 * machine was suspended. A time-out that blames a peer for its silence must not count that time:
 * the peer may have spoken, but nobody here was listening, and after a suspension of the whole job
 * the first peer to run again would otherwise convict the others before they had a chance to run.
 * Cassandra's failure detector skips its convictions after a local pause for the same reason.
 *
 * <p>The loop calls {@link #look} with the time of each round and moves its time-out's start (or
 * the last time it heard a peer) later by what it returns. A gap counts as a pause only when it
 * exceeds both {@link #THRESHOLD_NANOS} and the time the loop meant to wait ({@link #waitingUntil}),
 * so a loop on a crowded machine that runs a little late keeps its time-outs as they are. The loop
 * must look at least every few hundred milliseconds while it runs, which every waiting loop in
 * Cohort does (each idles for 10 ms at most, or until its next protocol timer).
 *
 * <p>One thread at a time, no allocation.
 */
public final class LocalPause {
    /** A gap between two looks longer than this (and than the planned wait) is a pause: 1 s. */
    public static final long THRESHOLD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private long lastLook;
    private long plannedWake;

    /** A detector whose first look is measured from {@code now}. */
    public LocalPause(long now) {
        reset(now);
    }

    /** Starts over from {@code now}: the time before it is not looked at (a new call, a new loop). */
    public void reset(long now) {
        lastLook = now;
        plannedWake = now;
    }

    /** The loop is about to wait, on purpose, until {@code due} at the latest. */
    public void waitingUntil(long due) {
        plannedWake = due;
    }

    /**
     * Looks at the clock: returns how long the process did not run since the last look, beyond the
     * wait it planned, if that is a pause; 0 otherwise.
     */
    public long look(long now) {
        long expected = plannedWake - lastLook > 0 ? plannedWake : lastLook;
        lastLook = now;
        plannedWake = now;
        long late = now - expected;
        return late > THRESHOLD_NANOS ? late : 0;
    }
}

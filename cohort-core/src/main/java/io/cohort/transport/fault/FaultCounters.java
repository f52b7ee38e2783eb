package io.cohort.transport.fault;

import java.util.concurrent.atomic.AtomicLong;

/** What a {@link FaultInjectingPort} did, per kind of fault, both directions together. */
public final class FaultCounters {
    final AtomicLong seen = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
    final AtomicLong droppedInBursts = new AtomicLong();
    final AtomicLong bursts = new AtomicLong();
    final AtomicLong duplicated = new AtomicLong();
    final AtomicLong reordered = new AtomicLong();
    final AtomicLong delayed = new AtomicLong();

    /** Datagrams the fault layer decided on. */
    public long seen() {
        return seen.get();
    }

    /** Dropped by random loss. */
    public long dropped() {
        return dropped.get();
    }

    /** Dropped as part of a burst. */
    public long droppedInBursts() {
        return droppedInBursts.get();
    }

    /** Bursts started. */
    public long bursts() {
        return bursts.get();
    }

    public long duplicated() {
        return duplicated.get();
    }

    /** Held back behind later datagrams. */
    public long reordered() {
        return reordered.get();
    }

    /** Given a delay (fixed, jitter, or both). */
    public long delayed() {
        return delayed.get();
    }

    @Override
    public String toString() {
        return "seen " + seen() + ", dropped " + dropped() + ", dropped in " + bursts() + " bursts " + droppedInBursts()
                + ", duplicated " + duplicated() + ", reordered " + reordered() + ", delayed " + delayed();
    }
}

package io.cohort.broadcast.pcode;

import io.cohort.DomainCounters;
import io.cohort.DomainCounters.Counter;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What a domain did and dropped, counted as it happens: written under the domain's lock, read by
 * anyone. One {@link AtomicLongArray}, so a reader sees each counter whole; the program reads a
 * {@link #snapshot} ({@link io.cohort.BroadcastDomain#counters()}).
 */
public final class PcodeCounters {
    private static final Counter[] ALL = Counter.values();
    private final AtomicLongArray values = new AtomicLongArray(ALL.length);
    /** Where drops are also counted (the job's totals over all its domains), or null. */
    private volatile PcodeCounters dropsAlsoTo;

    /** Counts this domain's drops in {@code totals} as well, from now on; set before the domain runs. */
    void countDropsAlsoIn(PcodeCounters totals) {
        dropsAlsoTo = totals;
    }

    void increment(Counter c) {
        add(c, 1);
    }

    void add(Counter c, long n) {
        values.addAndGet(c.ordinal(), n);
        if (c.ordinal() >= Counter.DROPPED_FOREIGN.ordinal()) { // the drops are last in the enum
            PcodeCounters totals = dropsAlsoTo;
            if (totals != null) {
                totals.add(c, n);
            }
        }
    }

    public long get(Counter c) {
        return values.get(c.ordinal());
    }

    /** Every counter as it is now, each read whole (several are not read at one instant). */
    public DomainCounters snapshot() {
        long[] v = new long[ALL.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = values.get(i);
        }
        return DomainCounters.of(v);
    }

    @Override
    public String toString() {
        return snapshot().toString();
    }
}

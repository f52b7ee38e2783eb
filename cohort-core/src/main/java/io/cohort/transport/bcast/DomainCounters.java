package io.cohort.transport.bcast;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What a domain did and dropped, for tests, benchmarks and {@code --verbose}. Written under the
 * domain's lock, read by anyone: one {@link AtomicLongArray}, so a reader sees each counter whole
 * (a snapshot of several is not atomic).
 */
public final class DomainCounters {
    public enum Counter {
        DATA_SENT, DATA_RECEIVED, DATA_ACCEPTED, DUPLICATES, EARLY_KEPT, EARLY_IGNORED, RETRANSMISSIONS, RESENDS_HELD,
        REQUEST_NACKS_SENT, PERSONAL_NACKS_SENT, GLOBAL_NACKS_SENT, NACKS_RECEIVED,
        STATUS_SENT, STATUS_RECEIVED, PROGRESS_REQUESTS_SENT, FLOW_STALLS, BUFFER_STALLS, MESSAGES_DELIVERED,
        OWN_ECHOES, DROPPED_FOREIGN, DROPPED_OTHER_JOB, DROPPED_VERSION, DROPPED_TRUNCATED, DROPPED_MALFORMED
    }

    private static final Counter[] ALL = Counter.values();
    private final AtomicLongArray values = new AtomicLongArray(ALL.length);
    /** Where drops are also counted (the job's totals over all its domains), or null. */
    private volatile DomainCounters dropsAlsoTo;

    /** Counts this domain's drops in {@code totals} as well, from now on; set before the domain runs. */
    void countDropsAlsoIn(DomainCounters totals) {
        dropsAlsoTo = totals;
    }

    void increment(Counter c) {
        add(c, 1);
    }

    void add(Counter c, long n) {
        values.addAndGet(c.ordinal(), n);
        if (c.ordinal() >= Counter.DROPPED_FOREIGN.ordinal()) { // the drops are last in the enum
            DomainCounters totals = dropsAlsoTo;
            if (totals != null) {
                totals.add(c, n);
            }
        }
    }

    public long get(Counter c) {
        return values.get(c.ordinal());
    }

    /** All datagrams dropped as foreign, stale, truncated or malformed. */
    public long dropped() {
        return get(Counter.DROPPED_FOREIGN) + get(Counter.DROPPED_OTHER_JOB) + get(Counter.DROPPED_VERSION)
                + get(Counter.DROPPED_TRUNCATED) + get(Counter.DROPPED_MALFORMED);
    }

    public long nacksSent() {
        return get(Counter.REQUEST_NACKS_SENT) + get(Counter.PERSONAL_NACKS_SENT) + get(Counter.GLOBAL_NACKS_SENT);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Counter c : ALL) {
            long v = get(c);
            if (v != 0) {
                b.append(b.length() == 0 ? "" : " ").append(c.name().toLowerCase(java.util.Locale.ROOT)).append('=').append(v);
            }
        }
        return b.toString();
    }
}

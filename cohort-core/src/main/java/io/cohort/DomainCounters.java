package io.cohort;

import java.util.Arrays;
import java.util.Locale;

/**
 * What a {@link BroadcastDomain} did and dropped, as {@link BroadcastDomain#counters()} read it:
 * for tests, benchmarks and {@code --verbose}. A snapshot: each counter was read whole, but not
 * all at one instant, and it does not change afterwards.
 *
 * <p>Threads: immutable; any thread.
 */
public final class DomainCounters {
    /** The counters, in the order {@link #of} takes their values. */
    public enum Counter {
        DATA_SENT, DATA_RECEIVED, DATA_ACCEPTED, DUPLICATES, EARLY_KEPT, EARLY_IGNORED, RETRANSMISSIONS, RESENDS_HELD,
        REQUEST_NACKS_SENT, PERSONAL_NACKS_SENT, GLOBAL_NACKS_SENT, NACKS_RECEIVED,
        STATUS_SENT, STATUS_RECEIVED, PROGRESS_REQUESTS_SENT, FLOW_STALLS, BUFFER_STALLS, MESSAGES_DELIVERED,
        OWN_ECHOES, DROPPED_FOREIGN, DROPPED_OTHER_JOB, DROPPED_VERSION, DROPPED_TRUNCATED, DROPPED_MALFORMED,
        /** Well-formed on the outside, with this domain's job tag, but a tag that does not verify: forged or corrupted. */
        DROPPED_FORGED
    }

    private static final Counter[] ALL = Counter.values();
    private final long[] values;

    private DomainCounters(long[] values) {
        this.values = values;
    }

    /**
     * Counters of these values, one per {@link Counter} in its declaration order (copied).
     *
     * @throws IllegalArgumentException if there is not one value per counter
     */
    public static DomainCounters of(long[] values) {
        if (values.length != ALL.length) {
            throw new IllegalArgumentException("a broadcast domain has " + ALL.length + " counters, not " + values.length);
        }
        return new DomainCounters(values.clone());
    }

    public long get(Counter c) {
        return values[c.ordinal()];
    }

    /** All datagrams dropped as foreign, stale, truncated, malformed or forged. */
    public long dropped() {
        return get(Counter.DROPPED_FOREIGN) + get(Counter.DROPPED_OTHER_JOB) + get(Counter.DROPPED_VERSION)
                + get(Counter.DROPPED_TRUNCATED) + get(Counter.DROPPED_MALFORMED) + get(Counter.DROPPED_FORGED);
    }

    public long nacksSent() {
        return get(Counter.REQUEST_NACKS_SENT) + get(Counter.PERSONAL_NACKS_SENT) + get(Counter.GLOBAL_NACKS_SENT);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DomainCounters d && Arrays.equals(values, d.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    /** The counters above 0, as {@code name=value} pairs separated by spaces (names in lower case). */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Counter c : ALL) {
            long v = get(c);
            if (v != 0) {
                b.append(b.length() == 0 ? "" : " ").append(c.name().toLowerCase(Locale.ROOT)).append('=').append(v);
            }
        }
        return b.toString();
    }
}

package io.cohort.broadcast.eqa;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What an EQA peer did and dropped, for tests, benchmarks and {@code --verbose}. Written by the
 * peer's owner thread, read by anyone: one {@link AtomicLongArray}, so each counter reads whole (a
 * snapshot of several is not atomic).
 */
public final class EqaCounters {
    /** The counters. */
    public enum Counter {
        PACKETS_BROADCAST, PACKETS_RESENT, SENDS_REFUSED, WINDOW_STALLS, PULL_WAITS, PULL_NUDGES,
        TIMEOUT_RESENDS, GAP_RESENDS,
        PACKETS_RECEIVED, PACKETS_ACCEPTED, DUPLICATES, OUT_OF_ORDER, ACKS_SENT, GAP_ACKS_SENT, PULLS_SENT,
        ACKS_RECEIVED, PULLS_RECEIVED, MESSAGES_SENT, MESSAGES_DELIVERED,
        OWN_ECHOES, DROPPED_FOREIGN, DROPPED_OTHER_GROUP, DROPPED_VERSION, DROPPED_TRUNCATED, DROPPED_MALFORMED,
        /** EQA's magic, but a tag that does not verify under the job secret: forged, corrupted, or another job's. */
        DROPPED_FORGED,
        /** A signed ACK or PULL that names another sender's stream: replayed to us, or misrouted. */
        DROPPED_NOT_FOR_US
    }

    private static final Counter[] ALL = Counter.values();
    private final AtomicLongArray values = new AtomicLongArray(ALL.length);

    void increment(Counter c) {
        values.incrementAndGet(c.ordinal());
    }

    public long get(Counter c) {
        return values.get(c.ordinal());
    }

    /** All datagrams dropped as foreign, forged, of another group, of another version, truncated, malformed or not for us. */
    public long dropped() {
        return get(Counter.DROPPED_FOREIGN) + get(Counter.DROPPED_OTHER_GROUP) + get(Counter.DROPPED_VERSION)
                + get(Counter.DROPPED_TRUNCATED) + get(Counter.DROPPED_MALFORMED) + get(Counter.DROPPED_FORGED)
                + get(Counter.DROPPED_NOT_FOR_US);
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

package io.cohort.daemon;

import java.net.SocketAddress;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts refused frames by {@link Refusal} and logs each in one line ({@code refused a message from
 * ADDRESS: REASON (DETAIL)}), at most {@value #LINES_PER_SECOND} lines a second: a flood is counted in
 * full, and the next line says how many were not logged. Thread-safe.
 */
public final class RefusalLog {
    static final int LINES_PER_SECOND = 20;

    private final DaemonLog log;
    private final AtomicLongArray counts = new AtomicLongArray(Refusal.values().length);
    private long windowStart;
    private int linesInWindow;
    private long suppressed;

    public RefusalLog(DaemonLog log) {
        this.log = log;
    }

    public void refuse(Refusal reason, SocketAddress from, String detail) {
        counts.incrementAndGet(reason.ordinal());
        String line;
        synchronized (this) {
            long now = System.nanoTime();
            if (now - windowStart > 1_000_000_000L) {
                windowStart = now;
                linesInWindow = 0;
            }
            if (++linesInWindow > LINES_PER_SECOND) {
                suppressed++;
                return;
            }
            line = "refused a message from " + from + ": " + reason.description()
                    + (detail == null ? "" : " (" + detail + ")")
                    + (suppressed > 0 ? "; " + suppressed + " more refusals were not logged" : "");
            suppressed = 0;
        }
        log.info(line);
    }

    public long count(Refusal reason) {
        return counts.get(reason.ordinal());
    }

    public Map<Refusal, Long> counts() {
        Map<Refusal, Long> m = new EnumMap<>(Refusal.class);
        for (Refusal r : Refusal.values()) {
            m.put(r, counts.get(r.ordinal()));
        }
        return m;
    }
}

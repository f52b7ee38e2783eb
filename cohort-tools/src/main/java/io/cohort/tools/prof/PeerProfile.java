package io.cohort.tools.prof;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything one peer's recording says, read by {@link PeerProfileReader}. Times are nanoseconds since
 * the epoch by that peer's clock (peers on different hosts disagree by their clocks' skew).
 *
 * @param size        the job's number of peers as the peer knew it, 0 if unknown
 * @param appNanos    the peer's application time: its {@code io.cohort.Job} event, or the recording's span if the
 *                    peer never closed (crashed)
 * @param jobClosed   whether the {@code io.cohort.Job} event was recorded
 * @param samples     {@code jdk.ExecutionSample} counts per top frame ({@code pkg.Class.method})
 * @param protocol    protocol counters per transport name
 * @param threads     Java thread id to name, for the threads that recorded something
 * @param totals      a summary profile's totals ({@link Totals#NONE} for a recording of events, whose
 *                    {@code comms} and {@code regions} hold every call instead)
 * @param dropped     what the peer's transports dropped over the job, one entry per transport, reason and unit
 *                    (empty when nothing was, or the peer never closed its world)
 */
public record PeerProfile(Path file, int rank, int size, String jobId, String host, String application, long pid,
                          long firstNanos, long lastNanos, long appNanos, boolean jobClosed,
                          List<CommEvent> comms, List<RegionEvent> regions, Map<String, Long> samples,
                          Map<String, ProtocolStats> protocol, Map<Long, String> threads, Totals totals,
                          List<DroppedTraffic> dropped) {

    /** A profile in which nothing was dropped. */
    public PeerProfile(Path file, int rank, int size, String jobId, String host, String application, long pid,
                       long firstNanos, long lastNanos, long appNanos, boolean jobClosed,
                       List<CommEvent> comms, List<RegionEvent> regions, Map<String, Long> samples,
                       Map<String, ProtocolStats> protocol, Map<Long, String> threads, Totals totals) {
        this(file, rank, size, jobId, host, application, pid, firstNanos, lastNanos, appNanos, jobClosed, comms, regions,
                samples, protocol, threads, totals, List.of());
    }

    /** Sum of the communication events' durations (they do not nest), or of a summary's times. */
    public long commNanos() {
        long sum = totals.commNanos();
        for (CommEvent e : comms) {
            sum += e.durationNanos();
        }
        return sum;
    }

    /** Whether this is a summary profile, without events (no timeline, no trace). */
    public boolean isSummary() {
        return totals.isSummary();
    }

    public long sampleCount() {
        long n = 0;
        for (long c : samples.values()) {
            n += c;
        }
        return n;
    }
}

package io.cohort.tools.prof;

import java.util.List;

/**
 * What a summary profile ({@code <App>.prof.<rank>.tsv}) holds instead of events: totals per
 * operation, peer and size class, call sites estimated from sampled calls, and region totals. A
 * recording of events has {@link #NONE}; its reports sum the events themselves.
 *
 * @param siteIntervalNanos a thread took the call site of at most one call per operation in this time (see io.cohort.profile.Summary)
 * @param samplerTicks      how many times the method sampler looked at the threads
 * @param samplerPauseNanos the time those looks stopped the peer's JVM for
 */
public record Totals(List<CommTotal> comms, List<SiteTotal> sites, List<RegionTotal> regions, long siteIntervalNanos,
                     long samplerTicks, long samplerPauseNanos) {
    public static final Totals NONE = new Totals(List.of(), List.of(), List.of(), 0, 0, 0);

    /**
     * Calls of one kind and operation with one peer and size class.
     *
     * @param peer      world rank of the other side, -1 for any or none (a collective's: its root in the communicator)
     * @param sizeClass as {@link SizeHistogram#classOf}, -1 for calls without a size
     */
    public record CommTotal(CommKind kind, String operation, String algorithm, int communicator, int peer, int sizeClass,
                            long count, long bytes, long nanos, long minBytes, long maxBytes) {
    }

    /** An operation's calls from one place in the program, estimated from the sampled calls. */
    public record SiteTotal(String operation, CallSite site, long calls, long nanos, long walks) {
    }

    public record RegionTotal(String name, long count, long nanos) {
    }

    public boolean isSummary() {
        return this != NONE;
    }

    long commNanos() {
        long sum = 0;
        for (CommTotal t : comms) {
            sum += t.nanos();
        }
        return sum;
    }
}

package io.cohort.wireup;

import io.cohort.profile.Profiling;
import io.cohort.DomainCounters;
import io.cohort.DomainCounters.Counter;
import io.cohort.transport.udp.UdpCounters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a peer's transports dropped as not this job's or malformed, at the end of a job: first
 * gathered as {@link Entry entries} (transport, reason, unit, count) by {@link #entries}, then
 * printed as one line under {@code --verbose} ({@link #line(int, List)}) and handed to the profiler
 * ({@link #profile}), so that {@code cohort prof} and the line say the same. Retransmitted copies
 * and late duplicates, which the protocols expect, are not in it. Stateless; any thread.
 */
public final class DropReport {
    public static final String UDP = "udp";
    public static final String TCP = "tcp";
    public static final String BROADCAST_DOMAIN = "broadcast domain";

    /** A unit counted in a datagram protocol's drops; the line sums a transport's datagrams and lists their reasons. */
    public static final String DATAGRAM = "datagram";
    public static final String CONNECTION = "connection";
    public static final String FRAME = "frame";

    /** The reason of a connection (or datagram) that belongs to another job. */
    public static final String OTHER_JOB = "other job";
    public static final String MALFORMED = "malformed";
    public static final String FAILED_AUTHENTICATION = "failed authentication";

    private DropReport() {
    }

    /**
     * {@code count} {@code unit}s (singular: {@code datagram}, {@code connection}, {@code frame})
     * that {@code transport} dropped for {@code reason}; {@code count} is above 0.
     */
    public record Entry(String transport, String reason, String unit, long count) {
    }

    /**
     * The drops of a peer's transports, in the order the line names them: udp, tcp, broadcast
     * domain, each transport's reasons in a fixed order; only reasons with a count above 0.
     *
     * @param udp             the udp transport's counters, or null when the peer had none
     * @param tcpConnections  connections the tcp transport refused at start-up as not this job's
     * @param tcpUnproven     connections of this job's tag that could not prove they hold the job's secret
     * @param tcpFrames       frames it dropped as malformed
     * @param domains         the drops of every broadcast domain the peer opened, or null
     */
    public static List<Entry> entries(UdpCounters udp, long tcpConnections, long tcpUnproven, long tcpFrames,
                                      DomainCounters domains) {
        List<Entry> out = new ArrayList<>();
        if (udp != null) {
            add(out, UDP, DATAGRAM, "not cohort", udp.notCohort());
            add(out, UDP, DATAGRAM, OTHER_JOB, udp.wrongJob());
            add(out, UDP, DATAGRAM, "other version", udp.wrongVersion());
            add(out, UDP, DATAGRAM, FAILED_AUTHENTICATION, udp.forged());
            add(out, UDP, DATAGRAM, "unknown sender", udp.unknownSender());
            add(out, UDP, DATAGRAM, "truncated", udp.truncated());
            add(out, UDP, DATAGRAM, MALFORMED, udp.malformed() + udp.badAck());
        }
        add(out, TCP, CONNECTION, OTHER_JOB, tcpConnections);
        add(out, TCP, CONNECTION, FAILED_AUTHENTICATION, tcpUnproven);
        add(out, TCP, FRAME, MALFORMED, tcpFrames);
        if (domains != null) {
            add(out, BROADCAST_DOMAIN, DATAGRAM, "not cohort", domains.get(Counter.DROPPED_FOREIGN));
            add(out, BROADCAST_DOMAIN, DATAGRAM, "other job or communicator", domains.get(Counter.DROPPED_OTHER_JOB));
            add(out, BROADCAST_DOMAIN, DATAGRAM, "other version", domains.get(Counter.DROPPED_VERSION));
            add(out, BROADCAST_DOMAIN, DATAGRAM, "truncated", domains.get(Counter.DROPPED_TRUNCATED));
            add(out, BROADCAST_DOMAIN, DATAGRAM, MALFORMED, domains.get(Counter.DROPPED_MALFORMED));
            add(out, BROADCAST_DOMAIN, DATAGRAM, FAILED_AUTHENTICATION, domains.get(Counter.DROPPED_FORGED));
        }
        return out;
    }

    private static void add(List<Entry> out, String transport, String unit, String reason, long count) {
        if (count > 0) {
            out.add(new Entry(transport, reason, unit, count));
        }
    }

    /** The line of {@link #entries}. */
    public static String line(int rank, UdpCounters udp, long tcpConnections, long tcpUnproven, long tcpFrames,
                              DomainCounters domains) {
        return line(rank, entries(udp, tcpConnections, tcpUnproven, tcpFrames, domains));
    }

    /**
     * The {@code --verbose} line of {@code entries}, or null when there are none. Per transport, in
     * the entries' order: its datagrams summed with their reasons listed ({@code udp 5 datagrams
     * (not cohort 3, other job 2)}), and each entry of another unit on its own ({@code 1 connection
     * not of this job}, {@code 2 malformed frames}, {@code 1 connection failed authentication}).
     */
    public static String line(int rank, List<Entry> entries) {
        Map<String, List<Entry>> byTransport = new LinkedHashMap<>();
        for (Entry e : entries) {
            if (e.count() > 0) {
                byTransport.computeIfAbsent(e.transport(), k -> new ArrayList<>()).add(e);
            }
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, List<Entry>> t : byTransport.entrySet()) {
            long datagrams = 0;
            List<String> reasons = new ArrayList<>();
            List<String> others = new ArrayList<>();
            for (Entry e : t.getValue()) {
                if (DATAGRAM.equals(e.unit())) {
                    datagrams += e.count();
                    reasons.add(e.reason() + " " + e.count());
                } else {
                    others.add(phrase(e));
                }
            }
            List<String> what = new ArrayList<>();
            if (datagrams > 0) {
                what.add(count(datagrams, DATAGRAM) + " (" + String.join(", ", reasons) + ")");
            }
            what.addAll(others);
            parts.add(t.getKey() + " " + String.join(", ", what));
        }
        return parts.isEmpty() ? null
                : "cohort: rank " + rank + " dropped traffic that was not this job's or was malformed: " + String.join("; ", parts);
    }

    /** One entry counted in connections or frames: "1 connection not of this job", "2 malformed frames". */
    private static String phrase(Entry e) {
        return switch (e.reason()) {
            case OTHER_JOB -> count(e.count(), e.unit()) + " not of this job";
            case MALFORMED -> e.count() + " " + MALFORMED + " " + e.unit() + (e.count() == 1 ? "" : "s");
            case FAILED_AUTHENTICATION -> count(e.count(), e.unit()) + " that failed authentication";
            default -> count(e.count(), e.unit()) + " " + e.reason();
        };
    }

    /** Hands each entry to the profiler ({@link Profiling#dropped}); does nothing when no profile records. */
    public static void profile(List<Entry> entries) {
        for (Entry e : entries) {
            Profiling.dropped(e.transport(), e.reason(), e.unit(), e.count());
        }
    }

    private static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}

package io.cohort.wireup;

import io.cohort.transport.bcast.DomainCounters;
import io.cohort.transport.bcast.DomainCounters.Counter;
import io.cohort.transport.udp.UdpCounters;

import java.util.ArrayList;
import java.util.List;

/**
 * The line a peer prints at the end of a job under {@code --verbose} when its transports dropped
 * traffic that was not this job's or was malformed: which transport, how much, and why. Retransmitted
 * copies and late duplicates, which the protocols expect, are not in it. Stateless; any thread.
 */
public final class DropReport {
    private DropReport() {
    }

    /**
     * @param udp             the udp transport's counters, or null when the peer had none
     * @param tcpConnections  connections the tcp transport refused at start-up as not this job's
     * @param tcpFrames       frames it dropped as malformed
     * @param domains         the drops of every broadcast domain the peer opened
     * @return the line, or null when nothing was dropped
     */
    public static String line(int rank, UdpCounters udp, long tcpConnections, long tcpFrames, DomainCounters domains) {
        List<String> parts = new ArrayList<>();
        if (udp != null) {
            String why = reasons("not cohort", udp.notCohort(), "other job", udp.wrongJob(), "other version",
                    udp.wrongVersion(), "unknown sender", udp.unknownSender(), "truncated", udp.truncated(),
                    "malformed", udp.malformed() + udp.badAck());
            if (why != null) {
                long n = udp.notCohort() + udp.wrongJob() + udp.wrongVersion() + udp.unknownSender() + udp.truncated()
                        + udp.malformed() + udp.badAck();
                parts.add("udp " + count(n, "datagram") + " (" + why + ")");
            }
        }
        if (tcpConnections + tcpFrames > 0) {
            List<String> tcp = new ArrayList<>();
            if (tcpConnections > 0) {
                tcp.add(count(tcpConnections, "connection") + " not of this job");
            }
            if (tcpFrames > 0) {
                tcp.add(count(tcpFrames, "malformed frame"));
            }
            parts.add("tcp " + String.join(", ", tcp));
        }
        long foreign = domains == null ? 0 : domains.get(Counter.DROPPED_FOREIGN);
        long otherJob = domains == null ? 0 : domains.get(Counter.DROPPED_OTHER_JOB);
        long version = domains == null ? 0 : domains.get(Counter.DROPPED_VERSION);
        long truncated = domains == null ? 0 : domains.get(Counter.DROPPED_TRUNCATED);
        long malformed = domains == null ? 0 : domains.get(Counter.DROPPED_MALFORMED);
        String why = reasons("not cohort", foreign, "other job or communicator", otherJob, "other version", version,
                "truncated", truncated, "malformed", malformed);
        if (why != null) {
            parts.add("broadcast domain " + count(foreign + otherJob + version + truncated + malformed, "datagram")
                    + " (" + why + ")");
        }
        return parts.isEmpty() ? null
                : "cohort: rank " + rank + " dropped traffic that was not this job's or was malformed: " + String.join("; ", parts);
    }

    /** "not cohort 3, other job 2" for the non-zero ones of (label, count) pairs, or null if all are zero. */
    private static String reasons(Object... pairs) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            long n = (Long) pairs[i + 1];
            if (n > 0) {
                out.add(pairs[i] + " " + n);
            }
        }
        return out.isEmpty() ? null : String.join(", ", out);
    }

    private static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}

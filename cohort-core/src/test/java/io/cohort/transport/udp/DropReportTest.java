package io.cohort.transport.udp;

import io.cohort.wireup.DropReport;
import io.cohort.wireup.DropReport.Entry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The end-of-job line of dropped traffic (here, beside the udp counters it reads). */
@Timeout(10)
class DropReportTest {
    @Test
    void nothingDroppedIsNoLineAndExpectedDuplicatesAreNotDrops() {
        UdpCounters udp = new UdpCounters();
        udp.outOfWindow.addAndGet(40); // retransmitted copies: the protocol expects them
        udp.afterEnd.addAndGet(3);
        assertNull(DropReport.line(0, udp, 0, 0, 0, null));
        assertNull(DropReport.line(0, null, 0, 0, 0, null));
    }

    @Test
    void eachTransportWithItsReasons() {
        UdpCounters udp = new UdpCounters();
        udp.notCohort.addAndGet(3);
        udp.wrongJob.addAndGet(1);
        udp.forged.addAndGet(2);
        udp.badAck.addAndGet(1);
        assertEquals("cohort: rank 4 dropped traffic that was not this job's or was malformed: udp 7 datagrams"
                + " (not cohort 3, other job 1, failed authentication 2, malformed 1); tcp 1 connection not of this job, 2 malformed frames",
                DropReport.line(4, udp, 1, 0, 2, null));
        assertEquals("cohort: rank 0 dropped traffic that was not this job's or was malformed: tcp 1 malformed frame",
                DropReport.line(0, null, 0, 0, 1, null));
    }

    /** The entries the line is made of (and the profiler is given): non-zero counts only, in the line's order. */
    @Test
    void entriesAreTheNonZeroCountsInTheLinesOrder() {
        UdpCounters udp = new UdpCounters();
        udp.wrongJob.addAndGet(2);
        udp.malformed.addAndGet(1);
        udp.badAck.addAndGet(1);
        udp.forged.addAndGet(4);
        udp.outOfWindow.addAndGet(9); // expected by the protocol: not a drop to report
        List<Entry> entries = DropReport.entries(udp, 1, 2, 3, null);
        assertEquals(List.of(new Entry("udp", "other job", "datagram", 2), new Entry("udp", "failed authentication", "datagram", 4),
                new Entry("udp", "malformed", "datagram", 2), new Entry("tcp", "other job", "connection", 1),
                new Entry("tcp", "failed authentication", "connection", 2), new Entry("tcp", "malformed", "frame", 3)), entries);
        assertEquals("cohort: rank 2 dropped traffic that was not this job's or was malformed: udp 8 datagrams"
                + " (other job 2, failed authentication 4, malformed 2); tcp 1 connection not of this job,"
                + " 2 connections that failed authentication, 3 malformed frames", DropReport.line(2, entries));
        assertEquals(DropReport.line(2, entries), DropReport.line(2, udp, 1, 2, 3, null));
        assertEquals(List.of(), DropReport.entries(new UdpCounters(), 0, 0, 0, null));
        assertNull(DropReport.line(0, List.of()));
    }
}

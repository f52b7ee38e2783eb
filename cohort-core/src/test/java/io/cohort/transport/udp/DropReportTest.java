package io.cohort.transport.udp;

import io.cohort.wireup.DropReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
        assertNull(DropReport.line(0, udp, 0, 0, null));
        assertNull(DropReport.line(0, null, 0, 0, null));
    }

    @Test
    void eachTransportWithItsReasons() {
        UdpCounters udp = new UdpCounters();
        udp.notCohort.addAndGet(3);
        udp.wrongJob.addAndGet(1);
        udp.badAck.addAndGet(1);
        assertEquals("cohort: rank 4 dropped traffic that was not this job's or was malformed: udp 5 datagrams"
                + " (not cohort 3, other job 1, malformed 1); tcp 1 connection not of this job, 2 malformed frames",
                DropReport.line(4, udp, 1, 2, null));
        assertEquals("cohort: rank 0 dropped traffic that was not this job's or was malformed: tcp 1 malformed frame",
                DropReport.line(0, null, 0, 1, null));
    }
}

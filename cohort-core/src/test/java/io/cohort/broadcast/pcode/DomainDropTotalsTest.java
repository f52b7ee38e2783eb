package io.cohort.broadcast.pcode;

import io.cohort.DomainCounters.Counter;
import io.cohort.wireup.DropReport;
import io.cohort.wireup.DropReport.Entry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The job's drop totals over all its domains, open or closed, as the end-of-job line shows them. */
@Timeout(10)
class DomainDropTotalsTest {
    @Test
    void dropsOfEveryDomainAddUpAndNothingElseDoes() {
        PcodeCounters totals = new PcodeCounters();
        PcodeCounters world = new PcodeCounters();
        PcodeCounters sub = new PcodeCounters();
        world.countDropsAlsoIn(totals);
        sub.countDropsAlsoIn(totals);
        world.add(Counter.DROPPED_OTHER_JOB, 40);
        sub.increment(Counter.DROPPED_FOREIGN);
        sub.increment(Counter.DROPPED_MALFORMED);
        world.add(Counter.DATA_SENT, 1000);
        sub.increment(Counter.DUPLICATES);
        assertEquals(42, totals.snapshot().dropped());
        assertEquals(0, totals.get(Counter.DATA_SENT));
        assertEquals(0, totals.get(Counter.DUPLICATES));
        assertEquals(40, world.get(Counter.DROPPED_OTHER_JOB), "each domain keeps its own counts too");
        assertEquals("cohort: rank 1 dropped traffic that was not this job's or was malformed: broadcast domain 42 datagrams"
                + " (not cohort 1, other job or communicator 40, malformed 1)", DropReport.line(1, null, 0, 0, 0, totals.snapshot()));
    }

    /** A domain's drops as the entries the line and the profiler share, failed authentication among them. */
    @Test
    void forgedFramesAreAnEntryOfTheirOwn() {
        PcodeCounters domains = new PcodeCounters();
        domains.add(Counter.DROPPED_FORGED, 7);
        domains.add(Counter.DROPPED_OTHER_JOB, 3);
        domains.add(Counter.DUPLICATES, 5);
        List<Entry> entries = DropReport.entries(null, 0, 0, 0, domains.snapshot());
        assertEquals(List.of(new Entry("broadcast domain", "other job or communicator", "datagram", 3),
                new Entry("broadcast domain", "failed authentication", "datagram", 7)), entries);
        assertEquals("cohort: rank 1 dropped traffic that was not this job's or was malformed: broadcast domain 10 datagrams"
                + " (other job or communicator 3, failed authentication 7)", DropReport.line(1, entries));
        assertEquals(List.of(), DropReport.entries(null, 0, 0, 0, new PcodeCounters().snapshot()));
    }
}

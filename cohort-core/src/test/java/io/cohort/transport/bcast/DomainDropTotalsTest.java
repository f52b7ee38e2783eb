package io.cohort.transport.bcast;

import io.cohort.transport.bcast.DomainCounters.Counter;
import io.cohort.wireup.DropReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The job's drop totals over all its domains, open or closed, as the end-of-job line shows them. */
@Timeout(10)
class DomainDropTotalsTest {
    @Test
    void dropsOfEveryDomainAddUpAndNothingElseDoes() {
        DomainCounters totals = new DomainCounters();
        DomainCounters world = new DomainCounters();
        DomainCounters sub = new DomainCounters();
        world.countDropsAlsoIn(totals);
        sub.countDropsAlsoIn(totals);
        world.add(Counter.DROPPED_OTHER_JOB, 40);
        sub.increment(Counter.DROPPED_FOREIGN);
        sub.increment(Counter.DROPPED_MALFORMED);
        world.add(Counter.DATA_SENT, 1000);
        sub.increment(Counter.DUPLICATES);
        assertEquals(42, totals.dropped());
        assertEquals(0, totals.get(Counter.DATA_SENT));
        assertEquals(0, totals.get(Counter.DUPLICATES));
        assertEquals(40, world.get(Counter.DROPPED_OTHER_JOB), "each domain keeps its own counts too");
        assertEquals("cohort: rank 1 dropped traffic that was not this job's or was malformed: broadcast domain 42 datagrams"
                + " (not cohort 1, other job or communicator 40, malformed 1)", DropReport.line(1, null, 0, 0, totals));
    }
}

package io.cohort.broadcast.eqa;

import io.cohort.profile.EventCapture;
import io.cohort.profile.NackEvent;
import io.cohort.profile.RetransmissionEvent;
import io.cohort.transport.fault.FaultPlan;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** EQA's gap acks and go-back-N resends, as the profiler records them. */
@Isolated // records JFR events, which are process-wide: another class's peers would add theirs
@Timeout(60)
class EqaProfileEventsTest {
    @Test
    void gapAcksAndResendsAreRecorded() throws Exception {
        List<RecordedEvent> events = EventCapture.record(() -> {
            try (LocalEqaGroup g = LocalEqaGroup.open(3, new EqaContext(), FaultPlan.parse("loss=0.1,seed=3"),
                    EqaBroadcastTest.KEYS.incrementAndGet())) {
                EqaBroadcastTest.allBroadcastAllLengths(g, BroadcastMode.SIMPLE, 30_000);
            }
        });
        List<RecordedEvent> nacks = EventCapture.named(events, NackEvent.NAME);
        List<RecordedEvent> resent = EventCapture.named(events, RetransmissionEvent.NAME);
        assertFalse(nacks.isEmpty(), "10% loss opened gaps");
        assertFalse(resent.isEmpty(), "10% loss was repaired by resends");
        for (RecordedEvent n : nacks) {
            assertTrue(n.getString("transport").equals("eqa") && n.getInt("count") > 0 && n.getInt("peer") >= 0, n.toString());
        }
        for (RecordedEvent r : resent) {
            assertTrue(r.getString("transport").equals("eqa") && r.getLong("bytes") > 0 && r.getInt("peer") >= 0, r.toString());
        }
    }
}

package io.cohort.transport.udp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When an explicit ACK is owed. */
@Timeout(10)
class AckTrackerTest {
    @Test
    void inOrderArrivalsWaitForTheDelayOrForDataToRideOn() {
        AckTracker a = new AckTracker(200_000, 4);
        assertFalse(a.due(0));
        assertEquals(AckTracker.NONE, a.dueAt(0));
        a.arrived(1000, false);
        assertFalse(a.due(1000));
        assertEquals(201_000, a.dueAt(1000));
        a.arrived(50_000, false);
        assertEquals(201_000, a.dueAt(50_000), "the delay runs from the first unacknowledged arrival");
        assertTrue(a.due(201_000));
        a.sent(); // a data frame carried the ack
        assertFalse(a.due(300_000));
        assertEquals(AckTracker.NONE, a.dueAt(300_000));
    }

    @Test
    void everyNthArrivalAndGapsAreUrgent() {
        AckTracker a = new AckTracker(200_000, 3);
        a.arrived(0, false);
        a.arrived(0, false);
        assertFalse(a.isUrgent());
        a.arrived(0, false);
        assertTrue(a.isUrgent(), "ackEvery arrivals without an ack");
        assertEquals(5, a.dueAt(5));
        a.sent();
        a.arrived(0, true);
        assertTrue(a.isUrgent(), "out of order: the sender should hear now");
        a.sent();
        a.urgent();
        assertTrue(a.due(0), "a duplicate: repeat the ack");
    }
}

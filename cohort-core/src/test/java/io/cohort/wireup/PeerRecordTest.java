package io.cohort.wireup;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class PeerRecordTest {
    static void assertSameRecord(PeerRecord expected, PeerRecord actual) {
        assertEquals(expected.rank(), actual.rank());
        assertEquals(expected.pid(), actual.pid());
        assertEquals(expected.host(), actual.host());
        assertEquals(expected.endpoints(), actual.endpoints());
        assertEquals(expected.machine(), actual.machine());
        assertEquals(expected.cores(), actual.cores());
        assertEquals(expected.cpus(), actual.cpus());
    }

    @Test
    void tableRoundTripThroughTheWire() throws IOException {
        PeerRecord[] records = {
            new PeerRecord(0, 4711, "node7", Map.of("tcp", "10.0.0.7:41233")),
            new PeerRecord(1, Long.MAX_VALUE, "nöde-8.example", Map.of()),
            new PeerRecord(2, 1, "h", Map.of("tcp", "[::1]:5", "shm", "/dev/shm/cohort-2")),
            new PeerRecord(3, 2, "ns4", Map.of(), "boot:6f1c", 2, "0-1"),
        };
        ControlFrame f = PeerRecord.table(records);
        assertEquals(ControlMessageType.PEER_TABLE, f.type());
        PeerRecord[] back = PeerRecord.parseTable(ControlFrame.parse(f.encode()));
        assertEquals(records.length, back.length);
        for (int i = 0; i < records.length; i++) {
            assertSameRecord(records[i], back[i]);
        }
    }

    @Test
    void helloRoundTrip() throws IOException {
        PeerRecord me = new PeerRecord(3, 999, "node3", Map.of("tcp", "127.0.0.1:1234"), "boot:ab", 1, "0-3,6");
        ControlFrame f = me.hello("job-42", "00ff");
        assertEquals(ControlMessageType.PEER_HELLO, f.type());
        PeerRecord.Hello h = PeerRecord.parseHello(ControlFrame.parse(f.encode()));
        assertEquals("job-42", h.jobId);
        assertEquals("00ff", h.nonce);
        assertSameRecord(me, h.record);
    }

    @Test
    void describeNamesRankPidAndHost() {
        assertEquals("rank 3 (pid 4711 on node7)", new PeerRecord(3, 4711, "node7", Map.of()).describe());
    }

    @Test
    void endpointsAreACopy() {
        java.util.HashMap<String, String> m = new java.util.HashMap<>(Map.of("tcp", "a:1"));
        PeerRecord r = new PeerRecord(0, 1, "h", m);
        m.put("shm", "x");
        assertEquals(Map.of("tcp", "a:1"), r.endpoints());
        assertThrows(UnsupportedOperationException.class, () -> r.endpoints().put("x", "y"));
    }

    @Test
    void malformedTablesAreRejected() {
        assertThrows(IOException.class, () -> PeerRecord.parseTable(ControlFrame.build(2).putInt(0).frame()), "size 0");
        assertThrows(IOException.class, () -> PeerRecord.parseTable(ControlFrame.build(2).putInt(-3).frame()));
        IOException e = assertThrows(IOException.class, () -> PeerRecord.parseTable(
                ControlFrame.build(2).putInt(1).putLong(1).putString("h").putInt(65).frame()));
        assertTrue(e.getMessage().contains("65"), e.getMessage());
        // A table that promises two records but carries one.
        ControlFrame.BodyWriter w = ControlFrame.build(2).putInt(2);
        new PeerRecord(0, 1, "h", Map.of()).writeTo(w);
        assertThrows(IOException.class, () -> PeerRecord.parseTable(w.frame()));
    }
}

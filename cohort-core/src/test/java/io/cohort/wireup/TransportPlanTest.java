package io.cohort.wireup;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which transport each pair uses, as every peer computes it from the same table. */
@Timeout(10)
class TransportPlanTest {
    private static PeerRecord peer(int rank, String host, Map<String, String> endpoints) {
        return new PeerRecord(rank, 100 + rank, host, endpoints);
    }

    @Test
    void udpCarriesEveryPairWhenAskedAndAutoNeverPicksIt() throws IOException {
        Map<String, String> udp = Map.of("udp", "127.0.0.1:4000/65536");
        PeerRecord[] table = {peer(0, "a", udp), peer(1, "a", udp), peer(2, "b", udp)};
        TransportPlan p = TransportPlan.of("udp", 0, table);
        assertArrayEquals(new int[] {1, 2}, p.peersOver("udp"));
        assertTrue(p.anyUdp());
        assertFalse(p.anyTcp());
        assertTrue(p.matrix(table).contains("     0       -   udp   udp   a"), p.matrix(table));
        Map<String, String> auto = Map.of("shm", "/dev/shm", "tcp", "127.0.0.1:5000");
        PeerRecord[] mixed = {peer(0, "a", auto), peer(1, "a", auto), peer(2, "b", auto)};
        TransportPlan a = TransportPlan.of("auto", 0, mixed);
        assertEquals("shm", a.transportTo(1));
        assertEquals("tcp", a.transportTo(2));
        assertFalse(a.anyUdp());
    }

    /** Peers of one host name under two io-managers have two shared-memory directories: their rings could never meet. */
    @Test
    void sharedMemoryOnlyBetweenPeersOfOneDirectory() {
        PeerRecord[] table = {peer(0, "a", Map.of("shm", "/dev/shm/cohort-1", "tcp", "127.0.0.1:5000")),
            peer(1, "a", Map.of("shm", "/dev/shm/cohort-1", "tcp", "127.0.0.1:5001")),
            peer(2, "a", Map.of("shm", "/dev/shm/cohort-2", "tcp", "127.0.0.1:5002")),
            peer(3, "a", Map.of("tcp", "127.0.0.1:5003"))};
        TransportPlan a = assertDoesNotThrow(() -> TransportPlan.of("auto", 0, table));
        assertEquals("shm", a.transportTo(1));
        assertEquals("tcp", a.transportTo(2));
        assertEquals("tcp", a.transportTo(3));
        IOException e = assertThrows(IOException.class, () -> TransportPlan.of("shm", 0, table));
        assertTrue(e.getMessage().contains("rank 2 (pid 102 on a) does not share this peer's shared-memory directory"),
                e.getMessage());
    }

    @Test
    void udpNeedsEveryPeersEndpoint() {
        PeerRecord[] table = {peer(0, "a", Map.of("udp", "127.0.0.1:4000/65536")), peer(1, "a", Map.of())};
        IOException e = assertThrows(IOException.class, () -> TransportPlan.of("udp", 0, table));
        assertTrue(e.getMessage().contains("rank 1 (pid 101 on a) published no udp endpoint"), e.getMessage());
    }
}

package io.cohort.profile;

import io.cohort.BroadcastDomain;
import io.cohort.LocalCohort;
import io.cohort.Request;
import io.cohort.transport.udp.UdpSettings;
import io.cohort.wireup.LocalJob;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.cohort.profile.EventCapture.named;
import static io.cohort.profile.EventCapture.record;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The datagram protocols' events under injected loss: what was asked for again, and what was sent again. */
@Isolated // records JFR events, which are process-wide: another class's peers would add theirs
@Timeout(60)
class ProtocolEventsTest {

    private static void assertProtocolEvents(List<RecordedEvent> events, String transport, Set<Integer> peers) {
        List<RecordedEvent> nacks = named(events, NackEvent.NAME).stream()
                .filter(e -> e.getString("transport").equals(transport)).toList();
        List<RecordedEvent> resent = named(events, RetransmissionEvent.NAME).stream()
                .filter(e -> e.getString("transport").equals(transport)).toList();
        assertFalse(nacks.isEmpty(), "loss made " + transport + " ask for frames again: " + events.size() + " events");
        assertFalse(resent.isEmpty(), "loss made " + transport + " send frames again");
        for (RecordedEvent n : nacks) {
            assertTrue(n.getInt("count") > 0, n.toString());
            assertTrue(n.getInt("peer") == -1 || peers.contains(n.getInt("peer")), n.toString());
        }
        for (RecordedEvent r : resent) {
            assertTrue(r.getLong("bytes") > 0, r.toString());
            assertTrue(r.getLong("sequence") >= 0, r.toString());
            assertTrue(peers.contains(r.getInt("peer")), r.toString());
        }
    }

    @Test
    void udpRecordsGapAcksRetransmissionsAndWindowStalls() throws Exception {
        // A 64 KiB window, so that each round's 100 KB burst waits for it.
        UdpSettings small = UdpSettings.from(Map.of(UdpSettings.WINDOW_BYTES_PROP_NAME, "65536")::get);
        List<RecordedEvent> events = record(() -> LocalJob.builder().size(2).transport("udp").udpSettings(small)
                .fault("loss=0.1,seed=11").timeout(Duration.ofSeconds(40)).run(world -> {
                    int other = 1 - world.rank();
                    for (int round = 0; round < 5; round++) {
                        List<Request> sends = new ArrayList<>();
                        for (int i = 0; i < 100; i++) {
                            sends.add(world.isend(other, i, new byte[1000]));
                        }
                        for (int i = 0; i < 100; i++) {
                            world.recv(other, i);
                        }
                        Request.awaitAll(sends);
                    }
                }));
        assertProtocolEvents(events, "udp", Set.of(0, 1));
        List<RecordedEvent> stalls = named(events, FlowControlStallEvent.NAME);
        assertFalse(stalls.isEmpty(), "bursts larger than the window stalled");
        for (RecordedEvent e : stalls) {
            assertTrue(e.getString("transport").equals("udp") && Set.of(0, 1).contains(e.getInt("peer")), e.toString());
        }
    }

    @Test
    void pcodeRecordsNacksRetransmissionsAndNoMessageEvents() throws Exception {
        List<RecordedEvent> events = record(() -> LocalCohort.builder().size(3).fault("loss=0.1,seed=5")
                .timeout(Duration.ofSeconds(40)).run(world -> {
                    BroadcastDomain d = world.broadcastDomain();
                    int me = world.rank();
                    int[] others = me == 0 ? new int[] {1, 2} : me == 1 ? new int[] {0, 2} : new int[] {0, 1};
                    for (int round = 0; round < 100; round++) {
                        byte[] m = new byte[2000];
                        m[0] = (byte) round;
                        d.multicast(m, others);
                        for (int s = 0; s < 3; s++) {
                            if (s != me) {
                                int[] targets = s == 0 ? new int[] {1, 2} : s == 1 ? new int[] {0, 2} : new int[] {0, 1};
                                byte[] got = d.request(s, targets);
                                assertArrayEquals(new byte[] {(byte) round}, new byte[] {got[0]});
                            }
                        }
                    }
                }));
        assertProtocolEvents(events, "pcode", Set.of(0, 1, 2));
    }

    /** The end of a job's drop report: one event per transport and reason, in the words of the --verbose line. */
    @Test
    void droppedTrafficIsOneEventPerTransportAndReason() throws Exception {
        List<RecordedEvent> events = record(() -> {
            assertTrue(Profiling.refresh(), "a recording runs");
            io.cohort.wireup.DropReport.profile(List.of(
                    new io.cohort.wireup.DropReport.Entry("broadcast domain", "failed authentication", "datagram", 12),
                    new io.cohort.wireup.DropReport.Entry("tcp", "other job", "connection", 1)));
        });
        List<RecordedEvent> dropped = named(events, DroppedTrafficEvent.NAME);
        assertTrue(dropped.size() == 2, dropped.toString());
        RecordedEvent forged = dropped.stream().filter(e -> e.getString("transport").equals("broadcast domain")).findFirst()
                .orElseThrow();
        assertTrue(forged.getString("reason").equals("failed authentication") && forged.getString("unit").equals("datagram")
                && forged.getLong("count") == 12, forged.toString());
        RecordedEvent tcp = dropped.stream().filter(e -> e.getString("transport").equals("tcp")).findFirst().orElseThrow();
        assertTrue(tcp.getString("reason").equals("other job") && tcp.getLong("count") == 1, tcp.toString());
    }
}

package io.cohort.broadcast.eqa;

import io.cohort.transport.fault.FaultPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static io.cohort.broadcast.eqa.EqaCounters.Counter.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Simple and Push-Pull Broadcast to N receivers over real loopback UDP sockets, every delivered
 * byte checked, with and without injected loss, duplication and reordering, over both buffer designs.
 */
@Timeout(60)
class EqaBroadcastTest {
    /** Lengths around every boundary: empty, one byte, BTP1, BTP, BTP + 1, several packets, many windows. */
    static final int[] LENGTHS = {0, 1, 80, 81, 860, 861, 1400, 1401, 5000, 40_000};
    static final AtomicLong KEYS = new AtomicLong(0x5EED_0000L);

    static byte[] content(int source, int index, int length) {
        byte[] b = new byte[length];
        int x = source * 7919 + index * 104_729 + length;
        for (int i = 0; i < length; i++) {
            x = x * 1_103_515_245 + 12_345;
            b[i] = (byte) (x >>> 16);
        }
        return b;
    }

    /** Every root broadcasts every length once; every other peer must receive all of them, in order, intact. */
    static void allBroadcastAllLengths(LocalEqaGroup g, BroadcastMode mode, long timeoutMillis) {
        int n = g.size();
        for (int root = 0; root < n; root++) {
            for (int i = 0; i < LENGTHS.length; i++) {
                g.peer(root).broadcast(content(root, i, LENGTHS[i]), mode);
            }
        }
        int[][] next = new int[n][n];
        List<String> errors = new ArrayList<>();
        g.pumpUntil(() -> {
            boolean done = true;
            for (int r = 0; r < n; r++) {
                EqaPeer.Delivery d;
                while ((d = g.peer(r).poll()) != null) {
                    int i = next[r][d.source()]++;
                    if (i >= LENGTHS.length || d.message() != i
                            || !java.util.Arrays.equals(content(d.source(), i, LENGTHS[i]), d.data())) {
                        errors.add("rank " + r + " got a wrong message " + d.message() + " from " + d.source());
                    }
                }
                for (int s = 0; s < n; s++) {
                    done &= s == r || next[r][s] >= LENGTHS.length;
                }
            }
            return done || !errors.isEmpty();
        }, timeoutMillis);
        assertEquals(List.of(), errors);
        g.pumpUntilQuiet(timeoutMillis);
        for (EqaPeer p : g.peers()) {
            assertEquals(p.retransmissionBuffer().lowestCursor(), p.retransmissionBuffer().nextSequence());
            assertEquals(0, p.counters().dropped(), "nothing foreign was sent: " + p.counters());
        }
    }

    static Stream<Arguments> lossless() {
        List<Arguments> a = new ArrayList<>();
        for (int n : new int[] {2, 3, 8}) {
            for (BroadcastMode m : new BroadcastMode[] {BroadcastMode.SIMPLE, BroadcastMode.PUSH_PULL}) {
                a.add(Arguments.of(n, m, EqaContext.BufferDesign.SHARED));
            }
        }
        a.add(Arguments.of(3, BroadcastMode.AUTO, EqaContext.BufferDesign.PER_CHANNEL));
        return a.stream();
    }

    @ParameterizedTest(name = "N={0} {1} {2}")
    @MethodSource("lossless")
    void everyReceiverGetsEveryMessageIntact(int n, BroadcastMode mode, EqaContext.BufferDesign design)
            throws Exception {
        try (LocalEqaGroup g = LocalEqaGroup.open(n, new EqaContext().bufferDesign(design), null,
                KEYS.incrementAndGet())) {
            allBroadcastAllLengths(g, mode, 20_000);
            long pulls = 0;
            for (EqaPeer p : g.peers()) {
                pulls += p.counters().get(PULLS_RECEIVED);
            }
            if (mode == BroadcastMode.PUSH_PULL) {
                long longOnes = java.util.Arrays.stream(LENGTHS).filter(l -> l > 860).count();
                assertTrue(pulls >= longOnes * n, "one PULL per long message at least: " + g.describe());
                assertTrue(pulls <= 2 * longOnes * n, "one designated receiver pulls, not all: " + g.describe());
            } else if (mode == BroadcastMode.SIMPLE) {
                assertEquals(0, pulls);
            }
        }
    }

    static Stream<Arguments> faulty() {
        return Stream.of(
                Arguments.of(3, BroadcastMode.SIMPLE, "loss=0.1,seed=3"),
                Arguments.of(3, BroadcastMode.PUSH_PULL, "loss=0.1,seed=4"),
                Arguments.of(8, BroadcastMode.SIMPLE, "loss=0.05,dup=0.05,reorder=0.05,seed=5"),
                Arguments.of(8, BroadcastMode.PUSH_PULL, "loss=0.05,dup=0.05,reorder=0.05,seed=6"),
                Arguments.of(2, BroadcastMode.PUSH_PULL, "burst=0.02:6,dup=0.1,reorder=0.1:3,seed=7"));
    }

    @ParameterizedTest(name = "N={0} {1} {2}")
    @MethodSource("faulty")
    void everyReceiverGetsEveryMessageIntactUnderFaults(int n, BroadcastMode mode, String spec) throws Exception {
        FaultPlan plan = FaultPlan.parse(spec);
        try (LocalEqaGroup g = LocalEqaGroup.open(n, new EqaContext(), plan, KEYS.incrementAndGet())) {
            allBroadcastAllLengths(g, mode, 30_000);
            long resent = 0;
            long pulls = 0;
            for (EqaPeer p : g.peers()) {
                resent += p.counters().get(PACKETS_RESENT);
                pulls += p.counters().get(PULLS_SENT);
            }
            assertTrue(resent > 0, "faults were recovered by resends: " + g.describe());
            if (mode == BroadcastMode.PUSH_PULL) {
                assertTrue(pulls > 0, g.describe());
            }
        }
    }

    @Test
    void onlyReceiversThatLostPacketsGetThemAgain() throws Exception {
        // Rank 2 loses 20% of what reaches it; ranks 0 and 1 lose nothing. Root 0 broadcasts.
        FaultPlan lossy = FaultPlan.parse("loss=0.2,seed=11");
        try (LocalEqaGroup g = LocalEqaGroup.openWithPlans(3, new EqaContext(), rank -> rank == 2 ? lossy : null,
                KEYS.incrementAndGet())) {
            EqaPeer root = g.peer(0);
            for (int i = 0; i < 30; i++) {
                root.broadcast(content(0, i, 3000), i % 2 == 0 ? BroadcastMode.SIMPLE : BroadcastMode.PUSH_PULL);
            }
            g.pumpUntilQuiet(20_000);
            long broadcast = root.counters().get(PACKETS_BROADCAST);
            long resent = root.counters().get(PACKETS_RESENT);
            long toClean = g.peer(1).counters().get(PACKETS_RECEIVED) - broadcast;
            assertTrue(resent > 0, g.describe());
            assertTrue(toClean * 10 <= resent, "the receiver that lost nothing got (almost) no resends: " + toClean
                    + " of " + resent + g.describe());
            assertEquals(0, g.peer(1).counters().get(GAP_ACKS_SENT));
            assertTrue(g.peer(2).counters().get(GAP_ACKS_SENT) > 0, g.describe());
            for (int r = 1; r < 3; r++) {
                for (int i = 0; i < 30; i++) {
                    EqaPeer.Delivery d = g.peer(r).poll();
                    assertNotNull(d, "rank " + r + " message " + i);
                    assertArrayEquals(content(0, i, 3000), d.data());
                }
            }
        }
    }

    @Test
    void agentThreadsDeliverWithoutADriver() throws Exception {
        int n = 4;
        try (LocalEqaGroup g = LocalEqaGroup.open(n, new EqaContext(), FaultPlan.parse("loss=0.02,seed=9"),
                KEYS.incrementAndGet())) {
            g.startAgents();
            for (int root = 0; root < n; root++) {
                g.peer(root).broadcast(content(root, 0, 20_000));
            }
            for (int r = 0; r < n; r++) {
                for (int k = 0; k < n - 1; k++) {
                    EqaPeer.Delivery d = g.peer(r).take(20, TimeUnit.SECONDS);
                    assertNotNull(d, "rank " + r + " is missing a message: " + g.describe());
                    assertArrayEquals(content(d.source(), 0, 20_000), d.data());
                }
            }
        }
    }
}

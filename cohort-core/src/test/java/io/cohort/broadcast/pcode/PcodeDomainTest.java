package io.cohort.broadcast.pcode;

import io.cohort.DomainCounters;
import io.cohort.transport.fault.FaultPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The interface's guarantees (the paper's section 2) with in-JVM peers, lossless and under faults. */
@Timeout(60)
class PcodeDomainTest {
    static long key() {
        return ThreadLocalRandom.current().nextLong();
    }

    /** The content a peer multicasts in a round: deterministic, so the receiver can check it whole. */
    static byte[] content(int sender, int round, int length) {
        byte[] b = new byte[length];
        long x = sender * 1_000_003L + round * 7919L + 17;
        for (int i = 0; i < length; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            b[i] = (byte) (x >>> 56);
        }
        return b;
    }

    static long crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }

    static int[] allBut(int n, int rank) {
        int[] t = new int[n - 1];
        for (int i = 0, k = 0; i < n; i++) {
            if (i != rank) {
                t[k++] = i;
            }
        }
        return t;
    }

    /** The paper's all-to-all driver (6.2, second version): each peer multicasts, then requests from every other. */
    static void allToAll(PcodeDomain[] domains, int rounds, int length, AtomicLong checked) {
        int n = domains.length;
        LocalBroadcastDomains.run(domains, d -> {
            int me = d.rank();
            int[] others = allBut(n, me);
            for (int r = 0; r < rounds; r++) {
                int len = length >= 0 ? length : (r * 997) % 5000;
                d.multicast(content(me, r, len), others);
                for (int q = 0; q < n; q++) {
                    if (q != me) {
                        byte[] got = d.request(q, allBut(n, q));
                        byte[] want = content(q, r, len);
                        if (got.length != want.length || crc(got) != crc(want)) {
                            throw new AssertionError("rank " + me + " round " + r + ": wrong message from " + q);
                        }
                        checked.incrementAndGet();
                    }
                }
            }
        }, Duration.ofSeconds(50));
    }

    @Test
    void allToAllOverMemoryMedium() throws Exception {
        AtomicLong checked = new AtomicLong();
        PcodeDomain[] d = LocalBroadcastDomains.open(4, LocalBroadcastDomains.Medium.MEMORY, new PcodeContext(), null, key());
        allToAll(d, 200, 100, checked);
        assertEquals(200L * 4 * 3, checked.get());
    }

    @Test
    void allToAllOverLoopbackMulticastWithLargeMessages() throws Exception {
        AtomicLong checked = new AtomicLong();
        PcodeDomain[] d = LocalBroadcastDomains.open(3, LocalBroadcastDomains.Medium.MULTICAST, new PcodeContext(), null, key());
        allToAll(d, 60, -1, checked); // 0..5000 bytes: up to 4 fragments
        assertEquals(60L * 3 * 2, checked.get());
        for (PcodeDomain x : d) {
            assertEquals(0, x.counters().dropped(), x.toString());
        }
    }

    @Test
    void allToAllOverLoopbackSubnetBroadcastUnderLoss() throws Exception {
        AtomicLong checked = new AtomicLong();
        PcodeDomain[] d = LocalBroadcastDomains.open(3, LocalBroadcastDomains.Medium.BROADCAST, new PcodeContext(),
                FaultPlan.parse("loss=5%,seed=3"), key());
        allToAll(d, 100, 1500, checked);
        assertEquals(100L * 3 * 2, checked.get());
    }

    @Test
    void pointToPointAndSubsetsKeepFifoPerSource() throws Exception {
        int n = 4;
        PcodeDomain[] d = LocalBroadcastDomains.open(n, LocalBroadcastDomains.Medium.MULTICAST, new PcodeContext(), null, key());
        // rank 0 sends a series to {1} (unicast), then to {1, 2}; rank 3 skips; requests come later, in order.
        LocalBroadcastDomains.run(d, dom -> {
            int me = dom.rank();
            if (me == 0) {
                for (int i = 0; i < 50; i++) {
                    dom.multicast(content(0, i, 10 + i), 1);
                    dom.multicast(content(0, 1000 + i, 3000), 1, 2);
                }
            } else if (me == 1) {
                for (int i = 0; i < 50; i++) {
                    assertArrayEquals(content(0, i, 10 + i), dom.request(0, 1));
                    assertArrayEquals(content(0, 1000 + i, 3000), dom.request(0, 1, 2));
                }
            } else if (me == 2) {
                for (int i = 0; i < 50; i++) {
                    assertArrayEquals(content(0, 1000 + i, 3000), dom.request(0, 1, 2));
                }
            }
        }, Duration.ofSeconds(30));
    }

    @Test
    void allToAllUnderLossDuplicationAndReordering() throws Exception {
        AtomicLong checked = new AtomicLong();
        FaultPlan faults = FaultPlan.parse("loss=20%,dup=5%,reorder=5%,seed=11");
        PcodeDomain[] d = LocalBroadcastDomains.open(4, LocalBroadcastDomains.Medium.MULTICAST, new PcodeContext(), faults, key());
        allToAll(d, 100, -1, checked);
        assertEquals(100L * 4 * 3, checked.get());
        long nacks = 0;
        long resent = 0;
        for (PcodeDomain x : d) {
            nacks += x.counters().nacksSent();
            resent += x.counters().get(DomainCounters.Counter.RETRANSMISSIONS);
        }
        assertTrue(nacks > 0 && resent > 0, "20% loss must have been repaired by NACKs and retransmissions");
    }

    @Test
    void memoryMediumUnderHeavyLossWithSmallBuffers() throws Exception {
        AtomicLong checked = new AtomicLong();
        FaultPlan faults = FaultPlan.parse("loss=20%,dup=2%,reorder=10%,seed=5");
        PcodeContext ctx = new PcodeContext().sentBufferFrames(8).p2pBufferFrames(8).earlyBufferFrames(4).flowWindow(16).statusWindow(4);
        PcodeDomain[] d = LocalBroadcastDomains.open(3, LocalBroadcastDomains.Medium.MEMORY, ctx, faults, key());
        allToAll(d, 150, 1800, checked);
        assertEquals(150L * 3 * 2, checked.get());
    }

    @Test
    void zeroLengthMessagesAreDelivered() throws Exception {
        PcodeDomain[] d = LocalBroadcastDomains.open(2, LocalBroadcastDomains.Medium.MEMORY, new PcodeContext(), null, key());
        LocalBroadcastDomains.run(d, dom -> {
            if (dom.rank() == 0) {
                dom.multicast(ByteBuffer.allocate(0), 1);
            } else {
                assertEquals(0, dom.request(0, 1).length);
            }
        }, Duration.ofSeconds(10));
    }
}

package io.cohort.broadcast.pcode;

import io.cohort.DomainCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 10^5 rounds through small buffers: the run can only finish if STATUS frames keep emptying the
 * sent buffer (a multicast waits for room), and at the end STATUS alone empties it completely,
 * before any peer says goodbye.
 */
@Timeout(120)
class BoundedBuffersTest {
    static final int ROUNDS = 100_000;

    @Test
    void sentAndEarlyBuffersStayBoundedAndStatusEmptiesTheSentBuffer() throws Exception {
        PcodeContext ctx = new PcodeContext().sentBufferFrames(32).p2pBufferFrames(8).earlyBufferFrames(16)
                .flowWindow(64).statusWindow(16);
        int n = 3;
        PcodeDomain[] d = LocalBroadcastDomains.open(n, LocalBroadcastDomains.Medium.MEMORY, ctx, null, PcodeDomainTest.key());
        LocalBroadcastDomains.run(d, dom -> {
            int me = dom.rank();
            byte[] m = new byte[16];
            for (int r = 0; r < ROUNDS; r++) {
                int root = r % n;
                if (root == me) {
                    m[0] = (byte) r;
                    m[1] = (byte) (r >>> 8);
                    dom.multicast(m, PcodeDomainTest.allBut(n, me));
                } else {
                    byte[] got = dom.request(root, PcodeDomainTest.allBut(n, root));
                    if ((got[0] & 0xFF) != (r & 0xFF) || (got[1] & 0xFF) != ((r >>> 8) & 0xFF)) {
                        throw new AssertionError("rank " + me + " round " + r + ": wrong message");
                    }
                }
            }
            // Every peer is still here and polling: STATUS alone must empty the sent buffers.
            PcodeDomain self = (PcodeDomain) dom;
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (self.framesHeld() > 0 && System.nanoTime() - deadline < 0) {
                if (self.poll() == 0) {
                    LockSupport.parkNanos(200_000);
                }
            }
            assertEquals(0, self.framesHeld(), "sent frames left unconfirmed: " + self);
        }, Duration.ofSeconds(110));
        for (PcodeDomain x : d) {
            assertTrue(x.sentHighWater() <= 32, "sent buffer grew to " + x.sentHighWater());
            assertTrue(x.early.highWater() <= 16, "early buffer grew to " + x.early.highWater());
            assertEquals(ROUNDS / n + (x.rank() < ROUNDS % n ? 1 : 0), x.counters().get(DomainCounters.Counter.DATA_SENT));
        }
    }
}

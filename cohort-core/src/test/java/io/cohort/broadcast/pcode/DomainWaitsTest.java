package io.cohort.broadcast.pcode;

import io.cohort.stacks.PeerWait;
import io.cohort.stacks.PeerWaits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a thread inside a broadcast-domain call waits for, as the stacks read it: the rank whose
 * multicast a request waits for, the rank that holds a multicast back, in the world's numbering
 * when the domain's are a communicator's, and nothing once the call has returned.
 */
@Timeout(60)
class DomainWaitsTest {
    @Test
    void aRequestShowsTheRankItWaitsForInTheWorldsNumberingAndNothingOnceDone() throws Exception {
        PcodeDomain[] d = LocalBroadcastDomains.open(3, LocalBroadcastDomains.Medium.MEMORY, new PcodeContext(), null,
                PcodeDomainTest.key());
        d[1].worldRanks(new int[] {4, 6, 9}); // as a communicator of world ranks 4, 6 and 9 would number them
        AtomicLong requester = new AtomicLong(-1);
        CountDownLatch seen = new CountDownLatch(1);
        PeerWait[] waits = new PeerWait[2];
        LocalBroadcastDomains.run(d, dom -> {
            if (dom.rank() == 1) {
                requester.set(Thread.currentThread().getId());
                assertEquals(7, dom.request(2, 1)[0]);
                waits[1] = PeerWaits.snapshot().get(Thread.currentThread().getId());
            } else if (dom.rank() == 2) {
                waits[0] = awaitWait(requester);
                seen.countDown();
                dom.multicast(new byte[] {7}, 1);
            }
        }, Duration.ofSeconds(50));
        assertTrue(seen.await(1, TimeUnit.SECONDS));
        assertEquals(new PeerWait(PeerWait.REQUEST, 9, -1, -1), waits[0], "rank 2 of the domain is world rank 9");
        assertEquals("waiting for a multicast from rank 9 (broadcast domain)", waits[0].describe(true));
        assertNull(waits[1], "the request has returned");
    }

    @Test
    void aMulticastHeldBackShowsTheRankThatHasNotConfirmedItsFrames() throws Exception {
        PcodeContext ctx = new PcodeContext().sentBufferFrames(32).p2pBufferFrames(8).earlyBufferFrames(16)
                .flowWindow(64).statusWindow(16);
        PcodeDomain[] d = LocalBroadcastDomains.open(2, LocalBroadcastDomains.Medium.MEMORY, ctx, null, PcodeDomainTest.key());
        int messages = 200; // far more than the sender's buffer and the receiver's slot and early buffer hold
        AtomicLong sender = new AtomicLong(-1);
        CountDownLatch held = new CountDownLatch(1);
        PeerWait[] waits = new PeerWait[2];
        LocalBroadcastDomains.run(d, dom -> {
            if (dom.rank() == 0) {
                sender.set(Thread.currentThread().getId());
                for (int i = 0; i < messages; i++) {
                    dom.multicast(new byte[] {(byte) i}, 1);
                }
                waits[1] = PeerWaits.snapshot().get(Thread.currentThread().getId());
            } else {
                waits[0] = awaitWait(sender); // the receiver takes nothing until the sender is held back
                held.countDown();
                for (int i = 0; i < messages; i++) {
                    assertEquals((byte) i, dom.request(0, 1)[0]);
                }
            }
        }, Duration.ofSeconds(50));
        assertTrue(held.await(1, TimeUnit.SECONDS));
        assertEquals(new PeerWait(PeerWait.MULTICAST, 1, -1, -1), waits[0]);
        assertEquals("waiting for rank 1 to confirm earlier multicasts (broadcast domain)", waits[0].describe(true));
        assertNull(waits[1], "the multicasts have returned");
    }

    /** Captures until the thread with id {@code thread} (once known) waits for a rank. */
    private static PeerWait awaitWait(AtomicLong thread) {
        while (true) { // each capture is the wait; the class's time-out ends a test that never sees it
            PeerWait w = thread.get() < 0 ? null : PeerWaits.snapshot().get(thread.get());
            if (w != null) {
                return w;
            }
            Thread.yield();
        }
    }
}

package io.cohort.broadcast.pcode;

import io.cohort.GlobalProgramException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An incorrect global program ends with one clear error naming the call, the peers and the position; never a hang. */
@Timeout(30)
class GlobalProgramErrorTest {
    static PcodeContext quick() {
        return new PcodeContext().callTimeoutMillis(400).lingerMillis(200);
    }

    static PcodeDomain[] open(int n, PcodeContext ctx) throws Exception {
        return LocalBroadcastDomains.open(n, LocalBroadcastDomains.Medium.MEMORY, ctx, null, PcodeDomainTest.key());
    }

    @Test
    void aRequestWithoutMulticastTimesOutNamingCallSourceAndPosition() throws Exception {
        PcodeDomain[] d = open(3, quick());
        GlobalProgramException e = assertThrows(GlobalProgramException.class, () -> LocalBroadcastDomains.run(d, dom -> {
            if (dom.rank() == 0) {
                dom.multicast(new byte[] {1}, 1, 2);
                dom.request(2, 0, 1); // rank 2 never multicasts
            } else if (dom.rank() == 1) {
                dom.request(0, 1, 2);
                dom.request(2, 0, 1);
            } else {
                dom.request(0, 1, 2);
                dom.request(1, 0, 2); // rank 1 never multicasts either: rank 2 waits too
            }
        }, Duration.ofSeconds(20)));
        assertTrue(e.getMessage().startsWith("rank 0, call #2: request(source 2, targets [0, 1]) found no matching multicast within"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("Either rank 2 is stopped or unreachable, or the global program is incorrect:"
                + " rank 2 must call multicast(m, [0, 1]) at this point"),
                e.getMessage());
    }

    @Test
    void aRequestFromAPeerThatEndedFailsAtOnce() throws Exception {
        PcodeDomain[] d = open(3, new PcodeContext().callTimeoutMillis(20_000));
        long start = System.nanoTime();
        GlobalProgramException e = assertThrows(GlobalProgramException.class, () -> LocalBroadcastDomains.run(d, dom -> {
            if (dom.rank() == 0) {
                dom.multicast(new byte[] {1}, 1, 2);
            } else {
                dom.request(0, 1, 2);
                if (dom.rank() == 1) {
                    dom.request(0, 1, 2); // rank 0 multicast only once
                }
            }
        }, Duration.ofSeconds(20)));
        assertEquals("rank 1, call #2: request(source 0, targets [1, 2]) cannot be satisfied: rank 0 has ended its program"
                + " after 1 broadcast frames, all handled here. The global program is incorrect: rank 0 must call"
                + " multicast(m, [1, 2]) at this point", e.getMessage());
        assertTrue(System.nanoTime() - start < 15_000_000_000L, "did not wait for the call time-out");
    }

    @Test
    void mismatchedTargetSetsAreNamed() throws Exception {
        PcodeDomain[] d = open(4, quick());
        GlobalProgramException e = assertThrows(GlobalProgramException.class, () -> LocalBroadcastDomains.run(d, dom -> {
            if (dom.rank() == 0) {
                dom.multicast(new byte[] {1, 2, 3}, 1, 2);
            } else if (dom.rank() == 1) {
                dom.request(0, 1, 2, 3);
            } else if (dom.rank() == 2) {
                dom.request(0, 1, 2);
            }
        }, Duration.ofSeconds(20)));
        assertEquals("rank 1, call #1: request(source 0, targets [1, 2, 3]) met rank 0's multicast #1 to targets [1, 2];"
                + " the global program is incorrect: each target must request a multicast with its target set", e.getMessage());
    }

    @Test
    void aMulticastNobodyRequestsIsReportedByItsTarget() throws Exception {
        PcodeDomain[] d = open(2, quick());
        GlobalProgramException e = assertThrows(GlobalProgramException.class, () -> LocalBroadcastDomains.run(d, dom -> {
            if (dom.rank() == 0) {
                dom.multicast(new byte[] {7}, 1);
            }
        }, Duration.ofSeconds(20)));
        assertEquals("rank 1 ended its program after call #0 with rank 0's multicast #1 to [1] never requested;"
                + " the global program is incorrect: every target must request each multicast addressed to it", e.getMessage());
    }

    @Test
    void aSenderWhoseTargetsNeverRequestStopsWhenItsBufferIsFull() throws Exception {
        PcodeDomain[] d = open(3, quick().p2pBufferFrames(4));
        GlobalProgramException e = assertThrows(GlobalProgramException.class, () -> LocalBroadcastDomains.run(d, dom -> {
            if (dom.rank() == 0) {
                for (int i = 0; i < 10; i++) {
                    dom.multicast(new byte[] {(byte) i}, 1);
                }
            } else {
                dom.request(0, 1, 2); // waits for a multicast to {1, 2} that never comes
            }
        }, Duration.ofSeconds(20)));
        assertTrue(e.getMessage().startsWith("rank 0, call #"), e.getMessage());
        assertTrue(e.getMessage().contains(": multicast(1 bytes, targets [1]) waited"), e.getMessage());
        assertTrue(e.getMessage().contains("for room in the sent buffer: ranks [1] have not confirmed our earlier frames"),
                e.getMessage());
    }

    @Test
    void badArgumentsAreOneSentence() throws Exception {
        PcodeDomain[] d = open(3, quick());
        try {
            assertEquals("multicast's target set [0, 1] contains the sender, rank 0; a peer never multicasts to itself",
                    assertThrows(IllegalArgumentException.class, () -> d[0].multicast(new byte[1], 0, 1)).getMessage());
            assertEquals("request's target set [0, 2] must contain the requester, rank 1, and not the source, rank 0",
                    assertThrows(IllegalArgumentException.class, () -> d[1].request(0, 0, 2)).getMessage());
            assertEquals("rank 1 cannot request its own multicast",
                    assertThrows(IllegalArgumentException.class, () -> d[1].request(1, 1)).getMessage());
            assertEquals("multicast needs at least one target",
                    assertThrows(IllegalArgumentException.class, () -> d[0].multicast(new byte[1])).getMessage());
        } finally {
            for (PcodeDomain x : d) {
                x.close();
            }
        }
    }
}

package io.cohort.broadcast.pcode;

import io.cohort.DomainCounters;
import io.cohort.GlobalProgramException;
import io.cohort.auth.FrameAuthenticator;
import io.cohort.auth.JobSecret;
import io.cohort.transport.fault.DatagramPort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames with the right key and a valid tag but random counters, lengths, offsets, targets and
 * kinds: whatever a buggy or hostile peer of the same job sends, the poll path never throws
 * (content is not protected against the job's own peers: the paper's Assumption 5). The same
 * frames from someone without the job's secret are dropped as forged, every one.
 */
@Timeout(30)
class CraftedFramesTest {
    @Test
    void randomFramesWithTheRightKeyNeverThrowOutOfPoll() {
        PcodeDomain victim = sendRandomFrames(true);
        assertTrue(victim.counters().get(DomainCounters.Counter.DATA_ACCEPTED) > 0, victim.toString());
    }

    @Test
    void theSameFramesWithoutTheSecretAreAllDroppedAsForged() {
        PcodeDomain victim = sendRandomFrames(false);
        DomainCounters c = victim.counters();
        assertEquals(0, c.get(DomainCounters.Counter.DATA_RECEIVED), c.toString());
        assertEquals(0, c.get(DomainCounters.Counter.NACKS_RECEIVED), c.toString());
        assertEquals(0, c.get(DomainCounters.Counter.STATUS_RECEIVED), c.toString());
        assertEquals(FRAMES, c.get(DomainCounters.Counter.DROPPED_FORGED), c.toString());
    }

    private static final int FRAMES = 50_000;

    /** Sends {@value #FRAMES} random frames with the job's tag, signed with the job's secret or with another's. */
    private static PcodeDomain sendRandomFrames(boolean member) {
        int n = 3;
        JobSecret secret = JobSecret.generate();
        long key = PcodeDomainTest.key();
        MemoryBroadcastMedium medium = new MemoryBroadcastMedium(n + 1);
        SocketAddress[] all = medium.addresses();
        SocketAddress[] members = new SocketAddress[n];
        System.arraycopy(all, 0, members, 0, n);
        PcodeDomain victim = new PcodeDomain(0, n, secret, key, new PcodeContext().earlyBufferFrames(64),
                new DomainEndpoints(medium.port(0), null, medium.broadcastAddress(), members));
        DatagramPort attacker = medium.port(n);
        long tag = PcodeDomain.wireTag(key);
        FrameAuthenticator signer = (member ? secret : JobSecret.generate()).authenticator("bcast", key);
        Random random = new Random(7);
        ByteBuffer f = ByteBuffer.allocate(1400).order(ByteOrder.LITTLE_ENDIAN);
        try {
            for (int i = 0; i < FRAMES; i++) {
                f.clear();
                int type = 1 + random.nextInt(3);
                int flags = random.nextInt(16);
                BcastHeaderDescriptor.write(f, type, flags, tag, 1 + random.nextInt(n - 1), n, small(random));
                int length;
                if (type == BcastHeaderDescriptor.TYPE_DATA) {
                    int total = random.nextInt(4000);
                    int offset = random.nextInt(3) == 0 ? 0 : random.nextInt(total + 1);
                    int fragment = Math.min(random.nextInt(1300), total - offset);
                    DataFrameDescriptor.write(f, small(random), 1 + random.nextInt(5), total, offset, fragment,
                            new long[] {random.nextInt(8)});
                    length = DataFrameDescriptor.payloadOffset(n) + Math.max(0, fragment);
                } else if (type == BcastHeaderDescriptor.TYPE_NACK) {
                    NackFrameDescriptor.write(f, 1 + random.nextInt(3), random.nextInt(n + 1) - 1, small(random),
                            small(random), small(random));
                    for (int r = 0; r < n; r++) {
                        f.putLong(NackFrameDescriptor.PCV_OFFSET + 8 * r, small(random));
                    }
                    length = NackFrameDescriptor.PCV_OFFSET + 8 * n;
                } else {
                    long[] pcv = new long[n];
                    long[] p2p = new long[n];
                    for (int r = 0; r < n; r++) {
                        pcv[r] = small(random);
                        p2p[r] = small(random);
                    }
                    StatusFrameDescriptor.write(f, pcv, p2p);
                    length = StatusFrameDescriptor.length(n);
                }
                length = Math.min(f.capacity() - FrameAuthenticator.TAG_BYTES, length);
                signer.sign(f, 0, length);
                f.limit(length + FrameAuthenticator.TAG_BYTES);
                attacker.send(f, medium.broadcastAddress());
                if (i % 16 == 0) {
                    victim.poll();
                }
            }
            victim.poll();
        } finally {
            closeExpectingUndelivered(victim);
        }
        return victim;
    }

    /** A fragment that continues a message but claims another total length must not overrun the slot. */
    @Test
    void aContinuingFragmentWithAnotherTotalLengthIsNotAccepted() {
        int n = 2;
        long key = PcodeDomainTest.key();
        JobSecret secret = JobSecret.generate();
        MemoryBroadcastMedium medium = new MemoryBroadcastMedium(n);
        PcodeDomain victim = new PcodeDomain(0, n, secret, key, new PcodeContext(),
                new DomainEndpoints(medium.port(0), null, medium.broadcastAddress(), medium.addresses()));
        long tag = PcodeDomain.wireTag(key);
        FrameAuthenticator signer = secret.authenticator("bcast", key);
        ByteBuffer f = ByteBuffer.allocate(1400).order(ByteOrder.LITTLE_ENDIAN);
        try {
            for (int k = 0; k < 2; k++) {
                f.clear();
                BcastHeaderDescriptor.write(f, BcastHeaderDescriptor.TYPE_DATA, BcastHeaderDescriptor.FLAG_P2P, tag, 1, n, 0);
                DataFrameDescriptor.write(f, k + 1, 1, k == 0 ? 1000 : 3000, k == 0 ? 0 : 600, k == 0 ? 600 : 700,
                        new long[] {1});
                int length = DataFrameDescriptor.payloadOffset(n) + (k == 0 ? 600 : 700);
                signer.sign(f, 0, length);
                f.limit(length + FrameAuthenticator.TAG_BYTES);
                medium.port(1).send(f, medium.port(0).localAddress());
            }
            victim.poll();
        } finally {
            closeExpectingUndelivered(victim);
        }
        assertTrue(victim.counters().get(DomainCounters.Counter.DATA_ACCEPTED) == 1, victim.toString());
    }

    private static void closeExpectingUndelivered(PcodeDomain d) {
        try {
            d.close();
        } catch (GlobalProgramException expected) {
            // the crafted frames left messages nobody requested: that is reported, and is fine here
        }
    }

    private static long small(Random random) {
        return random.nextInt(20);
    }
}

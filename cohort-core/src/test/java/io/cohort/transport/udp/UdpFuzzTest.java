package io.cohort.transport.udp;

import io.cohort.Communicator;
import io.cohort.Message;
import io.cohort.Request;
import io.cohort.auth.JobSecret;
import io.cohort.transport.fault.DatagramPort;
import io.cohort.transport.fault.ForwardingDatagramPort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import static io.cohort.transport.udp.UdpFrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random and mutated datagrams thrown at a live job: three peers exchange checksummed messages
 * while
 * <ul>
 *   <li>a foreign socket sprays every peer with random bytes, truncated and mutated frames, frames
 *       of another job, another version, and frames with this job's tag (which its traffic gives
 *       away), half with a wrong tag (a stranger) and half with the right one (a member's frame
 *       sent from a socket not its own), and</li>
 *   <li>rank 0's port interleaves frames signed with rank 1's key that carry rank 1's real source
 *       address (a broken member, or one whose key leaked), with absurd sequence numbers, acks of
 *       frames never sent, impossible lengths and types, and ranks that do not match the address.</li>
 * </ul>
 * Every message must arrive intact and in order, and each kind of drop counter must have moved.
 * ({@link UdpAuthenticationTest} shows that a stranger cannot make the frames of the second kind.)
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UdpFuzzTest {
    private static final JobSecret SECRET = JobSecret.generate();
    private static final long KEY = SECRET.jobTag();
    private static final int N = 3;
    private static final int ROUNDS = 25;

    /** Rank 0's port: every third receive, a forged datagram "from" rank 1 if any is left. */
    static final class SpoofingPort extends ForwardingDatagramPort {
        final ArrayDeque<byte[]> forged = new ArrayDeque<>();
        volatile SocketAddress spoofedSource;
        final AtomicLong injected = new AtomicLong();
        int calls;

        SpoofingPort(DatagramPort inner) {
            super(inner);
        }

        @Override
        public SocketAddress receive(ByteBuffer into) {
            synchronized (forged) {
                if (++calls % 3 == 0 && !forged.isEmpty() && spoofedSource != null) {
                    byte[] f = forged.poll();
                    into.put(f, 0, Math.min(f.length, into.remaining()));
                    injected.incrementAndGet();
                    return spoofedSource;
                }
            }
            return inner.receive(into);
        }
    }

    private static ByteBuffer header(long key, int rank, byte type, short flags, int seq, int ack, int window, int extra,
                                     int length) {
        ByteBuffer b = ByteBuffer.allocate(Math.max(length, HEADER_LENGTH)).order(ByteOrder.LITTLE_ENDIAN);
        writeHeader(b, type, flags, key, rank, seq, ack, 0, window, extra);
        return b;
    }

    /** Frames that look like this job's and are wrong in one way each. */
    static List<byte[]> forgeries(long key, int claimedRank, SplittableRandom r) {
        List<byte[]> out = new ArrayList<>();
        int far = (1 << 30) + r.nextInt(1 << 20);
        out.add(header(key, claimedRank, TYPE_DATA, FLAG_FIRST, far, 0, 16, 0, 60).putInt(MESSAGE_LENGTH_OFFSET, 8).array());
        out.add(header(key, claimedRank, TYPE_DATA, (short) 0, -far, 0, 16, 0, 100).array()); // far in the past
        out.add(header(key, claimedRank, TYPE_ACK, (short) 0, 0, 1 << 29, 16, 0, 40).array()); // acks frames never sent
        out.add(header(key, claimedRank, TYPE_DATA, FLAG_FIRST, 0, 0, 16, 0, 60).putInt(MESSAGE_LENGTH_OFFSET, -7).array());
        out.add(header(key, claimedRank, TYPE_DATA, FLAG_FIRST, 0, 0, 16, 0, 60).putInt(MESSAGE_LENGTH_OFFSET, 3).array());
        out.add(header(key, claimedRank, TYPE_DATA, (short) 0, 0, 0, 0, 0, 50).array()); // window 0
        out.add(header(key, claimedRank, (byte) (4 + r.nextInt(200)), (short) 0, 0, 0, 16, 0, 40).array());
        out.add(header(key, claimedRank, TYPE_BYE, (short) 0, 0, 0, 16, 0, 48).array()); // a goodbye with payload
        out.add(header(key, claimedRank, TYPE_ACK, (short) 0, 0, 0, 16, 30, 50).array()); // map longer than the frame
        out.add(header(key, claimedRank, TYPE_DATA, (short) 0x7F, 0, 0, 16, 0, 50).array()); // unknown flags
        out.add(java.util.Arrays.copyOf(header(key, claimedRank, TYPE_DATA, FLAG_FIRST, 0, 0, 16, 0, 60).array(),
                1 + r.nextInt(HEADER_LENGTH - 1))); // truncated
        ByteBuffer v = header(key, claimedRank, TYPE_ACK, (short) 0, 0, 0, 16, 0, 40);
        v.put(VERSION_OFFSET, (byte) 9);
        out.add(v.array());
        out.add(header(key ^ 1, claimedRank, TYPE_ACK, (short) 0, 0, 0, 16, 0, 40).array()); // another job
        out.add(header(key, N + r.nextInt(100), TYPE_ACK, (short) 0, 0, 0, 16, 0, 40).array()); // no such rank
        out.add(header(key, (claimedRank + 1) % N, TYPE_ACK, (short) 0, 0, 0, 16, 0, 40).array()); // not that rank's address
        byte[] junk = new byte[r.nextInt(1500)];
        r.nextBytes(junk);
        out.add(junk);
        byte[] mutated = header(key, claimedRank, TYPE_DATA, FLAG_FIRST, far, 0, 16, 0, 200).array();
        for (int k = 0; k < 3; k++) {
            mutated[r.nextInt(mutated.length)] ^= (byte) (1 + r.nextInt(255));
        }
        out.add(mutated);
        return out;
    }

    static byte[] content(int round, int src, int dst) {
        Random r = new Random(round * 1_000_003L + src * 7919L + dst);
        byte[] b = new byte[round == 0 ? 0 : r.nextInt(200_000)];
        r.nextBytes(b);
        return b;
    }

    static long crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }

    @Test
    void aLiveJobShrugsOffRandomMutatedAndForgedDatagrams() throws Exception {
        SpoofingPort[] spoof = new SpoofingPort[1];
        HandWiredJob job = new HandWiredJob(N, SECRET, UdpSettings.defaults(), rank -> rank == 0
                ? p -> spoof[0] = new SpoofingPort(p) : p -> p);
        spoof[0].spoofedSource = job.address(1);
        SplittableRandom r = new SplittableRandom(77);
        for (int i = 0; i < 150; i++) {
            for (byte[] f : forgeries(KEY, 1, r)) {
                spoof[0].forged.add(SignedFrames.sealAsClaimed(SECRET, N, 0, f));
            }
        }
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong sprayed = new AtomicLong();
        Thread sprayer = new Thread(() -> {
            SplittableRandom s = new SplittableRandom(78);
            try (DatagramChannel foreign = DatagramChannel.open()) {
                foreign.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                byte[] wrongTag = new byte[16];
                boolean sealed = false;
                while (!done.get()) {
                    for (int rank = 0; rank < N; rank++) {
                        for (byte[] f : forgeries(KEY, 1, s)) {
                            sealed = !sealed;
                            s.nextBytes(wrongTag);
                            byte[] d = sealed ? SignedFrames.sealAsClaimed(SECRET, N, rank, f) : SignedFrames.withTag(f, wrongTag);
                            foreign.send(ByteBuffer.wrap(d), job.address(rank));
                            sprayed.incrementAndGet();
                        }
                    }
                    Thread.yield();
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "fuzz-sprayer");
        sprayer.setDaemon(true);
        sprayer.start();
        try {
            job.run(world -> exchange(world), 90);
        } finally {
            done.set(true);
            sprayer.join();
        }
        UdpCounters c0 = job.transports[0].counters();
        String all = c0.toString();
        assertTrue(spoof[0].injected.get() > 1000, "forgeries injected: " + spoof[0].injected);
        assertTrue(sprayed.get() > 1000, "datagrams sprayed: " + sprayed);
        assertTrue(c0.truncated() > 0, all);
        assertTrue(c0.notCohort() > 0, all);
        assertTrue(c0.wrongVersion() > 0, all);
        assertTrue(c0.wrongJob() > 0, all);
        assertTrue(c0.unknownSender() > 0, all);
        assertTrue(c0.forged() > 0, all);
        assertTrue(c0.malformed() > 0, all);
        assertTrue(c0.outOfWindow() > 0, all);
        assertTrue(c0.badAck() > 0, all);
        long sent = 0;
        long delivered = 0;
        for (UdpTransport t : job.transports) {
            assertTrue(t.counters().dropped() > 0, t.counters().toString());
            assertTrue(t.counters().messagesDelivered() >= ROUNDS * (N - 1), t.counters().toString());
            sent += t.counters().messagesSent();
            delivered += t.counters().messagesDelivered();
        }
        assertEquals(sent, delivered, "exactly the job's messages were delivered, nothing forged");
    }

    /** Each round every peer sends every other a random message with its CRC; every receipt is checked. */
    private static void exchange(Communicator world) {
        int me = world.rank();
        for (int round = 0; round < ROUNDS; round++) {
            List<Request> sends = new ArrayList<>();
            for (int k = 1; k < N; k++) {
                int dst = (me + k) % N;
                byte[] c = content(round, me, dst);
                byte[] msg = java.util.Arrays.copyOf(c, c.length + 8);
                ByteBuffer.wrap(msg).putLong(c.length, crc(c));
                sends.add(world.isend(dst, round, msg));
            }
            for (int k = 1; k < N; k++) {
                int src = (me + N - k) % N;
                Message m = world.recv(src, round);
                byte[] got = m.bytes();
                byte[] want = content(round, src, me);
                assertEquals(want.length + 8, got.length, "round " + round + " from " + src);
                long trailer = ByteBuffer.wrap(got).getLong(want.length);
                assertEquals(crc(want), trailer, "trailer, round " + round + " from " + src);
                assertEquals(crc(want), crc(java.util.Arrays.copyOf(got, want.length)), "content, round " + round);
            }
            Request.awaitAll(sends);
        }
        world.barrier();
    }
}

package io.cohort.broadcast.pcode;

import io.cohort.DomainCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.cohort.DomainCounters.Counter.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Datagrams that are not this job's frames, aimed at live domains while they work: they are
 * counted and dropped, and every delivered message is intact. Mutations keep away from frames that
 * carry the right key and are otherwise well formed: those are indistinguishable from genuine ones
 * without a MAC (the paper's Assumption 5); replays of genuine frames are included and must count
 * as duplicates, never be delivered twice.
 */
@Timeout(60)
class ForeignTrafficTest {
    @Test
    void fuzzedForeignStaleTruncatedAndMalformedFramesAreCountedNeverDelivered() throws Exception {
        long key = PcodeDomainTest.key();
        MulticastGroup group = MulticastGroup.forJob(key);
        PcodeDomain[] d = LocalBroadcastDomains.open(3, group, new PcodeContext(), null, key);
        List<SocketAddress> aims = new ArrayList<>();
        aims.add(group.address());
        for (PcodeDomain x : d) {
            aims.add(x.endpoints.unicast.localAddress());
        }
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong fuzzed = new AtomicLong();
        AtomicReference<Throwable> fuzzerFailure = new AtomicReference<>();
        Thread fuzzer = new Thread(() -> {
            try {
                fuzz(group, aims, PcodeDomain.wireTag(key), running, fuzzed);
            } catch (Throwable t) {
                fuzzerFailure.set(t);
            }
        }, "fuzzer");
        fuzzer.setDaemon(true);
        fuzzer.start();
        AtomicLong checked = new AtomicLong();
        try {
            PcodeDomainTest.allToAll(d, 1000, -1, checked);
        } finally {
            running.set(false);
            fuzzer.join(5_000);
        }
        assertNull(fuzzerFailure.get(), "the fuzzer itself failed, so the run proves less than it should");
        assertEquals(1000L * 3 * 2, checked.get());
        long[] sums = new long[DomainCounters.Counter.values().length];
        for (PcodeDomain x : d) {
            for (DomainCounters.Counter c : DomainCounters.Counter.values()) {
                sums[c.ordinal()] += x.counters().get(c);
            }
        }
        assertTrue(fuzzed.get() > 100, "the fuzzer sent " + fuzzed.get());
        for (DomainCounters.Counter c : new DomainCounters.Counter[] {DROPPED_FOREIGN, DROPPED_OTHER_JOB, DROPPED_VERSION,
                DROPPED_TRUNCATED, DROPPED_MALFORMED, DUPLICATES}) {
            assertTrue(sums[c.ordinal()] > 0, c + " never counted: " + d[0].counters());
        }
    }

    /** Sends random bytes, foreign-key, stale-version, truncated and malformed frames, and replays genuine ones. */
    private static void fuzz(MulticastGroup group, List<SocketAddress> aims, long tag, AtomicBoolean running, AtomicLong sent) {
        Random random = new Random(42);
        List<byte[]> captured = new ArrayList<>();
        try (DatagramChannel spy = DatagramChannel.open(StandardProtocolFamily.INET)
                .setOption(StandardSocketOptions.SO_REUSEADDR, true)
                .bind(new InetSocketAddress(group.address().getPort()));
             DatagramChannel out = DatagramChannel.open(StandardProtocolFamily.INET)) {
            spy.join(group.address().getAddress(), MulticastGroup.loopbackInterface());
            spy.configureBlocking(false);
            out.setOption(StandardSocketOptions.IP_MULTICAST_IF, MulticastGroup.loopbackInterface());
            ByteBuffer in = ByteBuffer.allocate(65_536);
            while (running.get()) {
                in.clear();
                // Keep only genuine frames to mutate: the spy also hears the fuzzer's own junk on the group.
                if (spy.receive(in) != null && captured.size() < 1000 && in.position() >= BcastHeaderDescriptor.HEADER_LENGTH
                        && in.order(ByteOrder.LITTLE_ENDIAN).getLong(BcastHeaderDescriptor.KEY_OFFSET) == tag) {
                    in.flip();
                    byte[] b = new byte[in.remaining()];
                    in.get(b);
                    captured.add(b);
                }
                byte[] frame = mutate(random, captured, tag);
                out.send(ByteBuffer.wrap(frame), aims.get(random.nextInt(aims.size())));
                sent.incrementAndGet();
                Thread.sleep(0, 200_000);
            }
        } catch (Exception e) {
            throw new AssertionError("fuzzer failed", e);
        }
    }

    private static byte[] mutate(Random random, List<byte[]> captured, long tag) {
        int kind = random.nextInt(7);
        if (captured.isEmpty() || kind == 0) {
            byte[] junk = new byte[random.nextInt(1500)];
            random.nextBytes(junk);
            return junk;
        }
        byte[] genuine = captured.get(random.nextInt(captured.size()));
        byte[] f = genuine.clone();
        ByteBuffer b = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
        switch (kind) {
            case 1: // another job, or a stale frame from an earlier job: a different key
                b.putLong(BcastHeaderDescriptor.KEY_OFFSET, tag ^ (1L + random.nextInt(1 << 20)));
                return f;
            case 2: // a future or past protocol version
                b.put(BcastHeaderDescriptor.VERSION_OFFSET, (byte) (2 + random.nextInt(200)));
                return f;
            case 3: // truncated
                byte[] t = new byte[BcastHeaderDescriptor.HEADER_LENGTH / 2
                        + random.nextInt(Math.max(1, Math.min(f.length, 72) - BcastHeaderDescriptor.HEADER_LENGTH / 2))];
                System.arraycopy(f, 0, t, 0, t.length);
                if (t.length >= BcastHeaderDescriptor.HEADER_LENGTH && BcastHeaderDescriptor.type(ByteBuffer.wrap(t).order(ByteOrder.LITTLE_ENDIAN)) == BcastHeaderDescriptor.TYPE_NACK
                        && t.length >= NackFrameDescriptor.LENGTH) {
                    return new byte[] {0x43, 0x4F, 0x44, 0x45, 1}; // a NACK cut at 64 would be whole: cut it shorter
                }
                return t;
            case 4: // malformed: a sender outside the domain, a wrong size or an unknown type
                int which = random.nextInt(3);
                if (which == 0) {
                    b.putInt(BcastHeaderDescriptor.SENDER_OFFSET, 3 + random.nextInt(1000));
                } else if (which == 1) {
                    b.putShort(BcastHeaderDescriptor.SIZE_OFFSET, (short) (4 + random.nextInt(100)));
                } else {
                    b.put(BcastHeaderDescriptor.TYPE_OFFSET, (byte) (4 + random.nextInt(200)));
                }
                return f;
            case 5: // foreign magic: someone else's protocol on our group
                b.putInt(0, random.nextInt() | 1);
                return f;
            default: // a replay of a genuine frame: a duplicate at worst
                return f;
        }
    }

    @Test
    void twoJobsOnOneGroupDoNotDisturbEachOther() throws Exception {
        MulticastGroup shared = MulticastGroup.forJob(PcodeDomainTest.key());
        PcodeDomain[] a = LocalBroadcastDomains.open(3, shared, new PcodeContext(), null, PcodeDomainTest.key());
        PcodeDomain[] b = LocalBroadcastDomains.open(3, shared, new PcodeContext(), null, PcodeDomainTest.key());
        AtomicLong checkedA = new AtomicLong();
        AtomicLong checkedB = new AtomicLong();
        Throwable[] failure = new Throwable[1];
        Thread other = new Thread(() -> {
            try {
                PcodeDomainTest.allToAll(b, 150, 700, checkedB);
            } catch (Throwable t) {
                failure[0] = t;
            }
        });
        other.start();
        // Job A starts once job B has delivered a message: B's frames are then queued in A's sockets
        // too (they joined the group first), so A must meet them however the threads are scheduled.
        while (checkedB.get() == 0 && other.isAlive()) {
            Thread.onSpinWait();
        }
        PcodeDomainTest.allToAll(a, 150, 900, checkedA);
        other.join(50_000);
        if (failure[0] != null) {
            throw new AssertionError("the other job failed", failure[0]);
        }
        assertEquals(150L * 6, checkedA.get());
        assertEquals(150L * 6, checkedB.get());
        long otherJob = 0;
        for (PcodeDomain x : a) {
            otherJob += x.counters().get(DROPPED_OTHER_JOB);
        }
        assertTrue(otherJob > 0, "job A never saw job B's frames: " + a[0].counters());
    }
}

package io.cohort.broadcast.eqa;

import io.cohort.DomainCounters;
import io.cohort.GlobalProgramException;
import io.cohort.auth.JobSecret;
import io.cohort.broadcast.pcode.DomainFactory;
import io.cohort.transport.fault.FaultPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The EQA domain of a job, opened the way a launched peer opens it (the PCODE domain's network
 * discovery and medium, loopback multicast here, frames signed with a key from the job secret):
 * the global program's matching, lengths from 0 to many packets, loss, strangers' and forged
 * datagrams, and the settings' checks.
 */
@Timeout(60)
class EqaDomainTest {
    private static final long CALL_TIMEOUT = TimeUnit.SECONDS.toNanos(20);

    private static EqaDomain[] open(int n, FaultPlan faults, EqaContext ctx) {
        JobSecret secret = JobSecret.generate();
        DomainFactory.Binding[] b = new DomainFactory.Binding[n];
        String[] addresses = new String[n];
        for (int r = 0; r < n; r++) {
            b[r] = new DomainFactory(r, n, secret, InetAddress.getLoopbackAddress(), faults, false).forEqa().bind();
            addresses[r] = b[r].address();
        }
        EqaDomain[] d = new EqaDomain[n];
        for (int r = 0; r < n; r++) {
            d[r] = EqaDomain.open(b[r], addresses, ctx, EqaAgentThread.Idle.BLOCK, CALL_TIMEOUT,
                    TimeUnit.SECONDS.toNanos(5));
        }
        return d;
    }

    /** Runs {@code body} at every domain on its own thread, then closes them all; rethrows the first failure. */
    private static void run(EqaDomain[] domains, Consumer<EqaDomain> body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(domains.length);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (EqaDomain d : domains) {
                done.add(pool.submit(() -> {
                    try {
                        body.accept(d);
                    } finally {
                        d.close();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(50, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static byte[] content(int source, int k, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (source * 31 + k * 7 + i * 13);
        }
        return b;
    }

    private static final int[] LENGTHS = {0, 1, 79, 861, 1398, 1399, 5001, 100_003};

    private static int[] others(int n, int except) {
        int[] t = new int[n - 1];
        for (int p = 0, k = 0; p < n; p++) {
            if (p != except) {
                t[k++] = p;
            }
        }
        return t;
    }

    /** Every peer multicasts every length to all others; every other requests each in order. */
    private static void allToAll(EqaDomain[] d) throws Exception {
        int n = d.length;
        run(d, domain -> {
            int me = domain.rank();
            for (int k = 0; k < LENGTHS.length; k++) {
                domain.multicast(content(me, k, LENGTHS[k]), others(n, me));
                for (int s = 0; s < n; s++) {
                    if (s != me) {
                        assertArrayEquals(content(s, k, LENGTHS[k]), domain.request(s, others(n, s)),
                                "message " + k + " from " + s + " at " + me);
                    }
                }
            }
        });
    }

    @Test
    void everyLengthArrivesWholeOverLoopbackMulticast() throws Exception {
        EqaDomain[] d = open(4, null, new EqaContext());
        allToAll(d);
        for (EqaDomain x : d) {
            assertEquals(0, x.counters().dropped(), x.peer().counters().toString());
        }
    }

    @Test
    void everyLengthArrivesWholeUnderLossInSimpleAndPushPullAndPerChannelBuffers() throws Exception {
        FaultPlan loss = FaultPlan.parse("loss=0.05,seed=11");
        allToAll(open(3, loss, new EqaContext().mode(BroadcastMode.SIMPLE)));
        allToAll(open(3, loss, new EqaContext().mode(BroadcastMode.PUSH_PULL)));
        allToAll(open(3, loss, new EqaContext().bufferDesign(EqaContext.BufferDesign.PER_CHANNEL)));
    }

    /**
     * The memory report --verbose prints at close: rank 0 streams 64 KiB messages to five others;
     * its shared buffer holds each packet once, one buffer per channel once per receiver.
     */
    @Test
    void theMemoryReportShowsTheSharedBufferHoldingEachPacketOnce() throws Exception {
        long shared = senderPeak(new EqaContext());
        long perChannel = senderPeak(new EqaContext().bufferDesign(EqaContext.BufferDesign.PER_CHANNEL));
        assertTrue(shared > 0 && perChannel >= 3 * shared, "shared " + shared + " B, per channel " + perChannel + " B");
    }

    /** A caller waiting in request is shown to the stacks as waiting for its source, by world rank. */
    @Test
    void aWaitingRequestNamesItsSourceToTheStacksInTheWorldsNumbering() throws Exception {
        EqaDomain[] d = open(3, null, new EqaContext());
        d[1].worldRanks(new int[] {5, 7, 9});
        byte[] message = content(0, 0, 10);
        java.util.concurrent.CompletableFuture<Thread> requester = new java.util.concurrent.CompletableFuture<>();
        run(d, domain -> {
            if (domain.rank() == 1) {
                requester.complete(Thread.currentThread());
                assertArrayEquals(message, domain.request(0, others(3, 0)));
                assertEquals(null, io.cohort.stacks.PeerWaits.snapshot().get(Thread.currentThread().getId()),
                        "the wait is cleared once the message is there");
            } else if (domain.rank() == 0) {
                long id;
                try {
                    id = requester.get(10, TimeUnit.SECONDS).getId();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                io.cohort.stacks.PeerWait w;
                while ((w = io.cohort.stacks.PeerWaits.snapshot().get(id)) == null && System.nanoTime() < deadline) {
                    Thread.onSpinWait(); // polling the other thread's slot: a capture has no event either
                }
                assertEquals(new io.cohort.stacks.PeerWait(io.cohort.stacks.PeerWait.REQUEST, 5, -1, -1), w);
                domain.multicast(message, others(3, 0));
            } else {
                assertArrayEquals(message, domain.request(0, others(3, 0)));
            }
        });
    }

    private static long senderPeak(EqaContext ctx) throws Exception {
        EqaDomain[] d = open(6, null, ctx);
        byte[] message = content(0, 0, 64 << 10);
        run(d, domain -> {
            for (int k = 0; k < 8; k++) {
                if (domain.rank() == 0) {
                    domain.multicast(message, others(6, 0));
                } else {
                    assertArrayEquals(message, domain.request(0, others(6, 0)));
                }
            }
        });
        String report = d[0].memoryReport();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("rank 0 held at most (\\d+) B for retransmission \\("
                + ctx.bufferDesign().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
                + " buffer, 5 receivers, 8 messages sent\\) and (\\d+) B in its receive channels").matcher(report);
        assertTrue(m.matches(), report);
        return Long.parseLong(m.group(1));
    }

    @Test
    void aSmallerTargetSetMeetsItsOwnRequestsAndOthersNeverSeeIt() throws Exception {
        EqaDomain[] d = open(4, null, new EqaContext());
        byte[] toTwo = content(0, 1, 3000);
        byte[] toAll = content(0, 2, 10);
        run(d, domain -> {
            switch (domain.rank()) {
                case 0 -> {
                    domain.multicast(toTwo, 2, 1);
                    domain.multicast(toAll, 1, 2, 3);
                }
                case 1, 2 -> {
                    // the later multicast to all is asked for first: the one to {1, 2} waits its turn
                    assertArrayEquals(toAll, domain.request(0, 1, 2, 3));
                    assertArrayEquals(toTwo, domain.request(0, 1, 2));
                }
                default -> assertArrayEquals(toAll, domain.request(0, 1, 2, 3));
            }
        });
    }

    @Test
    void aRequestWhoseMulticastNeverComesFailsAfterTheCallTimeout() throws Exception {
        JobSecret secret = JobSecret.generate();
        DomainFactory.Binding[] b = new DomainFactory.Binding[2];
        String[] a = new String[2];
        for (int r = 0; r < 2; r++) {
            b[r] = new DomainFactory(r, 2, secret, InetAddress.getLoopbackAddress(), null, false).forEqa().bind();
            a[r] = b[r].address();
        }
        EqaDomain d0 = EqaDomain.open(b[0], a, new EqaContext(), EqaAgentThread.Idle.BLOCK,
                TimeUnit.MILLISECONDS.toNanos(200), 0);
        EqaDomain d1 = EqaDomain.open(b[1], a, new EqaContext(), EqaAgentThread.Idle.BLOCK,
                TimeUnit.MILLISECONDS.toNanos(200), 0);
        try {
            GlobalProgramException e = assertThrows(GlobalProgramException.class, () -> d1.request(0, 1));
            assertTrue(e.getMessage().contains("request from rank 0"), e.getMessage());
            assertTrue(d1.failed());
        } finally {
            d0.close();
            d1.close();
        }
    }

    @Test
    void strangersAndForgedFramesAreDroppedAndCountedAndDataStaysIntact() throws Exception {
        EqaDomain[] d = open(3, null, new EqaContext());
        InetSocketAddress target = (InetSocketAddress) d[1].peer().port().localAddress();
        try (DatagramChannel stranger = DatagramChannel.open()) {
            stranger.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            stranger.send(ByteBuffer.wrap(new byte[] {1, 2, 3}), target); // too short for anything
            stranger.send(ByteBuffer.wrap("GET / HTTP/1.0\r\n\r\n".getBytes()), target); // no EQA magic
            ByteBuffer forged = ByteBuffer.allocate(DataFrameDescriptor.PAYLOAD_OFFSET + 10 + 16)
                    .order(ByteOrder.LITTLE_ENDIAN);
            long key = d[1].peer().key();
            EqaHeaderDescriptor.write(forged, EqaHeaderDescriptor.TYPE_DATA, 0, key, 0, 3);
            forged.position(0).limit(forged.capacity());
            stranger.send(forged, target); // EQA's magic, a tag of zeros: forged
            ByteBuffer truncated = ByteBuffer.allocate(EqaHeaderDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            EqaHeaderDescriptor.write(truncated, EqaHeaderDescriptor.TYPE_DATA, 0, key, 0, 3);
            truncated.position(0).limit(truncated.capacity());
            stranger.send(truncated, target); // a header and no room for a tag
            ByteBuffer otherGroup = ByteBuffer.allocate(DataFrameDescriptor.PAYLOAD_OFFSET + 16).order(ByteOrder.LITTLE_ENDIAN);
            EqaHeaderDescriptor.write(otherGroup, EqaHeaderDescriptor.TYPE_DATA, 0, key + 1, 0, 3);
            otherGroup.position(0).limit(otherGroup.capacity());
            stranger.send(otherGroup, target); // another communicator's key: counted apart, and no hash
        }
        allToAll(d);
        EqaCounters c = d[1].peer().counters();
        assertEquals(2, c.get(EqaCounters.Counter.DROPPED_FOREIGN), c.toString());
        assertEquals(1, c.get(EqaCounters.Counter.DROPPED_FORGED), c.toString());
        assertEquals(1, c.get(EqaCounters.Counter.DROPPED_TRUNCATED), c.toString());
        assertEquals(1, c.get(EqaCounters.Counter.DROPPED_OTHER_GROUP), c.toString());
        assertEquals(1, d[1].counters().get(DomainCounters.Counter.DROPPED_FORGED));
    }

    /** A job's domains, opened as {@link #open} does, with one member's factory (for the frames' signer). */
    private record Job(EqaDomain[] d, DomainFactory f) {
    }

    private static Job openJob(int n, EqaContext ctx) {
        JobSecret secret = JobSecret.generate();
        DomainFactory[] f = new DomainFactory[n];
        DomainFactory.Binding[] b = new DomainFactory.Binding[n];
        String[] addresses = new String[n];
        for (int r = 0; r < n; r++) {
            f[r] = new DomainFactory(r, n, secret, InetAddress.getLoopbackAddress(), null, false).forEqa();
            b[r] = f[r].bind();
            addresses[r] = b[r].address();
        }
        EqaDomain[] d = new EqaDomain[n];
        for (int r = 0; r < n; r++) {
            d[r] = EqaDomain.open(b[r], addresses, ctx, EqaAgentThread.Idle.BLOCK, CALL_TIMEOUT,
                    TimeUnit.SECONDS.toNanos(5));
        }
        return new Job(d, f[0]);
    }

    /**
     * A signed ACK (or PULL, with {@code pull}) as member {@code from} sends it to {@code target}: what an
     * eavesdropper captures on the wire. It goes out of {@code from}'s own socket to {@code to}, so
     * its source is {@code from}'s address, as a spoofed replay's would be.
     */
    private static void replay(Job job, int from, int target, int to, long next, boolean gap, boolean pull) {
        EqaPeer p = job.d()[from].peer();
        int length = pull ? PullFrameDescriptor.LENGTH : AckFrameDescriptor.LENGTH;
        ByteBuffer f = ByteBuffer.allocate(length + io.cohort.auth.FrameAuthenticator.TAG_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        EqaHeaderDescriptor.write(f, pull ? EqaHeaderDescriptor.TYPE_PULL : EqaHeaderDescriptor.TYPE_ACK,
                gap ? EqaHeaderDescriptor.FLAG_GAP : 0, p.key(), from, p.size());
        EqaHeaderDescriptor.target(f, target);
        if (pull) {
            PullFrameDescriptor.write(f, 0, next);
        } else {
            AckFrameDescriptor.write(f, next);
        }
        EqaDomain.frameAuthenticator(job.f()).sign(f, 0, length);
        f.position(0).limit(f.capacity());
        assertTrue(p.port().send(f, job.d()[to].peer().port().localAddress()));
    }

    private static void awaitIdle(EqaPeer p) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (p.busy() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(1_000_000);
        }
        assertTrue(!p.busy(), "still unacknowledged: " + p.counters());
    }

    private static void awaitCount(EqaPeer p, EqaCounters.Counter c, long atLeast) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (p.counters().get(c) < atLeast && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(1_000_000);
        }
        assertTrue(p.counters().get(c) >= atLeast, c + " < " + atLeast + ": " + p.counters());
    }

    @Test
    void anAckOrPullReplayedToAnotherSenderIsDroppedAndCountedAndItsStreamStillCompletes() throws Exception {
        Job job = openJob(3, new EqaContext());
        EqaDomain[] d = job.d();
        // Rank 2 broadcasts first, so a forged cursor move for rank 1 would have packets to skip.
        byte[] first = content(2, 0, 20_000);
        d[2].multicast(first, 0, 1);
        assertArrayEquals(first, d[0].request(2, 0, 1));
        awaitIdle(d[2].peer()); // every ACK of the real stream is in: what comes now is the replay
        long acks = d[2].peer().counters().get(EqaCounters.Counter.ACKS_RECEIVED);
        long pulls = d[2].peer().counters().get(EqaCounters.Counter.PULLS_RECEIVED);
        // An ACK and a PULL of rank 1 for rank 0's stream, replayed to rank 2 from rank 1's address.
        replay(job, 1, 0, 2, 1_000, false, false);
        replay(job, 1, 0, 2, 1_000, true, false);
        replay(job, 1, 0, 2, 1_000, false, true);
        awaitCount(d[2].peer(), EqaCounters.Counter.DROPPED_NOT_FOR_US, 3);
        assertEquals(acks, d[2].peer().counters().get(EqaCounters.Counter.ACKS_RECEIVED), d[2].peer().counters().toString());
        assertEquals(pulls, d[2].peer().counters().get(EqaCounters.Counter.PULLS_RECEIVED), d[2].peer().counters().toString());
        assertEquals(0, d[2].peer().counters().get(EqaCounters.Counter.DROPPED_FORGED), "the replays are well signed");
        assertEquals(3, d[2].counters().get(DomainCounters.Counter.DROPPED_FOREIGN));
        // A DATA frame must carry 0 in the target field: a signed one that does not is malformed.
        EqaPeer p1 = d[1].peer();
        ByteBuffer data = ByteBuffer.allocate(DataFrameDescriptor.PAYLOAD_OFFSET + io.cohort.auth.FrameAuthenticator.TAG_BYTES)
                .order(ByteOrder.LITTLE_ENDIAN);
        EqaHeaderDescriptor.write(data, EqaHeaderDescriptor.TYPE_DATA, 0, p1.key(), 1, 3);
        EqaHeaderDescriptor.target(data, 2);
        EqaDomain.frameAuthenticator(job.f()).sign(data, 0, DataFrameDescriptor.PAYLOAD_OFFSET);
        data.position(0).limit(data.capacity());
        long malformed = d[2].peer().counters().get(EqaCounters.Counter.DROPPED_MALFORMED);
        assertTrue(p1.port().send(data, d[2].peer().port().localAddress()));
        awaitCount(d[2].peer(), EqaCounters.Counter.DROPPED_MALFORMED, malformed + 1);
        assertArrayEquals(first, d[1].request(2, 0, 1));
        allToAll(d); // rank 1's stream from rank 2 (and every other) still completes
    }

    @Test
    void anOldGapAckReplayedToItsOwnSenderIsRefusedByTheCursorAndResendsNothing() throws Exception {
        Job job = openJob(2, new EqaContext());
        EqaDomain[] d = job.d();
        try {
            byte[] m = content(0, 0, 20_000);
            d[0].multicast(m, 1);
            assertArrayEquals(m, d[1].request(0, 1));
            awaitIdle(d[0].peer());
            EqaCounters c = d[0].peer().counters();
            long acks = c.get(EqaCounters.Counter.ACKS_RECEIVED);
            long resent = c.get(EqaCounters.Counter.PACKETS_RESENT);
            long gaps = c.get(EqaCounters.Counter.GAP_RESENDS);
            // Rank 1's GAP ACK from before it had anything, replayed to the sender it names, twice.
            replay(job, 1, 0, 0, 0, true, false);
            replay(job, 1, 0, 0, 0, true, false);
            awaitCount(d[0].peer(), EqaCounters.Counter.ACKS_RECEIVED, acks + 2);
            assertEquals(resent, c.get(EqaCounters.Counter.PACKETS_RESENT), c.toString());
            assertEquals(gaps, c.get(EqaCounters.Counter.GAP_RESENDS), c.toString());
        } finally {
            d[0].close();
            d[1].close();
        }
    }

    @Test
    void aMalformedTargetPrefixIsDroppedAndCountedAndTheDomainLivesOn() throws Exception {
        EqaDomain[] d = open(4, null, new EqaContext());
        byte[][] bad = {
                {7},                        // shorter than the target word
                {0, 0, 9},                  // no targets
                {3, 0, 1, 0},               // three targets announced, one there
                {2, 0, 2, 0, 1, 0},         // unsorted
                {2, 0, 1, 0, 1, 0},         // repeated
                {1, 0, 9, 0},               // beyond the domain
                {1, 0, 0, 0},               // the source itself
                {4, 0, 1, 0, 2, 0, 3, 0},   // more targets than other members
        };
        try {
            for (byte[] m : bad) {
                d[0].peer().broadcast(m); // under the domain: a member's own, signed, malformed message
            }
            byte[] good = content(0, 1, 100);
            d[0].multicast(good, 1, 2);
            byte[] all = content(0, 2, 10);
            d[0].multicast(all, 1, 2, 3);
            assertArrayEquals(good, d[1].request(0, 1, 2));
            assertArrayEquals(all, d[1].request(0, 1, 2, 3));
            assertTrue(!d[1].failed());
            assertEquals(bad.length, d[1].counters().get(DomainCounters.Counter.DROPPED_MALFORMED),
                    d[1].peer().counters().toString());
        } finally {
            for (EqaDomain x : d) {
                x.close();
            }
        }
    }

    @Test
    void oldDataFramesReplayedInABurstBuyOneAnswerPerGapHold() throws Exception {
        Job job = openJob(2, new EqaContext().gapHoldMicros(5_000_000)); // a hold the whole burst fits in
        EqaDomain[] d = job.d();
        try {
            byte[] m = content(0, 0, 10);
            d[0].multicast(m, 1);
            assertArrayEquals(m, d[1].request(0, 1));
            awaitIdle(d[0].peer());
            // The receiver counts its ACK just after sending it: let that count land first.
            awaitCount(d[1].peer(), EqaCounters.Counter.ACKS_SENT, 1);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            EqaCounters c = d[1].peer().counters();
            long acks = c.get(EqaCounters.Counter.ACKS_SENT);
            long duplicates = c.get(EqaCounters.Counter.DUPLICATES);
            // Rank 0's packet 0, as captured, asking for an ACK; replayed 40 times from rank 0's address.
            EqaPeer p0 = d[0].peer();
            int length = DataFrameDescriptor.PAYLOAD_OFFSET;
            ByteBuffer f = ByteBuffer.allocate(length + io.cohort.auth.FrameAuthenticator.TAG_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            EqaHeaderDescriptor.write(f, EqaHeaderDescriptor.TYPE_DATA, EqaHeaderDescriptor.FLAG_ACK_REQUEST, p0.key(), 0, 2);
            DataFrameDescriptor.write(f, 0, 0, 0, 0, 0, -1);
            EqaDomain.frameAuthenticator(job.f()).sign(f, 0, length);
            for (int i = 0; i < 40; i++) {
                f.position(0).limit(f.capacity());
                p0.port().send(f, d[1].peer().port().localAddress());
            }
            awaitCount(d[1].peer(), EqaCounters.Counter.DUPLICATES, duplicates + 30); // loopback may drop a few
            assertTrue(c.get(EqaCounters.Counter.ACKS_SENT) - acks <= 1, c.toString());
        } finally {
            d[0].close();
            d[1].close();
        }
    }

    @Test
    void theFrameKeyIsAnHmacOverTheWholeScopeNotTheSixtyFourBitKey() {
        JobSecret secret = JobSecret.generate();
        DomainFactory world = new DomainFactory(0, 4, secret, InetAddress.getLoopbackAddress(), null, false);
        DomainFactory a = world.forCommunicator(5, new int[] {0, 2, 3}, 0).forEqa();
        DomainFactory b = world.forCommunicator(5, new int[] {0, 2}, 0).forEqa();
        byte[] frame = "a frame".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] tag = EqaDomain.frameAuthenticator(a).tag(frame);
        // purpose, then context, member count and every member's job rank: nothing passes through a hash
        assertArrayEquals(secret.authenticator("eqa", 5, 3, 0, 2, 3).tag(frame), tag);
        assertTrue(!Arrays.equals(secret.authenticator("eqa", a.key()).tag(frame), tag));
        assertTrue(!Arrays.equals(EqaDomain.frameAuthenticator(b).tag(frame), tag));
        assertArrayEquals(secret.authenticator("eqa").tag(frame), EqaDomain.frameAuthenticator(world.forEqa()).tag(frame));
    }

    @Test
    void anotherJobsFramesDoNotVerify() throws Exception {
        // Two jobs that share nothing but the host: each sends its own traffic; no frame crosses over.
        EqaDomain[] first = open(2, null, new EqaContext());
        EqaDomain[] second = open(2, null, new EqaContext());
        InetSocketAddress firstRank1 = (InetSocketAddress) first[1].peer().port().localAddress();
        // A frame with the first job's group key (which travels in clear) but signed under another secret.
        EqaPeer rogue = new EqaPeer(new EqaContext(), first[1].peer().key(), 0,
                new io.cohort.transport.fault.NioDatagramPort(DatagramChannel.open().bind(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))),
                null, new java.net.SocketAddress[] {firstRank1, firstRank1}, null,
                JobSecret.generate().authenticator("eqa", 0));
        try {
            rogue.broadcast(new byte[] {(byte) 0xFF, (byte) 0xFF, 42});
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (first[1].peer().counters().get(EqaCounters.Counter.DROPPED_FORGED) == 0
                    && System.nanoTime() < deadline) {
                rogue.doWork(System.nanoTime());
                Thread.onSpinWait();
            }
            assertTrue(first[1].peer().counters().get(EqaCounters.Counter.DROPPED_FORGED) > 0,
                    first[1].peer().counters().toString());
        } finally {
            rogue.close();
        }
        allToAll(first);
        allToAll(second);
    }

    @Test
    void theAgentAndTheCallerSpinOrYieldAsTheIdleStrategySays() throws Exception {
        for (EqaAgentThread.Idle idle : new EqaAgentThread.Idle[] {EqaAgentThread.Idle.SPIN, EqaAgentThread.Idle.YIELD}) {
            JobSecret secret = JobSecret.generate();
            DomainFactory.Binding[] b = new DomainFactory.Binding[2];
            String[] a = new String[2];
            for (int r = 0; r < 2; r++) {
                b[r] = new DomainFactory(r, 2, secret, InetAddress.getLoopbackAddress(), null, false).forEqa().bind();
                a[r] = b[r].address();
            }
            EqaDomain[] d = new EqaDomain[2];
            for (int r = 0; r < 2; r++) {
                d[r] = EqaDomain.open(b[r], a, new EqaContext(), idle, CALL_TIMEOUT, TimeUnit.SECONDS.toNanos(5));
            }
            allToAll(d);
        }
        assertEquals(EqaAgentThread.Idle.SPIN, EqaAgentThread.Idle.forStrategy("busy-spin"));
        assertEquals(EqaAgentThread.Idle.YIELD, EqaAgentThread.Idle.forStrategy("yield"));
        assertEquals(EqaAgentThread.Idle.BLOCK, EqaAgentThread.Idle.forStrategy("backoff"));
        assertEquals(EqaAgentThread.Idle.BLOCK, EqaAgentThread.Idle.forStrategy("park"));
    }

    /** Two members' EQA domains of one new job on loopback, their factories left in {@code f}. */
    private static EqaDomain[] twoOnLoopback(DomainFactory[] f, long lingerNanos) throws Exception {
        JobSecret secret = JobSecret.generate();
        DomainFactory.Binding[] b = new DomainFactory.Binding[2];
        String[] a = new String[2];
        for (int r = 0; r < 2; r++) {
            f[r] = new DomainFactory(r, 2, secret, InetAddress.getLoopbackAddress(), null, false);
            b[r] = f[r].forEqa().bind();
            a[r] = b[r].address();
        }
        EqaDomain[] d = new EqaDomain[2];
        for (int r = 0; r < 2; r++) {
            d[r] = EqaDomain.open(b[r], a, new EqaContext(), EqaAgentThread.Idle.BLOCK, CALL_TIMEOUT, lingerNanos);
        }
        return d;
    }

    @Test
    void aClosedDomainsDropsReachTheJobsDropReport() throws Exception {
        DomainFactory[] f = new DomainFactory[2];
        EqaDomain[] d = twoOnLoopback(f, TimeUnit.SECONDS.toNanos(5));
        try (DatagramChannel stranger = DatagramChannel.open()) {
            stranger.send(ByteBuffer.wrap(new byte[] {1, 2, 3}), d[1].peer().port().localAddress());
        }
        allToAll(d); // closes both; the stranger's datagram was there before the first frame
        assertEquals(1, f[1].drops().get(DomainCounters.Counter.DROPPED_FOREIGN));
        assertEquals(0, f[0].drops().dropped());
    }

    @Test
    void closesFromTwoThreadsAtOnceReportTheDropsOnce() throws Exception {
        for (int round = 0; round < 5; round++) {
            DomainFactory[] f = new DomainFactory[2];
            EqaDomain[] d = twoOnLoopback(f, 0);
            try (DatagramChannel stranger = DatagramChannel.open()) {
                stranger.send(ByteBuffer.wrap(new byte[] {1, 2, 3}), d[1].peer().port().localAddress());
            }
            awaitCount(d[1].peer(), EqaCounters.Counter.DROPPED_FOREIGN, 1);
            java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(2);
            Runnable close = () -> {
                try {
                    together.await();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
                d[1].close();
            };
            Thread other = new Thread(close);
            other.start();
            close.run();
            other.join();
            d[0].close();
            assertEquals(1, f[1].drops().get(DomainCounters.Counter.DROPPED_FOREIGN), "round " + round);
        }
    }

    @Test
    void anAgentWhoseSocketCannotRegisterClosesItsSelector() throws Exception {
        java.nio.file.Path fds = java.nio.file.Path.of("/proc/self/fd");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(fds), "needs /proc/self/fd");
        DatagramChannel ch = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        java.net.SocketAddress self = ch.getLocalAddress();
        EqaPeer peer = new EqaPeer(new EqaContext(), 1, 0, new io.cohort.transport.fault.NioDatagramPort(ch),
                new java.net.SocketAddress[] {self, self}, null);
        ch.close(); // registering a closed channel throws
        long before;
        try (var s = java.nio.file.Files.list(fds)) {
            before = s.count();
        }
        for (int i = 0; i < 20; i++) {
            assertThrows(java.io.IOException.class, () -> new EqaAgentThread(peer));
        }
        long after;
        try (var s = java.nio.file.Files.list(fds)) {
            after = s.count();
        }
        assertTrue(after - before < 10, "descriptors before " + before + ", after 20 failed agents " + after);
    }

    @Test
    void everyBadSettingIsOneSentenceAndAllAreReported() {
        Properties p = new Properties();
        p.setProperty(EqaContext.MODE_PROP_NAME, "BOGUS");
        p.setProperty(EqaContext.WINDOW_PROP_NAME, "0");
        p.setProperty(EqaContext.BUFFER_DESIGN_PROP_NAME, "both");
        p.setProperty(EqaContext.RETRANSMIT_TIMEOUT_MICROS_PROP_NAME, "soon");
        p.setProperty("cohort.eqa.windw", "8");
        List<String> problems = EqaContext.problems(p);
        assertEquals(5, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("cohort.eqa.windw: no such EQA setting"), problems.get(0));
        assertTrue(problems.stream().anyMatch(s -> s.contains("cohort.eqa.mode = \"BOGUS\" is not one of")), problems.toString());
        assertTrue(problems.stream().anyMatch(s -> s.contains("cohort.eqa.window = 0 is out of range")), problems.toString());
        assertTrue(problems.stream().anyMatch(s -> s.contains("cohort.eqa.bufferDesign = \"both\"")), problems.toString());
        assertTrue(problems.stream().anyMatch(s -> s.contains("cohort.eqa.retransmitTimeoutMicros = \"soon\"")),
                problems.toString());
        for (String s : problems) {
            assertTrue(!s.contains("\n"), s);
        }
        assertEquals(List.of(), EqaContext.problems(new Properties()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EqaContext.from(p));
        assertEquals(problems.get(1), e.getMessage(), "from() throws the first problem of a known setting");
    }

    @Test
    void theProtocolIsNamedInAnyCaseAndANameItDoesNotKnowIsOneSentence() {
        assertEquals(BroadcastProtocol.PCODE, BroadcastProtocol.parse(null));
        assertEquals(BroadcastProtocol.PCODE, BroadcastProtocol.parse(" "));
        assertEquals(BroadcastProtocol.EQA, BroadcastProtocol.parse("EQA"));
        assertEquals(BroadcastProtocol.PCODE, BroadcastProtocol.parse("pcode"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BroadcastProtocol.parse("tree"));
        assertEquals("'tree' names no broadcast protocol; choose one of [pcode, eqa]", e.getMessage());
    }
}

package io.cohort.transport.shm;

import io.cohort.CohortException;
import io.cohort.Status;
import io.cohort.engine.ProgressEngine;
import io.cohort.idle.ParkingIdleStrategy;
import io.cohort.transport.tcp.TcpTransport;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The doorbell: a peer that sleeps waiting for shared-memory records, or for room in a full ring, is
 * woken by the peer that writes them or frees it. Both peers' idle strategy blocks at once for 30 s,
 * so without a ring nothing here finishes within the time limit: the limit is the assertion.
 */
@Isolated // sets a system property other tests' peers read: runs with no other class beside it
class ShmDoorbellTest {
    private static final long PARK_NANOS = TimeUnit.SECONDS.toNanos(30);
    private final ProgressEngine[] engines = new ProgressEngine[2];
    /**
     * One thread per task: the peers' connects wait for each other, and the common pool may have a
     * single worker on two cores (JDK 25 runs CompletableFuture's async tasks there even then).
     */
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final ShmTransport[] transports = new ShmTransport[2];

    private void start(int ringBytes) throws Exception {
        start(ringBytes, true);
    }

    /** Two peers over shared memory; with {@code doorbell} false, started with the doorbell switched off. */
    private void start(int ringBytes, boolean doorbell) throws Exception {
        long key = ThreadLocalRandom.current().nextLong();
        String jobId = "bell" + Long.toHexString(key & 0xFFFFFFFFL);
        Path dir = ShmSegmentFile.defaultDirectory();
        String[] names = {"rank 0", "rank 1"};
        if (!doorbell) {
            System.setProperty(ShmTransport.DOORBELL_PROP_NAME, "false");
        }
        CompletableFuture<?>[] connected = new CompletableFuture<?>[2];
        for (int r = 0; r < 2; r++) {
            int rank = r;
            long park = doorbell ? PARK_NANOS : TimeUnit.MILLISECONDS.toNanos(1); // timers wake the latter
            engines[r] = new ProgressEngine(r, 2, () -> new ParkingIdleStrategy(park));
            transports[r] = new ShmTransport(r, 2, key, jobId, dir, new int[] {1 - r}, ringBytes);
            connected[r] = CompletableFuture.runAsync(() -> {
                try {
                    transports[rank].connect(names, engines[rank], TcpTransport.CONNECT_TIMEOUT_NANOS_DEFAULT);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, threads);
        }
        try {
            CompletableFuture.allOf(connected).get(30, TimeUnit.SECONDS);
        } finally {
            System.clearProperty(ShmTransport.DOORBELL_PROP_NAME);
        }
        for (int r = 0; r < 2; r++) {
            assertEquals(doorbell, transports[r].hasDoorbell(), "loopback UDP works here, so only the switch takes the doorbell away");
            assertEquals(doorbell, transports[r].canBlock());
            engines[r].attach(transports[r], new int[] {1 - r});
        }
    }

    @AfterEach
    void stop() {
        threads.shutdownNow();
        for (ProgressEngine e : engines) {
            if (e != null) {
                e.abort();
            }
        }
        if (mixed != null) {
            for (ProgressEngine e : mixed) {
                if (e != null) {
                    e.abort();
                }
            }
        }
    }

    private ProgressEngine[] mixed;

    /** Waits (polling, with a deadline) until rank {@code r}'s progress owner is asleep on its doorbell. */
    private void awaitAsleep(int r) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (transports[r].doorbellSleeps() == 0) {
            assertTrue(System.nanoTime() - deadline < 0, "rank " + r + " never went to sleep");
            LockSupport.parkNanos(1_000_000);
        }
    }

    @Test
    @Timeout(10)
    void aSleepingReceiverIsRungByTheSender() throws Exception {
        start(ShmTransport.RING_BYTES_DEFAULT);
        CompletableFuture<Status> received = CompletableFuture.supplyAsync(
                () -> engines[1].receiveInto(0, 0, 7, ByteBuffer.allocate(16)), threads);
        awaitAsleep(1);
        engines[0].sendAndWait(1, 0, 7, ByteBuffer.wrap(new byte[] {1, 2, 3}));
        Status s = received.get(8, TimeUnit.SECONDS);
        assertEquals(3, s.length());
        assertTrue(transports[0].doorbellRingsSent() >= 1, "the sender rang");
        assertTrue(transports[1].doorbellWakes() >= 1, "the receiver woke by the ring");
        assertEquals(0, transports[1].doorbellStrangers(), "the ring came from the doorbell the sender's segment names");
    }

    @Test
    @Timeout(20)
    void aSenderAsleepForRoomIsRungByTheReceiverThatFreesIt() throws Exception {
        start(4096);
        byte[] big = new byte[256 * 1024];
        ThreadLocalRandom.current().nextBytes(big);
        ByteBuffer into = ByteBuffer.allocate(big.length);
        // The sender fills the 4 KiB ring while nobody receives, and sleeps for room; only then does
        // the receiver start, and its first consume must ring the sender awake.
        CompletableFuture<Long> sent = CompletableFuture.supplyAsync(
                () -> engines[0].sendAndWait(1, 0, 9, ByteBuffer.wrap(big)), threads);
        awaitAsleep(0);
        engines[1].receiveInto(0, 0, 9, into);
        sent.get(15, TimeUnit.SECONDS);
        assertArrayEquals(big, into.array());
        assertTrue(transports[0].doorbellWakes() >= 1, "a ring from the receiver woke the sender");
    }

    @Test
    @Timeout(20)
    void switchedOffThePeersParkOnTimersAndStillGetTheirMessages() throws Exception {
        start(ShmTransport.RING_BYTES_DEFAULT, false);
        CompletableFuture<Status> received = CompletableFuture.supplyAsync(
                () -> engines[1].receiveInto(0, 0, 3, ByteBuffer.allocate(16)), threads);
        engines[0].sendAndWait(1, 0, 3, ByteBuffer.wrap(new byte[] {9}));
        assertEquals(1, received.get(15, TimeUnit.SECONDS).length());
        assertEquals(0, transports[1].doorbellSleeps());
    }

    @Test
    void theSwitchTakesTrueOrFalseAndSaysSoToAnythingElse() {
        assertTrue(ShmTransport.doorbellWanted(null));
        assertTrue(ShmTransport.doorbellWanted("TRUE"));
        assertFalse(ShmTransport.doorbellWanted("false"));
        CohortException e = assertThrows(CohortException.class, () -> ShmTransport.doorbellWanted("yes"));
        assertEquals("cohort.shm.doorbell=yes must be true or false", e.getMessage());
    }

    /** {@code n} one-byte datagrams to {@code bell} from a socket that is no peer's doorbell. */
    private static void flood(ShmDoorbell bell, int n) throws Exception {
        try (java.nio.channels.DatagramChannel stranger = java.nio.channels.DatagramChannel.open(
                java.net.StandardProtocolFamily.INET)) {
            stranger.bind(ShmDoorbell.at(0));
            for (int i = 0; i < n; i++) {
                stranger.send(ByteBuffer.wrap(new byte[] {1}), ShmDoorbell.at(bell.port()));
            }
        }
    }

    /**
     * Anyone on the host may write to the doorbell's port: a wake reads at most
     * {@value ShmDoorbell#DRAIN_MAX} of a flood, counted as strangers', and leaves the rest for the
     * next wake, so a flood bounds no drain's return. 100 datagrams fit the socket's default buffer.
     */
    @Test
    @Timeout(10)
    void aStrangersFloodIsDrainedAtMost64AWake() throws Exception {
        try (ShmDoorbell bell = ShmDoorbell.open()) {
            assertTrue(bell != null, "loopback UDP works here");
            flood(bell, 100);
            bell.sleep(TimeUnit.SECONDS.toNanos(1)); // returns as soon as the first is readable
            bell.awake();
            assertTrue(bell.strangers() > 0 && bell.strangers() <= ShmDoorbell.DRAIN_MAX,
                    bell.strangers() + " datagrams read in one wake");
            assertEquals(0, bell.wakesByRing(), "a stranger's datagram is no ring");
            while (bell.strangers() < 100) { // the rest, in later wakes; a lost one would end at the time-out
                long before = bell.strangers();
                bell.sleep(TimeUnit.SECONDS.toNanos(1));
                bell.awake();
                assertTrue(bell.strangers() - before <= ShmDoorbell.DRAIN_MAX, "one wake read " + (bell.strangers() - before));
            }
            assertEquals(0, bell.wakesByRing());
        }
    }

    /** A peer's ring behind a stranger's flood still wakes the sleeper, within the wakes the flood takes. */
    @Test
    @Timeout(10)
    void aRealRingBehindAFloodStillWakesTheSleeper() throws Exception {
        try (ShmDoorbell bell = ShmDoorbell.open(); ShmDoorbell peer = ShmDoorbell.open()) {
            assertTrue(bell != null && peer != null, "loopback UDP works here");
            bell.expect(peer.port()); // as the peer's segment names it
            flood(bell, 100);
            peer.ring(ShmDoorbell.at(bell.port()));
            int wakes = 0;
            while (bell.wakesByRing() == 0) {
                bell.sleep(TimeUnit.SECONDS.toNanos(30)); // without a datagram pending, this would take 100 ms
                bell.awake();
                wakes++;
            }
            assertTrue(wakes <= 101 / ShmDoorbell.DRAIN_MAX + 1, "the ring took " + wakes + " wakes");
            assertEquals(1, bell.wakesByRing());
        }
    }

    /**
     * A host's shared memory beside TCP to another host, as {@code --transport auto} wires a
     * multi-host job: ranks 0 and 1 share memory, rank 2 is reached over TCP. Rank 0 sleeps in its
     * TCP selector, and the shared-memory ring from rank 1 must wake it there.
     */
    @Test
    @Timeout(20)
    void aRingWakesAnOwnerAsleepInTheTcpSelector() throws Exception {
        long key = ThreadLocalRandom.current().nextLong();
        io.cohort.auth.JobSecret secret = io.cohort.auth.JobSecret.generate();
        String jobId = "bellmix" + Long.toHexString(key & 0xFFFFFFFFL);
        Path dir = ShmSegmentFile.defaultDirectory();
        String[] names = {"rank 0", "rank 1", "rank 2"};
        mixed = new ProgressEngine[3];
        TcpTransport[] tcp = new TcpTransport[3];
        java.net.InetSocketAddress[] endpoints = new java.net.InetSocketAddress[3];
        for (int r = 0; r < 3; r++) {
            mixed[r] = new ProgressEngine(r, 3, () -> new ParkingIdleStrategy(PARK_NANOS));
            tcp[r] = new TcpTransport(r, 3, secret, new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
            endpoints[r] = tcp[r].localAddress();
        }
        ShmTransport[] shm = new ShmTransport[2];
        CompletableFuture<?>[] connected = new CompletableFuture<?>[3];
        for (int r = 0; r < 3; r++) {
            int rank = r;
            connected[r] = CompletableFuture.runAsync(() -> {
                try {
                    if (rank < 2) {
                        shm[rank] = new ShmTransport(rank, 3, key, jobId, dir, new int[] {1 - rank},
                                ShmTransport.RING_BYTES_DEFAULT);
                        shm[rank].connect(names, mixed[rank], TcpTransport.CONNECT_TIMEOUT_NANOS_DEFAULT);
                        mixed[rank].attach(shm[rank], new int[] {1 - rank});
                    }
                    boolean[] wanted = {true, true, true};
                    wanted[rank] = false;
                    if (rank < 2) {
                        wanted[1 - rank] = false;
                    }
                    tcp[rank].connect(endpoints, wanted, names, mixed[rank], TcpTransport.CONNECT_TIMEOUT_NANOS_DEFAULT);
                    mixed[rank].attach(tcp[rank], tcp[rank].peers());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, threads);
        }
        CompletableFuture.allOf(connected).get(15, TimeUnit.SECONDS);
        assertEquals("shm", mixed[0].transportName(1));
        assertEquals("tcp", mixed[0].transportName(2));
        CompletableFuture<Status> received = CompletableFuture.supplyAsync(
                () -> mixed[0].receiveInto(0, 1, 5, ByteBuffer.allocate(16)), threads);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (shm[0].doorbellSleeps() == 0) {
            assertTrue(System.nanoTime() - deadline < 0, "rank 0 never went to sleep");
            LockSupport.parkNanos(1_000_000);
        }
        mixed[1].sendAndWait(0, 0, 5, ByteBuffer.wrap(new byte[] {4, 2}));
        assertEquals(2, received.get(8, TimeUnit.SECONDS).length());
        assertTrue(shm[0].doorbellWakes() >= 1, "rank 0 woke by the ring");
    }
}

package io.cohort.transport.shm;

import io.cohort.CohortException;
import io.cohort.idle.PausableDeadline;
import io.cohort.transport.InboundSink;
import io.cohort.transport.SendCompletion;
import io.cohort.transport.Transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.file.Path;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Shared memory between the peers of one host.
 *
 * <p>Start-up ({@link #connect}), run by every local peer at once after the wire-up exchange:
 * <ol>
 *   <li>make the inbound segment from each local peer (published atomically, see {@link ShmSegmentFile});</li>
 *   <li>map the outbound segment to each local peer as soon as its file appears, and mark it attached;</li>
 *   <li>wait until every sender has attached to our inbound segments, then unlink them: from here on the
 *       memory lives only in the mappings, and no file outlives the processes.</li>
 * </ol>
 * No step waits for a later step of another peer, so the start-up cannot deadlock.
 *
 * <p>Rings cannot signal that a process died; the launcher's word does ({@link #peerGone}).
 */
public final class ShmTransport implements Transport {
    public static final String RING_BYTES_PROP_NAME = "cohort.shm.ringBytes";
    public static final int RING_BYTES_DEFAULT = ShmSegmentDescriptor.CAPACITY_DEFAULT;
    /** {@code false} turns the doorbell off: the peer then parks on a timer while it waits (for comparison). */
    public static final String DOORBELL_PROP_NAME = "cohort.shm.doorbell";

    private final int rank;
    private final long jobKey;
    private final String jobId;
    private final Path dir;
    private final int capacity;
    private final int[] localPeers;
    private final ShmConnection[] connections;
    private final Path[] inbound;
    /** Where the progress owner sleeps; null when loopback UDP does not work here (then it parks on a timer). */
    private ShmDoorbell bell;
    /** The collective segments of this peer's communicators, whose waits its sleeps must end. */
    private final CopyOnWriteArrayList<ShmCollectiveSegment> segments = new CopyOnWriteArrayList<>();

    public ShmTransport(int rank, int size, long jobKey, String jobId, Path dir, int[] localPeers, int capacity) {
        this.rank = rank;
        this.jobKey = jobKey;
        this.jobId = jobId;
        this.dir = dir;
        this.capacity = capacity;
        this.localPeers = localPeers.clone();
        this.connections = new ShmConnection[size];
        this.inbound = new Path[size];
    }

    /** Ring size from {@value #RING_BYTES_PROP_NAME}, a power of two, default 1 MiB. */
    public static int configuredRingBytes() {
        return ringBytes(System.getProperty(RING_BYTES_PROP_NAME));
    }

    /** The ring size {@value #RING_BYTES_PROP_NAME}={@code v} asks for (null: unset); a bad value is an error that says why. */
    public static int ringBytes(String v) {
        if (v == null) {
            return RING_BYTES_DEFAULT;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (Integer.bitCount(n) == 1 && n >= 4096) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the error
        }
        throw new CohortException(RING_BYTES_PROP_NAME + "=" + v + " must be a power of two of at least 4096");
    }

    /** The value of {@value #DOORBELL_PROP_NAME} (null: unset) as a yes or no; a bad one is an error that says why. */
    static boolean doorbellWanted(String v) {
        if (v == null || v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new CohortException(DOORBELL_PROP_NAME + "=" + v + " must be true or false");
    }

    public Path directory() {
        return dir;
    }

    public int[] peers() {
        return localPeers.clone();
    }

    public void connect(String[] peerNames, InboundSink sink, long timeoutNanos) throws IOException {
        PausableDeadline deadline = new PausableDeadline(timeoutNanos); // a suspended job's time is not counted
        MappedByteBuffer[] in = new MappedByteBuffer[connections.length];
        ShmRing[] consumers = new ShmRing[connections.length];
        try {
            bell = localPeers.length == 0 || !doorbellWanted(System.getProperty(DOORBELL_PROP_NAME)) ? null : ShmDoorbell.open();
            int bellPort = bell == null ? 0 : bell.port();
            for (int p : localPeers) {
                inbound[p] = ShmSegmentFile.path(dir, jobId, p, rank);
                in[p] = ShmSegmentFile.create(inbound[p], jobKey, p, rank, capacity, bellPort);
            }
            for (int p : localPeers) {
                Path out = ShmSegmentFile.path(dir, jobId, rank, p);
                MappedByteBuffer segment;
                while ((segment = ShmSegmentFile.open(out)) == null) {
                    waitOrFail(deadline, peerNames[p] + " did not create its shared-memory segment " + out);
                }
                ShmRing producer;
                try {
                    producer = ShmRing.attach(segment, jobKey, rank, p);
                } catch (IllegalStateException e) {
                    throw new IOException(out + " is not the segment it should be: " + e.getMessage());
                }
                producer.markSenderAttached();
                consumers[p] = ShmRing.attach(in[p], jobKey, p, rank);
                connections[p] = new ShmConnection(p, peerNames[p], consumers[p], producer, sink, bell);
            }
            for (int p : localPeers) {
                while (!consumers[p].senderAttached()) {
                    waitOrFail(deadline, peerNames[p] + " did not map its shared-memory segment to us");
                }
                ShmSegmentFile.unlink(inbound[p]);
                inbound[p] = null;
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private static void waitOrFail(PausableDeadline deadline, String what) throws IOException {
        if (deadline.remaining() <= 0) {
            throw new IOException(what + " in time; is it alive?");
        }
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
    }

    @Override
    public String name() {
        return "shm";
    }

    @Override
    public void send(int dest, int context, int tag, ByteBuffer payload, SendCompletion completion) {
        send(dest, context, tag, payload, payload.position(), payload.remaining(), completion);
    }

    @Override
    public void send(int dest, int context, int tag, ByteBuffer payload, int offset, int length,
                     SendCompletion completion) {
        ShmConnection c = connections[dest];
        if (c == null) {
            completion.failed(new CohortException("no shared-memory ring to rank " + dest));
            return;
        }
        try {
            c.send(context, tag, payload, offset, length, completion);
        } catch (InternalError e) {
            throw ShmPages.fault(dir, e);
        }
    }

    /**
     * Polls every ring. Their pages were reserved when they were made ({@link ShmPages}); a SIGBUS
     * reading one anyway fails with a sentence naming the directory instead of the JVM's.
     */
    @Override
    public int poll() {
        int work = 0;
        try {
            for (int p : localPeers) {
                ShmConnection c = connections[p];
                if (c != null) {
                    work += c.poll();
                }
            }
        } catch (InternalError e) {
            throw ShmPages.fault(dir, e);
        }
        return work;
    }

    @Override
    public boolean canBlock() {
        return bell != null;
    }

    /**
     * Sleeps on the doorbell (see {@link ShmDoorbell}): asks every local peer to ring, looks once
     * more, and sleeps only if that found nothing to do. Sleeps under
     * {@link Transport#WAKE_CHANNEL_MIN_SLEEP_NANOS}, and all of them without a doorbell, park on a
     * timer.
     */
    @Override
    public void block(long nanos) {
        ShmDoorbell b = bell;
        if (b == null || nanos < WAKE_CHANNEL_MIN_SLEEP_NANOS) {
            LockSupport.parkNanos(nanos);
            return;
        }
        try {
            if (prepareSleep() == 0) {
                b.sleep(nanos);
            }
        } catch (IOException e) {
            throw new CohortException("shared-memory doorbell failed: " + e.getMessage(), e);
        } finally {
            endSleep();
        }
    }

    @Override
    public SelectableChannel wakeChannel() {
        ShmDoorbell b = bell;
        return b == null ? null : b.channel();
    }

    /** Asks every local peer to ring us, then looks once more: what arrived before they could see that. */
    @Override
    public int prepareSleep() {
        ShmDoorbell b = bell;
        if (b != null) {
            for (int p : localPeers) {
                if (connections[p] != null) {
                    connections[p].arm();
                }
            }
            b.sleeping(); // after arming: whoever sees the count sees the words raised
        }
        int work = poll();
        for (ShmCollectiveSegment s : segments) {
            work += s.prepareSleep();
        }
        return work;
    }

    @Override
    public void endSleep() {
        ShmDoorbell b = bell;
        if (b == null) {
            return;
        }
        for (int p : localPeers) {
            if (connections[p] != null) {
                connections[p].disarm();
            }
        }
        for (ShmCollectiveSegment s : segments) {
            s.endSleep();
        }
        try {
            b.awake();
        } catch (IOException e) {
            throw new CohortException("shared-memory doorbell failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void wakeup() {
        ShmDoorbell b = bell;
        if (b != null) {
            b.wakeup();
        }
    }

    /** Rings this peer's senders sent to sleeping receivers (for tests). */
    public long doorbellRingsSent() {
        return bell == null ? 0 : bell.ringsSent();
    }

    /** Sleeps of this peer's progress owner that a ring ended. */
    public long doorbellWakes() {
        return bell == null ? 0 : bell.wakesByRing();
    }

    /** Sleeps of this peer's progress owner on its doorbell. */
    public long doorbellSleeps() {
        return bell == null ? 0 : bell.sleeps();
    }

    /** Datagrams on this peer's doorbell from no local peer's doorbell: another local user's, say. */
    public long doorbellStrangers() {
        return bell == null ? 0 : bell.strangers();
    }

    /** Whether the peer sleeps on a doorbell rather than a timer. */
    public boolean hasDoorbell() {
        return bell != null;
    }

    // ---- collective segments ---------------------------------------------------------------------

    /**
     * Makes the collective segment {@code name} of this job for a communicator of {@code members}
     * on this host, this peer being member {@code member}; the others {@link #openCollectiveSegment}
     * it once told. Its sleeps now also end when the segment's wait is over.
     */
    public ShmCollectiveSegment createCollectiveSegment(String name, int members, int member, int areaBytes,
                                                        int context) throws IOException {
        ShmCollectiveSegment s = ShmCollectiveSegment.create(ShmSegmentFile.collectivePath(dir, jobId, name), jobKey,
                members, member, areaBytes, context, this);
        return attached(s);
    }

    /** Maps the collective segment {@code name} another member made; see {@link #createCollectiveSegment}. */
    public ShmCollectiveSegment openCollectiveSegment(String name, int members, int member, int context)
            throws IOException {
        ShmCollectiveSegment s = ShmCollectiveSegment.open(ShmSegmentFile.collectivePath(dir, jobId, name), jobKey,
                members, member, context, this);
        return attached(s);
    }

    private ShmCollectiveSegment attached(ShmCollectiveSegment s) {
        ShmDoorbell b = bell;
        s.announceDoorbell(b == null ? 0 : b.port());
        segments.add(s);
        return s;
    }

    /** A collective segment's member rings us from the doorbell at {@code port}: its rings are not a stranger's. */
    void expectRing(int port) {
        ShmDoorbell b = bell;
        if (b != null) {
            b.expect(port);
        }
    }

    /** Rings a member of a collective segment that sleeps; nothing without a doorbell (it wakes on its timer). */
    void ring(InetSocketAddress to) {
        ShmDoorbell b = bell;
        if (b != null) {
            b.ring(to);
        }
    }

    void forget(ShmCollectiveSegment s) {
        segments.remove(s);
    }

    @Override
    public void peerGone(int peer, String reason) {
        ShmConnection c = connections[peer];
        if (c != null) {
            c.peerGone(reason);
        }
    }

    @Override
    public void startClose() {
        for (int p : localPeers) {
            if (connections[p] != null) {
                connections[p].sendBye();
            }
        }
    }

    @Override
    public boolean isCloseComplete() {
        for (int p : localPeers) {
            if (connections[p] != null && !connections[p].isCloseComplete()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        for (int p : localPeers) {
            if (connections[p] != null) {
                connections[p].endQuietly();
            }
            if (inbound[p] != null) {
                ShmSegmentFile.unlink(inbound[p]);
            }
        }
        if (bell != null) {
            bell.close();
        }
        // The mappings go with the buffers when they are collected; unmapping by hand would need Unsafe.
    }
}

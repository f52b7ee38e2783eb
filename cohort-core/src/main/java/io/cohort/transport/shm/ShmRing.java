package io.cohort.transport.shm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.cohort.transport.shm.ShmSegmentDescriptor.CAPACITY_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.CONSUMER_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.DATA_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.JOB_KEY_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.MAGIC;
import static io.cohort.transport.shm.ShmSegmentDescriptor.MAGIC_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.PRODUCER_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.RECEIVER_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.RECEIVER_WAITING_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.SENDER_ATTACHED_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.SENDER_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.VERSION;
import static io.cohort.transport.shm.ShmSegmentDescriptor.VERSION_OFFSET;

/**
 * A lock-free single-producer single-consumer byte stream over a {@link ShmSegmentDescriptor}
 * segment (PSE's producer and consumer indexes). The sender only writes ring bytes and the producer
 * position; the receiver only advances the consumer position. One {@code ShmRing} object is used
 * by one side only: the producer side calls {@link #write}, the consumer side {@link #read}.
 *
 * <p>Ordering, in the style of JCTools: accessor names say the ordering. Each side caches the other
 * side's position and re-reads it (acquire) only when the cached value says the ring is full or
 * empty, so the hot path touches the other side's cache line as rarely as possible.
 */
public final class ShmRing {
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final ByteBuffer segment;
    private final ByteBuffer data;
    private final int capacity;
    private final int mask;

    // Producer-side state.
    private long producerPosition;
    private long cachedConsumer;
    // Consumer-side state.
    private long consumerPosition;
    private long cachedProducer;

    private ShmRing(ByteBuffer segment) {
        this.segment = segment;
        this.capacity = segment.duplicate().order(ByteOrder.nativeOrder()).getInt(CAPACITY_OFFSET);
        this.mask = capacity - 1;
        ByteBuffer d = segment.duplicate();
        d.position(DATA_OFFSET).limit(DATA_OFFSET + capacity);
        this.data = d.slice();
        // Plain reads are enough: a side attaches before any traffic, and positions start where they are.
        this.producerPosition = (long) LONG.getAcquire(segment, PRODUCER_OFFSET);
        this.consumerPosition = (long) LONG.getAcquire(segment, CONSUMER_OFFSET);
        this.cachedConsumer = consumerPosition;
        this.cachedProducer = producerPosition;
    }

    /** Writes a fresh header into a zeroed segment of {@link ShmSegmentDescriptor#segmentBytes} bytes. */
    public static void format(ByteBuffer segment, long jobKey, int sender, int receiver, int capacity) {
        if (Integer.bitCount(capacity) != 1 || capacity < 64) {
            throw new IllegalArgumentException("ring capacity must be a power of two >= 64, not " + capacity);
        }
        ByteBuffer b = segment.duplicate().order(ByteOrder.nativeOrder());
        b.putLong(JOB_KEY_OFFSET, jobKey);
        b.putInt(VERSION_OFFSET, VERSION);
        b.putInt(SENDER_OFFSET, sender);
        b.putInt(RECEIVER_OFFSET, receiver);
        b.putInt(CAPACITY_OFFSET, capacity);
        LONG.setRelease(segment, PRODUCER_OFFSET, 0L);
        LONG.setRelease(segment, CONSUMER_OFFSET, 0L);
        // Release: the header fields above are complete before a reader can see the magic.
        LONG.setRelease(segment, MAGIC_OFFSET, MAGIC);
    }

    /**
     * Opens a formatted segment, checking that it is this job's ring from {@code sender} to
     * {@code receiver}; a stale or foreign file is refused with the reason.
     */
    public static ShmRing attach(ByteBuffer segment, long jobKey, int sender, int receiver) {
        ByteBuffer b = segment.duplicate().order(ByteOrder.nativeOrder());
        // Acquire: pairs with the release of the magic in format().
        long magic = (long) LONG.getAcquire(segment, MAGIC_OFFSET);
        if (magic != MAGIC || b.getInt(VERSION_OFFSET) != VERSION) {
            throw new IllegalStateException("not a Cohort ring segment (or another layout version)");
        }
        if (b.getLong(JOB_KEY_OFFSET) != jobKey) {
            throw new IllegalStateException("segment belongs to another job");
        }
        if (b.getInt(SENDER_OFFSET) != sender || b.getInt(RECEIVER_OFFSET) != receiver) {
            throw new IllegalStateException("segment is the ring from rank " + b.getInt(SENDER_OFFSET) + " to rank "
                    + b.getInt(RECEIVER_OFFSET) + ", not " + sender + " to " + receiver);
        }
        int capacity = b.getInt(CAPACITY_OFFSET);
        if (Integer.bitCount(capacity) != 1 || (long) DATA_OFFSET + capacity > segment.capacity()) {
            throw new IllegalStateException("segment header has an impossible capacity " + capacity);
        }
        return new ShmRing(segment);
    }

    public int capacity() {
        return capacity;
    }

    // ---- producer side -----------------------------------------------------------------------

    /** Copies as many bytes as fit from {@code src} into the ring; returns how many (0 when full). */
    public int write(ByteBuffer src) {
        int wanted = src.remaining();
        if (wanted == 0) {
            return 0;
        }
        long free = capacity - (producerPosition - cachedConsumer);
        if (free < wanted) {
            // Acquire: the consumer's copy-out of the bytes it freed happened before we overwrite them.
            cachedConsumer = (long) LONG.getAcquire(segment, CONSUMER_OFFSET);
            free = capacity - (producerPosition - cachedConsumer);
            if (free == 0) {
                return 0;
            }
        }
        int n = (int) Math.min(free, wanted);
        int at = (int) (producerPosition & mask);
        int first = Math.min(n, capacity - at);
        copyIn(src, at, first);
        if (first < n) {
            copyIn(src, 0, n - first);
        }
        producerPosition += n;
        // Release: the ring bytes written above are visible before the position that covers them.
        LONG.setRelease(segment, PRODUCER_OFFSET, producerPosition);
        return n;
    }

    private void copyIn(ByteBuffer src, int at, int n) {
        data.put(at, src, src.position(), n);
        src.position(src.position() + n);
    }

    /** Bytes the producer could write now without re-reading the consumer position. */
    public long freeForProducer() {
        cachedConsumer = (long) LONG.getAcquire(segment, CONSUMER_OFFSET);
        return capacity - (producerPosition - cachedConsumer);
    }

    /** The sender announces it has mapped the segment, so the receiver may unlink the file. */
    public void markSenderAttached() {
        // Release: nothing to publish but the flag itself; release is the cheapest ordered store.
        INT.setRelease(segment, SENDER_ATTACHED_OFFSET, 1);
    }

    /** Whether the receiver said it is about to block; read after a full fence (see {@link #markWaiting}). */
    public boolean receiverWaiting() {
        // Volatile: pairs with the receiver's volatile store; with the fence in the caller this is Dekker's handshake.
        return (int) INT.getVolatile(segment, RECEIVER_WAITING_OFFSET) != 0;
    }

    // ---- consumer side -----------------------------------------------------------------------

    /** Bytes ready for the consumer. */
    public long available() {
        long avail = cachedProducer - consumerPosition;
        if (avail == 0) {
            // Acquire: the bytes covered by the producer position are visible once we see it.
            cachedProducer = (long) LONG.getAcquire(segment, PRODUCER_OFFSET);
            avail = cachedProducer - consumerPosition;
        }
        return avail;
    }

    /** Copies up to {@code dst.remaining()} available bytes into {@code dst}; returns how many. */
    public int read(ByteBuffer dst) {
        int wanted = dst.remaining();
        if (wanted == 0) {
            return 0;
        }
        long avail = cachedProducer - consumerPosition;
        if (avail < wanted) {
            cachedProducer = (long) LONG.getAcquire(segment, PRODUCER_OFFSET);
            avail = cachedProducer - consumerPosition;
            if (avail == 0) {
                return 0;
            }
        }
        int n = (int) Math.min(avail, wanted);
        int at = (int) (consumerPosition & mask);
        int first = Math.min(n, capacity - at);
        copyOut(dst, at, first);
        if (first < n) {
            copyOut(dst, 0, n - first);
        }
        consumerPosition += n;
        // Release: our copy-out of these bytes is done before the producer may overwrite them.
        LONG.setRelease(segment, CONSUMER_OFFSET, consumerPosition);
        return n;
    }

    private void copyOut(ByteBuffer dst, int at, int n) {
        dst.put(dst.position(), data, at, n);
        dst.position(dst.position() + n);
    }

    public boolean senderAttached() {
        // Acquire: pairs with the sender's release in markSenderAttached.
        return (int) INT.getAcquire(segment, SENDER_ATTACHED_OFFSET) != 0;
    }

    /**
     * The consumer announces it is about to block ({@code true}) or is awake again. Volatile, then
     * the caller re-checks {@link #available()}: with the producer's write, fence and
     * {@link #receiverWaiting()} this means a producer either sees the flag or the consumer sees the
     * bytes, never neither.
     */
    public void markWaiting(boolean waiting) {
        INT.setVolatile(segment, RECEIVER_WAITING_OFFSET, waiting ? 1 : 0);
    }
}

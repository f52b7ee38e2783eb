package io.cohort.transport.shm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.cohort.transport.shm.ShmRecordDescriptor.ALIGNMENT;
import static io.cohort.transport.shm.ShmRecordDescriptor.CONTEXT_OFFSET;
import static io.cohort.transport.shm.ShmRecordDescriptor.FLAGS_OFFSET;
import static io.cohort.transport.shm.ShmRecordDescriptor.HEADER_LENGTH;
import static io.cohort.transport.shm.ShmRecordDescriptor.MESSAGE_LENGTH_OFFSET;
import static io.cohort.transport.shm.ShmRecordDescriptor.RECORD_LENGTH_OFFSET;
import static io.cohort.transport.shm.ShmRecordDescriptor.RESERVED_OFFSET;
import static io.cohort.transport.shm.ShmRecordDescriptor.TAG_OFFSET;
import static io.cohort.transport.shm.ShmRecordDescriptor.TYPE_OFFSET;
import static io.cohort.transport.shm.ShmRecordDescriptor.TYPE_PADDING;
import static io.cohort.transport.shm.ShmSegmentDescriptor.CAPACITY_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.CONSUMER_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.DATA_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.DOORBELL_PORT_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.JOB_KEY_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.MAGIC;
import static io.cohort.transport.shm.ShmSegmentDescriptor.MAGIC_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.PRODUCER_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.RECEIVER_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.RECEIVER_WAITING_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.SENDER_ATTACHED_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.SENDER_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.SENDER_WAITING_OFFSET;
import static io.cohort.transport.shm.ShmSegmentDescriptor.VERSION;
import static io.cohort.transport.shm.ShmSegmentDescriptor.VERSION_OFFSET;

/**
 * A lock-free single-producer single-consumer ring of records ({@link ShmRecordDescriptor}) over
 * one {@link ShmSegmentDescriptor} segment: PSE's producer and consumer indexes, with each record
 * published by its own length word so that a receiver polls the very cache line the data is in.
 * The sender only writes records and the producer position; the receiver only advances the
 * consumer position. One {@code ShmRing} object serves one side: the producer calls
 * {@link #offer}, the consumer {@link #poll} and {@link #consume}.
 *
 * <pre>
 *   producer                                        consumer
 *   header, payload (plain)                         len = getAcquire(length @ consumer)
 *   length @ next record := 0 (plain)               if len != 0: read header + payload (plain)
 *   length @ record := len (setRelease)  ───────►   consumer position += aligned(len) (setRelease)
 *   producer position (setRelease, for tools)       ◄─── producer re-reads it (getAcquire) only when full
 * </pre>
 *
 * Ordering, in the style of JCTools: accessor names say the ordering, and each choice carries its
 * reason where it is made. The producer caches the consumer position and re-reads it only when
 * the ring looks full, so in steady state the two sides share only the cache lines of the records.
 */
public final class ShmRing {
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final ByteBuffer segment;
    private final ByteBuffer data;
    private final int capacity;
    private final int mask;
    private final int maxPayload;
    private final int doorbellPort;

    // Producer-side state.
    private long producerPosition;
    private long cachedConsumer;
    // Consumer-side state.
    private long consumerPosition;

    private ShmRing(ByteBuffer segment) {
        this.segment = segment;
        this.capacity = segment.duplicate().order(ByteOrder.nativeOrder()).getInt(CAPACITY_OFFSET);
        this.doorbellPort = segment.duplicate().order(ByteOrder.nativeOrder()).getInt(DOORBELL_PORT_OFFSET);
        this.mask = capacity - 1;
        ByteBuffer d = segment.duplicate();
        d.position(DATA_OFFSET).limit(DATA_OFFSET + capacity);
        this.data = d.slice().order(ByteOrder.nativeOrder());
        // The largest record leaves room for its terminator and a padding record at the end of a lap.
        this.maxPayload = capacity / 4 - HEADER_LENGTH;
        // Acquire: a side attaches before any traffic, but a reattaching tool must see where things are.
        this.producerPosition = (long) LONG.getAcquire(segment, PRODUCER_OFFSET);
        this.consumerPosition = (long) LONG.getAcquire(segment, CONSUMER_OFFSET);
        this.cachedConsumer = consumerPosition;
    }

    /** Writes a fresh header into a zeroed segment of {@link ShmSegmentDescriptor#segmentBytes} bytes. */
    public static void format(ByteBuffer segment, long jobKey, int sender, int receiver, int capacity) {
        format(segment, jobKey, sender, receiver, capacity, 0);
    }

    /**
     * As {@link #format(ByteBuffer, long, int, int, int)}, naming the receiver's doorbell: the
     * loopback UDP port its progress owner sleeps on (0: none, the receiver polls on a timer).
     */
    public static void format(ByteBuffer segment, long jobKey, int sender, int receiver, int capacity,
                              int doorbellPort) {
        if (Integer.bitCount(capacity) != 1 || capacity < 1024) {
            throw new IllegalArgumentException("ring capacity must be a power of two >= 1024, not " + capacity);
        }
        ByteBuffer b = segment.duplicate().order(ByteOrder.nativeOrder());
        b.putLong(JOB_KEY_OFFSET, jobKey);
        b.putInt(VERSION_OFFSET, VERSION);
        b.putInt(SENDER_OFFSET, sender);
        b.putInt(RECEIVER_OFFSET, receiver);
        b.putInt(CAPACITY_OFFSET, capacity);
        b.putInt(DOORBELL_PORT_OFFSET, doorbellPort);
        INT.setRelease(segment, RECEIVER_WAITING_OFFSET, 0);
        INT.setRelease(segment, SENDER_WAITING_OFFSET, 0);
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
        if (Integer.bitCount(capacity) != 1 || capacity < 1024 || (long) DATA_OFFSET + capacity > segment.capacity()) {
            throw new IllegalStateException("segment header has an impossible capacity " + capacity);
        }
        return new ShmRing(segment);
    }

    public int capacity() {
        return capacity;
    }

    /** The largest payload one record carries; longer messages are split into fragments. */
    public int maxPayload() {
        return maxPayload;
    }

    // ---- producer side -----------------------------------------------------------------------

    /**
     * Writes one record with {@code length} payload bytes taken from {@code src} at absolute index
     * {@code srcIndex} (the buffer's position is not used or changed). Returns false, writing
     * nothing, when the ring has no room for it now.
     */
    public boolean offer(short type, int context, int tag, int messageLength, ByteBuffer src, int srcIndex, int length) {
        if (length < 0 || length > maxPayload) {
            throw new IllegalArgumentException("record payload of " + length + " bytes; at most " + maxPayload);
        }
        int recordLength = HEADER_LENGTH + length;
        int aligned = ShmRecordDescriptor.aligned(recordLength);
        int at = (int) (producerPosition & mask);
        int toEnd = capacity - at;
        int padding = aligned > toEnd ? toEnd : 0;
        // Room for the padding, the record, and the next record's length word that we zero.
        long needed = (long) padding + aligned + ALIGNMENT;
        if (capacity - (producerPosition - cachedConsumer) < needed) {
            // Acquire: the consumer finished reading the bytes it freed before we overwrite them.
            cachedConsumer = (long) LONG.getAcquire(segment, CONSUMER_OFFSET);
            if (capacity - (producerPosition - cachedConsumer) < needed) {
                return false;
            }
        }
        if (padding > 0) {
            // The consumer goes to offset 0 after the padding: clear the stale length there first.
            data.putInt(RECORD_LENGTH_OFFSET, 0);
            data.putShort(at + TYPE_OFFSET, TYPE_PADDING);
            // Release: the zero at offset 0 and the padding's type are visible before its length.
            INT.setRelease(data, at + RECORD_LENGTH_OFFSET, padding);
            producerPosition += padding;
            at = 0;
        }
        data.putShort(at + TYPE_OFFSET, type);
        data.putShort(at + FLAGS_OFFSET, (short) 0);
        data.putInt(at + CONTEXT_OFFSET, context);
        data.putInt(at + TAG_OFFSET, tag);
        data.putInt(at + MESSAGE_LENGTH_OFFSET, messageLength);
        data.putInt(at + RESERVED_OFFSET, 0);
        if (length > 0) {
            data.put(at + HEADER_LENGTH, src, srcIndex, length);
        }
        // The consumer reads the next position right after this record: it must not hold a stale length.
        data.putInt((at + aligned) & mask, 0);
        // Release: header, payload and the zeroed next length are visible before the length publishes them.
        INT.setRelease(data, at + RECORD_LENGTH_OFFSET, recordLength);
        producerPosition += aligned;
        // Release: only for tools and wake-up decisions; the consumer's hot path reads record lengths.
        LONG.setRelease(segment, PRODUCER_OFFSET, producerPosition);
        return true;
    }

    /** The sender announces it has mapped the segment, so the receiver may unlink the file. */
    public void markSenderAttached() {
        // Release: nothing to publish but the flag itself; release is the cheapest ordered store.
        INT.setRelease(segment, SENDER_ATTACHED_OFFSET, 1);
    }

    // ---- consumer side -----------------------------------------------------------------------

    /**
     * The data index of the next published record, or -1 if there is none yet. Padding records
     * are consumed on the way. The record stays in the ring until {@link #consume}.
     */
    public int poll() {
        int at = (int) (consumerPosition & mask);
        // Acquire: pairs with the producer's release of the length; the record's bytes are visible after.
        int length = (int) INT.getAcquire(data, at + RECORD_LENGTH_OFFSET);
        if (length == 0) {
            return -1;
        }
        if (data.getShort(at + TYPE_OFFSET) == TYPE_PADDING) {
            if (length != capacity - at) {
                return MALFORMED;
            }
            advance(length);
            at = 0;
            length = (int) INT.getAcquire(data, RECORD_LENGTH_OFFSET);
            if (length == 0) {
                return -1;
            }
        }
        if (length < HEADER_LENGTH || ShmRecordDescriptor.aligned(length) > capacity - at) {
            return MALFORMED;
        }
        return at;
    }

    /** What {@link #poll} returns for a record no correct producer writes: the ring cannot be trusted. */
    public static final int MALFORMED = -2;

    /** Frees the record at {@code at} (from {@link #poll}) for the producer. */
    public void consume(int at) {
        advance(ShmRecordDescriptor.aligned(data.getInt(at + RECORD_LENGTH_OFFSET)));
    }

    private void advance(int bytes) {
        consumerPosition += bytes;
        // Release: our reads of the consumed bytes are done before the producer may overwrite them.
        LONG.setRelease(segment, CONSUMER_OFFSET, consumerPosition);
    }

    public short type(int at) {
        return data.getShort(at + TYPE_OFFSET);
    }

    public int context(int at) {
        return data.getInt(at + CONTEXT_OFFSET);
    }

    public int tag(int at) {
        return data.getInt(at + TAG_OFFSET);
    }

    public int messageLength(int at) {
        return data.getInt(at + MESSAGE_LENGTH_OFFSET);
    }

    public int payloadLength(int at) {
        return data.getInt(at + RECORD_LENGTH_OFFSET) - HEADER_LENGTH;
    }

    /** Index in {@link #data()} of the record's first payload byte. */
    public int payloadIndex(int at) {
        return at + HEADER_LENGTH;
    }

    /** The ring's data area (shared; use absolute indexes only). */
    public ByteBuffer data() {
        return data;
    }

    /** True when the consumer has read everything the producer published (for tests and tools). */
    public boolean isEmpty() {
        // Acquire: a tool's view of the producer position, with the records it covers.
        return (long) LONG.getAcquire(segment, PRODUCER_OFFSET) == consumerPosition;
    }

    /** Producer: bytes published so far (records and padding); grows whenever anything went in. */
    public long producedBytes() {
        return producerPosition;
    }

    // ---- the doorbell word (see ShmSegmentDescriptor) ------------------------------------------

    /** The receiver's doorbell port written by the segment's creator, 0 if it has none. */
    public int doorbellPort() {
        return doorbellPort;
    }

    /**
     * Consumer, before it sleeps: asks the producer to ring. Volatile (a full fence on x86), so a
     * {@link #hasRecord} that follows cannot be satisfied before the producer can see the request.
     */
    public void armDoorbell() {
        INT.setVolatile(segment, RECEIVER_WAITING_OFFSET, 1);
    }

    /** Consumer, awake again: no more rings, please. */
    public void disarmDoorbell() {
        INT.setOpaque(segment, RECEIVER_WAITING_OFFSET, 0);
    }

    /** Consumer: whether a record (of any type) is published at the read position; no side effects. */
    public boolean hasRecord() {
        return (int) INT.getVolatile(data, (int) (consumerPosition & mask) + RECORD_LENGTH_OFFSET) != 0;
    }

    /**
     * Producer, after publishing and finding {@link #receiverWaiting}: true exactly once per sleep
     * of the consumer; the caller then rings. The check before it is an acquire load, not volatile,
     * to keep a fence off every send: in the rare race where the consumer arms just as a record
     * goes in, neither side sees the other, and the consumer wakes at its sleep's time-out instead
     * (the doorbell bounds it).
     */
    public boolean takeDoorbell() {
        return INT.compareAndSet(segment, RECEIVER_WAITING_OFFSET, 1, 0);
    }

    /** Producer: whether the consumer asked for a ring (then {@link #takeDoorbell}); one acquire load. */
    public boolean receiverWaiting() {
        return (int) INT.getAcquire(segment, RECEIVER_WAITING_OFFSET) != 0;
    }

    /** Producer, before it sleeps with records queued for want of room: asks the consumer to ring. */
    public void armRoomBell() {
        INT.setVolatile(segment, SENDER_WAITING_OFFSET, 1);
    }

    /** Producer, awake again. */
    public void disarmRoomBell() {
        INT.setOpaque(segment, SENDER_WAITING_OFFSET, 0);
    }

    /** Consumer, after freeing room: true once per sleep of a producer that asked; the caller rings it. */
    public boolean takeRoomBell() {
        return (int) INT.getAcquire(segment, SENDER_WAITING_OFFSET) != 0
                && INT.compareAndSet(segment, SENDER_WAITING_OFFSET, 1, 0);
    }

    public boolean senderAttached() {
        // Acquire: pairs with the sender's release in markSenderAttached.
        return (int) INT.getAcquire(segment, SENDER_ATTACHED_OFFSET) != 0;
    }
}

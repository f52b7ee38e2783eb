package io.cohort.transport.shm;

/**
 * The layout of one shared-memory segment: a single-producer single-consumer ring of records
 * ({@link ShmRecordDescriptor}) carrying messages from one peer (the sender) to another (the
 * receiver). The two position words sit on separate cache lines so the producer and the consumer
 * never write the same line. Native byte order (both ends are on one machine).
 *
 * <pre>
 *  offset  size  field                written by   how
 *       0     8  magic "COHSHM01"     creator      plain, before the file is published
 *       8     8  job key              creator      plain, before the file is published
 *      16     4  layout version       creator      plain
 *      20     4  sender rank          creator      plain
 *      24     4  receiver rank        creator      plain
 *      28     4  ring capacity        creator      plain (a power of two)
 *      64     8  producer position    sender       setRelease after each record (for tools; the
 *                                                   consumer polls each record's own length word)
 *     128     8  consumer position    receiver     setRelease after the bytes were copied out
 *     192     4  sender attached      sender       setRelease once it has mapped the file
 *     256     4  receiver waiting     receiver     setVolatile 1 before it sleeps, 0 after; the
 *                                                   sender clears it by CAS and rings the doorbell
 *     260     4  doorbell port        creator      plain: the receiver's loopback UDP port, 0 if none
 *     264     4  sender waiting       sender       setVolatile 1 before it sleeps with records queued
 *                                                   for want of room, 0 after; the receiver clears it
 *                                                   by CAS after consuming and rings the sender
 *    4096     -  ring data            sender       plain, published by the producer position
 * </pre>
 *
 * Positions count bytes since the start and never wrap; a byte at position p lives at data offset
 * {@code p & (capacity - 1)}. The producer may write while {@code producer - consumer < capacity},
 * keeping one alignment unit free for the zeroed length word that ends every record.
 */
public final class ShmSegmentDescriptor {
    public static final long MAGIC = 0x31304D4853484F43L; // "COHSHM01" read little-endian
    public static final int VERSION = 3;

    public static final int MAGIC_OFFSET = 0;
    public static final int JOB_KEY_OFFSET = 8;
    public static final int VERSION_OFFSET = 16;
    public static final int SENDER_OFFSET = 20;
    public static final int RECEIVER_OFFSET = 24;
    public static final int CAPACITY_OFFSET = 28;
    public static final int PRODUCER_OFFSET = 64;
    public static final int CONSUMER_OFFSET = 128;
    public static final int SENDER_ATTACHED_OFFSET = 192;
    public static final int RECEIVER_WAITING_OFFSET = 256;
    public static final int DOORBELL_PORT_OFFSET = 260;
    public static final int SENDER_WAITING_OFFSET = 264;
    public static final int DATA_OFFSET = 4096;

    /** Default ring size per ordered pair. */
    public static final int CAPACITY_DEFAULT = 1 << 20;

    private ShmSegmentDescriptor() {
    }

    public static long segmentBytes(int capacity) {
        return (long) DATA_OFFSET + capacity;
    }
}

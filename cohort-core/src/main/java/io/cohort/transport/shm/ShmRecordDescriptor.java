package io.cohort.transport.shm;

/**
 * The layout of one record in a shared-memory ring ({@link ShmRing}). Native byte order (both
 * ends are on one machine), every record starts on a {@link #ALIGNMENT}-byte boundary so its
 * header never straddles a cache line, and a record never wraps around the end of the ring (the
 * producer fills the tail with a {@link #TYPE_PADDING} record instead).
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |        record length: header + payload bytes (int32)          |  0  written last, setRelease;
 *  +-------------------------------+-------------------------------+      0 = not published yet
 *  |          type (int16)         |         flags (int16)         |  4
 *  +-------------------------------+-------------------------------+
 *  |                   communicator context (int32)                |  8
 *  +---------------------------------------------------------------+
 *  |                           tag (int32)                         | 12
 *  +---------------------------------------------------------------+
 *  |        message length: all fragments' payload (int32)         | 16
 *  +---------------------------------------------------------------+
 *  |                        reserved, 0 (int32)                    | 20
 *  +---------------------------------------------------------------+
 *  |                 payload (record length - 24 bytes) ...        | 24
 * </pre>
 *
 * A message that fits one record is a {@link #TYPE_MESSAGE}; a longer one is a
 * {@link #TYPE_FIRST} record carrying its context, tag and total length, followed by
 * {@link #TYPE_MORE} records (context, tag and message length 0) until the payload is complete.
 * {@link #TYPE_BYE} (no payload) says the sender will write nothing more.
 *
 * <p>Publication: the producer writes the header fields and the payload with plain stores, then
 * zeroes the record length word of the <em>next</em> record position, then stores this record's
 * length with release. A consumer that sees the length (acquire) sees the whole record and finds
 * either 0 or a newer record at the next position, never a stale length from an earlier lap, so
 * the consumer never has to clear what it consumed.
 */
public final class ShmRecordDescriptor {
    public static final int RECORD_LENGTH_OFFSET = 0;
    public static final int TYPE_OFFSET = 4;
    public static final int FLAGS_OFFSET = 6;
    public static final int CONTEXT_OFFSET = 8;
    public static final int TAG_OFFSET = 12;
    public static final int MESSAGE_LENGTH_OFFSET = 16;
    public static final int RESERVED_OFFSET = 20;
    public static final int HEADER_LENGTH = 24;

    /** Records start on multiples of this; 32 keeps a 24-byte header inside one 64-byte cache line. */
    public static final int ALIGNMENT = 32;

    public static final short TYPE_PADDING = 1;
    public static final short TYPE_MESSAGE = 2;
    public static final short TYPE_FIRST = 3;
    public static final short TYPE_MORE = 4;
    public static final short TYPE_BYE = 5;

    private ShmRecordDescriptor() {
    }

    /** The space a record of {@code recordLength} bytes takes in the ring. */
    public static int aligned(int recordLength) {
        return (recordLength + ALIGNMENT - 1) & -ALIGNMENT;
    }

    public static boolean isKnownType(short type) {
        return type >= TYPE_PADDING && type <= TYPE_BYE;
    }
}

package io.cohort.transport.shm;

/**
 * The layout of a communicator's collective segment: memory that all its peers on one host map,
 * through which the shared-memory collectives move data once in and once out, and whose phase
 * words tell each peer how far every other one has got. Native byte order (one machine).
 *
 * <pre>
 *  offset            size  field                 written by   how
 *       0               8  magic "COHCOL01"      creator      setRelease, after the fields below
 *       8               8  job key               creator      plain, before the file is published
 *      16               4  layout version        creator      plain
 *      20               4  members (N)           creator      plain
 *      24               4  area bytes (A)        creator      plain (a multiple of 64)
 *      28               4  communicator context  creator      plain
 *   128 + 128 r         8  phase of member r     member r     setVolatile: the last step r finished
 *   128 + 128 r + 8     4  member r abandoned    member r     setVolatile 1 when r left a collective
 *                                                             with an error; never cleared
 *   128 + 128 r + 16    8  header for area 0     member r     plain, published by r's next phase: what
 *   128 + 128 r + 24    8  header for area 1     member r     r's bcast puts in that area (its element
 *                                                             type's letter &lt;&lt; 32 | its count)
 *   128 + 128 r + 64    4  member r waiting      member r     setVolatile 1 before it sleeps, setOpaque 0 after;
 *                                                             whoever advances a phase clears it by
 *                                                             CAS and rings member r's doorbell
 *   128 + 128 r + 68    4  member r's doorbell   member r     plain, at attach, before the agreement
 *                                                             messages that end the set-up
 *   D + A r             A  slot of member r      member r     plain, published by its phase word
 *   D + A N             A  area 0                any member   plain, its part as the algorithm says
 *   D + A (N + 1)       A  area 1                any member   plain
 * </pre>
 *
 * D, the data offset, is the control lines' end rounded up to 4096. A member's words share a
 * line that only that member writes (but for the CAS that takes a ring), so no two members write
 * one control line; each line is 128 bytes, as adjacent-line prefetch pairs them on x86. Slots
 * start on page boundaries (A is a multiple of 4096 in practice); the members' parts of an area
 * meet wherever the split puts them.
 */
public final class ShmCollectiveDescriptor {
    public static final long MAGIC = 0x31304C4F43484F43L; // "COHCOL01" read little-endian
    public static final int VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int JOB_KEY_OFFSET = 8;
    public static final int VERSION_OFFSET = 16;
    public static final int MEMBERS_OFFSET = 20;
    public static final int AREA_BYTES_OFFSET = 24;
    public static final int CONTEXT_OFFSET = 28;
    public static final int CONTROL_OFFSET = 128;
    public static final int CONTROL_LINE = 128;
    public static final int PHASE_IN_LINE = 0;
    public static final int ABANDONED_IN_LINE = 8;
    public static final int HEADERS_IN_LINE = 16;
    public static final int WAITING_IN_LINE = 64;
    public static final int DOORBELL_IN_LINE = 68;
    private static final int PAGE = 4096;

    private ShmCollectiveDescriptor() {
    }

    public static int phaseOffset(int member) {
        return CONTROL_OFFSET + member * CONTROL_LINE + PHASE_IN_LINE;
    }

    public static int abandonedOffset(int member) {
        return CONTROL_OFFSET + member * CONTROL_LINE + ABANDONED_IN_LINE;
    }

    public static int headerOffset(int member, int area) {
        return CONTROL_OFFSET + member * CONTROL_LINE + HEADERS_IN_LINE + 8 * area;
    }

    public static int waitingOffset(int member) {
        return CONTROL_OFFSET + member * CONTROL_LINE + WAITING_IN_LINE;
    }

    public static int doorbellOffset(int member) {
        return CONTROL_OFFSET + member * CONTROL_LINE + DOORBELL_IN_LINE;
    }

    /** Where the slots begin for {@code members} members. */
    public static long dataOffset(int members) {
        long end = CONTROL_OFFSET + (long) members * CONTROL_LINE;
        return (end + PAGE - 1) / PAGE * PAGE;
    }

    /** Where member {@code member}'s slot begins. */
    public static long slotOffset(int members, int areaBytes, int member) {
        return dataOffset(members) + (long) areaBytes * member;
    }

    /** Where shared area {@code area} (0 or 1) begins. */
    public static long areaOffset(int members, int areaBytes, int area) {
        return dataOffset(members) + (long) areaBytes * (members + area);
    }

    /** The whole segment's length. */
    public static long segmentBytes(int members, int areaBytes) {
        return dataOffset(members) + (long) areaBytes * (members + 2);
    }
}

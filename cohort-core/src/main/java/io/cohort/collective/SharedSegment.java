package io.cohort.collective;

import java.nio.ByteBuffer;

/**
 * Memory that every peer of a communicator maps, all of them on one host: a slot per member and
 * two shared areas of {@link #areaBytes} each, and a phase word per member that says the last step
 * it finished. The shared-memory collectives ({@link SharedMemoryCollectives}) copy their data in
 * once and out once through it, and wait on phase words instead of messages.
 *
 * <pre>
 *   member r:  write slot r ──► arrive(p) ─────────────┐
 *   member s:                   awaitAll(p) ◄──────────┘  then read slot r
 * </pre>
 *
 * A member that leaves a collective with an error marks itself abandoned; every wait for a phase
 * it has not reached then fails at once, naming it (or a member that died, where one did), so no
 * other member waits for ever.
 *
 * <p>Threads: the thread running the communicator's collective (one at a time).
 */
interface SharedSegment extends AutoCloseable {
    /** Bytes in each slot and each area. */
    int areaBytes();

    /** Member {@code rank}'s slot: written by it alone, little-endian; absolute gets and puts only. */
    ByteBuffer slot(int rank);

    /** Shared area 0 or 1; absolute gets and puts only. */
    ByteBuffer area(int area);

    /** Writes what this member's bcast puts in {@code area}, for the others to read once its next phase is seen. */
    void header(int area, long value);

    /** What member {@code rank}'s bcast put in {@code area}; read after its phase was seen. */
    long header(int rank, int area);

    /** This member has finished {@code phase} (positive, never smaller than before); wakes whoever waits for it. */
    void arrive(long phase);

    /**
     * This member leaves the running collective with an error: every wait of the others on one of
     * its phases fails from now on.
     */
    void abandon();

    /**
     * Waits until member {@code rank} has finished {@code phase}.
     *
     * @throws io.cohort.PeerFailedException if it failed first; {@link io.cohort.PeerClosedException}
     *         if it closed its world first; {@link io.cohort.CohortException} if it abandoned the collective
     */
    void await(int rank, long phase);

    /** Waits until every member has finished {@code phase}; fails as {@link #await}. */
    void awaitAll(long phase);

    /** Every member mapped the segment (the set-up's agreement says so): arrivals may ring them now. */
    void setUpComplete();

    /** Removes the segment's name; mappings stay. */
    void unlink();

    /** This member is done with the segment. */
    @Override
    void close();
}

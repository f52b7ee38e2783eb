package io.cohort.collective;

import io.cohort.BroadcastDomain;
import io.cohort.Request;

import java.nio.ByteBuffer;

/**
 * What a collective algorithm needs from a communicator: its size, the caller's rank, tagged
 * point-to-point messages on the communicator's private collective context, and its broadcast
 * domain. All ranks are communicator ranks; an implementation translates them to whatever its
 * transport uses.
 *
 * <pre>
 *   Collectives ──► algorithm ──► CollectiveChannel ──► isend / irecv   (collective context)
 *                                                  └──► domain()       (PCODE global program)
 * </pre>
 *
 * <p>Threads: {@link #isend} and {@link #irecv} may be called from any thread, and their requests
 * waited on from any thread. {@link #domain()} returns a {@link BroadcastDomain}, whose calls must
 * come from one thread at a time, in the same order on every peer ({@link Collectives} ensures it).
 */
public interface CollectiveChannel {
    /** The caller's rank in the communicator. */
    int rank();

    /** The communicator's size. */
    int size();

    /** Sends the bytes from position to limit; they must stay untouched until the request is done. */
    Request isend(int dest, int tag, ByteBuffer payload);

    /** Receives a message of any length; {@code irecv(...).message().bytes()} is its payload once done. */
    Request irecv(int source, int tag);

    /** Sends {@code length} bytes of {@code payload} from index {@code offset}; its position and limit are not used. */
    default Request isend(int dest, int tag, ByteBuffer payload, int offset, int length) {
        return isend(dest, tag, payload.slice(offset, length));
    }

    /**
     * Receives a message of at most {@code capacity} bytes into {@code buffer} from index
     * {@code offset} (its position and limit are neither used nor moved); the request's status
     * gives the length. A longer message fails the request with a
     * {@link io.cohort.MessageTruncatedException}, its first {@code capacity} bytes in the buffer.
     */
    Request irecv(int source, int tag, ByteBuffer buffer, int offset, int capacity);

    /**
     * The communicator's broadcast domain, opened lazily and collectively by the communicator (so
     * the first call must come at the same point of the program on every peer).
     *
     * @throws UnsupportedOperationException when the communicator has none
     */
    BroadcastDomain domain();

    /**
     * Whether every other peer of the communicator is reached over shared memory: then they all
     * share this host, and a tree of shared-memory hops beats any datagram through the kernel, so
     * AUTO leaves the domain alone. Every peer answers alike (a pair's transport is the same from
     * both ends, and shared memory only joins peers of one host).
     */
    default boolean sharedMemoryOnly() {
        return false;
    }

    /**
     * Makes this communicator's collective segment ({@link SharedSegment}) on this host, as its
     * rank 0; the others {@link #openSharedSegment} it once told. {@code nonce} tells this segment
     * from any other the communicator's context ever had.
     *
     * @return null where the communicator's peers do not all share this host's memory
     * @throws java.io.IOException where it could not be made (naming why)
     */
    default SharedSegment createSharedSegment(long nonce, int areaBytes) throws java.io.IOException {
        return null;
    }

    /** Maps the segment rank 0 made with {@code nonce}; null and exceptions as {@link #createSharedSegment}. */
    default SharedSegment openSharedSegment(long nonce) throws java.io.IOException {
        return null;
    }

    /** Whether some other peer of the communicator is reached over a network transport (TCP or UDP). */
    default boolean anyPeerOverNetwork() {
        return false;
    }

    /**
     * Whether some machine runs more of the communicator's peers than it has cores
     * ({@link io.cohort.engine.MachineMap}): then peers wait for the CPU as much as for messages,
     * and the algorithm that sends fewer messages wins. Every peer answers alike.
     */
    default boolean peersOutnumberCores() {
        return false;
    }
}

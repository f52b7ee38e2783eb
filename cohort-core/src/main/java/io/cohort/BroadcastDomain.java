package io.cohort;

import java.nio.ByteBuffer;

/**
 * The global-program interface of the PCODE paper (section 2): a broadcast domain over a job's N
 * peers, used through two calls.
 *
 * <pre>
 *   rank 0: multicast(m, {1, 2})        rank 1: request(0, {1, 2})      rank 2: request(0, {1, 2})
 *   rank 0: request(2, {0})             rank 1: (skip)                  rank 2: multicast(m', {0})
 * </pre>
 *
 * <ul>
 *   <li>{@link #multicast} sends a message to a target set that does not contain the caller, and
 *       returns once the message is out (it may wait for room in the finite sent buffer or for flow
 *       control). One datagram reaches every target; a one-target set goes by unicast.</li>
 *   <li>{@link #request} returns exactly the message its source multicast at the matching point of
 *       the program, to the same target set (which contains the caller and not the source).
 *       Messages are delivered only in response to requests, once each, FIFO per source.</li>
 *   <li>The program must be <em>correct</em> (the paper's Assumption 1): for every multicast, each
 *       target issues the matching request, in the same order. A domain cannot see skips, so
 *       "the same point" means: the k-th request from a source with a given target set meets the
 *       k-th multicast of that source to that set. An incorrect program (a request whose
 *       multicast never comes, a mismatched target set, a multicast whose targets never request)
 *       ends with a {@link GlobalProgramException} naming the call, the peers and this peer's
 *       position in its program, after the call time-out; never a silent hang.</li>
 *   <li>Lost, duplicated and reordered datagrams are recovered (NACKs, retransmission from the
 *       sent buffer), so every call of a correct program returns (the paper's Propositions 1, 2).</li>
 * </ul>
 *
 * <p>Threads: one thread at a time makes calls (the program is sequential per peer, as in the
 * paper's Assumption 2). {@link #poll} may be called concurrently by the peer's progress agent,
 * so NACKs are answered while the program computes. {@link #counters} by anyone.
 */
public interface BroadcastDomain extends AutoCloseable {
    int rank();

    int size();

    /** Multicasts {@code message} (position to limit; unchanged) to {@code targets}. */
    void multicast(ByteBuffer message, int... targets);

    default void multicast(byte[] message, int... targets) {
        multicast(ByteBuffer.wrap(message), targets);
    }

    /** Waits for and returns the message {@code source} multicast to {@code targets} at this point. */
    byte[] request(int source, int... targets);

    /**
     * The longest message one multicast carries in a single datagram (a longer one goes out as
     * several): the domain's datagram size less its header, the same at every peer of the domain.
     */
    int messageBytesPerDatagram();

    /** Receives, answers NACKs and runs timers without blocking; returns the work done (0 = idle). */
    int poll();

    /** What the domain did and dropped so far: a snapshot, which does not change afterwards. */
    DomainCounters counters();

    /**
     * Whether the domain stopped after an error ({@link io.cohort.GlobalProgramException}): a call that
     * found no matching multicast in time, or a peer that stopped confirming. Its peers may be stopped,
     * unreachable or out of step, so closing this peer no longer waits for theirs.
     */
    default boolean failed() {
        return false;
    }

    /**
     * Tells the other peers this one needs nothing more, lingers until they confirmed our frames (so
     * a last multicast is not lost with its sender), then closes the sockets.
     */
    @Override
    void close();
}

package io.cohort.stacks;

import java.util.Objects;

/**
 * The message a thread of a peer waited for when its stacks were captured, so that the merge can
 * show which rank waits for which: a receive from a rank (or from any), a send that a receiver
 * has yet to take, or in the broadcast domain a request for a rank's multicast, or a multicast that
 * waits for a rank to confirm earlier frames (room in the sent buffer, or the flow window), or in a
 * shared-memory collective a rank that has yet to finish a step.
 *
 * @param operation {@link #RECEIVE}, {@link #SEND}, {@link #REQUEST}, {@link #MULTICAST} or {@link #PHASE}
 * @param peer      the other rank, in the world's numbering; {@link #ANY} for a receive from any source
 * @param context   the receive's context (0: the world's own messages), or -1 where not known (a send)
 * @param tag       the tag the receive waits for or the send carries; -1 for any tag
 */
public record PeerWait(String operation, int peer, int context, int tag) {
    public static final String RECEIVE = "receive";
    public static final String SEND = "send";
    /** A broadcast domain's {@code request}: waiting for the peer's multicast. */
    public static final String REQUEST = "request";
    /** A broadcast domain's {@code multicast}: waiting for the peer to confirm earlier frames. */
    public static final String MULTICAST = "multicast";
    /** A shared-memory collective's step: waiting for the peer to finish its part of it. */
    public static final String PHASE = "phase";
    /** A receive from any source. */
    public static final int ANY = -1;

    public PeerWait {
        Objects.requireNonNull(operation, "operation");
    }

    /**
     * {@code waiting to receive from rank 3 (tag 99)}; inside a collective the tag is the collective's
     * own and says nothing, so it is left out.
     */
    public String describe(boolean inCollective) {
        if (operation.equals(REQUEST)) {
            return "waiting for a multicast from rank " + peer + " (broadcast domain)";
        }
        if (operation.equals(PHASE)) {
            return "waiting for rank " + peer + " to finish its part of the step (shared memory)";
        }
        if (operation.equals(MULTICAST)) {
            return "waiting for rank " + peer + " to confirm earlier multicasts (broadcast domain)";
        }
        StringBuilder b = new StringBuilder("waiting ");
        if (operation.equals(SEND)) {
            b.append("for rank ").append(peer).append(" to take its send");
        } else {
            b.append("to receive from ").append(peer == ANY ? "any rank" : "rank " + peer);
        }
        if (!inCollective) {
            b.append(tag == -1 ? " (any tag)" : " (tag " + tag + ")");
        }
        return b.toString();
    }
}

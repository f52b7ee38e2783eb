package io.cohort;

/**
 * A receive waits for a message from a peer that has closed its world: that peer's program ended
 * (or closed the world) without sending it, so it never will. The programs do not match, for
 * example one rank skipped a collective call the others made, or returned from {@code main} early.
 * Raised as soon as the peer's goodbye arrives, instead of waiting forever; the message names the
 * peer. Unlike {@link PeerFailedException} this is the root cause of a failed job, unless the peer
 * that closed failed too (a program that fails inside try-with-resources closes its world first):
 * then that peer is.
 */
public class PeerClosedException extends CohortException {
    private static final long serialVersionUID = 1L;

    private final int peer;

    public PeerClosedException(int peer, String message) {
        super(message);
        this.peer = peer;
    }

    /** World rank of the peer that closed. */
    public int peer() {
        return peer;
    }
}

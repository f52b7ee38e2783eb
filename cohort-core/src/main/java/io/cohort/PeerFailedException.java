package io.cohort;

/**
 * A peer this operation depends on is gone: its process exited or was killed, or the connection to
 * it broke. The message names the peer. A program that lets this escape from {@code main} is
 * reported by the launcher as collateral damage, never as the root cause of the job's failure.
 */
public class PeerFailedException extends CohortException {
    private final int peer;

    public PeerFailedException(int peer, String message) {
        super(message);
        this.peer = peer;
    }

    /** World rank of the peer that failed. */
    public int peer() {
        return peer;
    }
}

package io.cohort.daemon;

/**
 * No daemon that could answer did: every load server (or the member's daemon) refused the connection,
 * timed out or sent nothing valid. One sentence naming whom it tried. The CLI exits with {@code 69}
 * (EX_UNAVAILABLE).
 */
public final class ClusterUnreachableException extends Exception {
    public ClusterUnreachableException(String message) {
        super(message);
    }
}

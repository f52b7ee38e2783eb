package io.cohort.daemon;

/**
 * The cluster's configuration cannot be used: a missing or unsafe key file, no member for this host,
 * a port that cannot be bound. The message is one sentence saying what to fix. The CLI exits with
 * {@code 78} (EX_CONFIG).
 */
public final class ClusterConfigException extends Exception {
    public ClusterConfigException(String message) {
        super(message);
    }

    public ClusterConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}

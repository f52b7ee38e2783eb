package io.cohort.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * How the cluster's daemons talk: the port every {@code cohortd} listens on (TCP for requests and the
 * ring, UDP for load updates), how often a daemon sends its load to the load servers, after how long
 * without an update a load server expires a member (time-to-live), the ring's heartbeat interval and
 * the silence after which a ring neighbour is declared lost, the largest clock skew an
 * authenticated message may show, and how long a new TCP connection has to send its first authentic
 * frame.
 */
public record DaemonSettings(int port, Duration updateInterval, Duration ttl, Duration heartbeat,
                             Duration ringTimeout, Duration maxSkew, Duration authTimeout) {
    public static final int DEFAULT_PORT = 7470;

    public DaemonSettings {
        Objects.requireNonNull(updateInterval, "updateInterval");
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(heartbeat, "heartbeat");
        Objects.requireNonNull(ringTimeout, "ringTimeout");
        Objects.requireNonNull(maxSkew, "maxSkew");
        Objects.requireNonNull(authTimeout, "authTimeout");
    }

    /** As the canonical constructor, with the default {@link #DEFAULT_AUTH_TIMEOUT}. */
    public DaemonSettings(int port, Duration updateInterval, Duration ttl, Duration heartbeat, Duration ringTimeout,
                          Duration maxSkew) {
        this(port, updateInterval, ttl, heartbeat, ringTimeout, maxSkew, DEFAULT_AUTH_TIMEOUT);
    }

    /** The shortest update interval and heartbeat a daemon accepts. */
    public static final Duration MIN_PERIOD = Duration.ofMillis(10);
    /** The smallest clock skew allowance a daemon accepts. */
    public static final Duration MIN_SKEW = Duration.ofSeconds(1);
    /**
     * How long a new connection may take to deliver its first authentic frame: a client sends its request
     * as soon as it is connected, so two seconds cover a slow link many times over, while a connection
     * from someone without the key holds a place for no longer.
     */
    public static final Duration DEFAULT_AUTH_TIMEOUT = Duration.ofSeconds(2);
    /** The bounds of {@code daemon.auth_timeout}: a round trip or two at least, and no longer than the old idle time-out. */
    public static final Duration MIN_AUTH_TIMEOUT = Duration.ofMillis(100);
    public static final Duration MAX_AUTH_TIMEOUT = Duration.ofSeconds(30);

    /**
     * A rule these settings break: the database token at fault (and the other token of the pair, or
     * null) and a sentence that names neither, for the caller to place.
     */
    public record Violation(String token, String otherToken, String message) {
    }

    /**
     * The first rule these settings break, if any. The rules: update interval and heartbeat at least
     * {@link #MIN_PERIOD}; the time-to-live at least twice the update interval (one lost update must not
     * expire a member); the ring time-out at least twice the heartbeat (one late heartbeat must not
     * lose a neighbour); the skew allowance at least {@link #MIN_SKEW}; the authentication time-out from
     * {@link #MIN_AUTH_TIMEOUT} to {@link #MAX_AUTH_TIMEOUT}. The database check and the
     * daemon both apply them, so {@code cohort db validate} accepts exactly what a daemon starts with.
     */
    public java.util.Optional<Violation> violation() {
        if (port < 1 || port > 65535) {
            return java.util.Optional.of(new Violation("daemon.port", null, "the port " + port + " is not from 1 to 65535"));
        }
        if (updateInterval.compareTo(MIN_PERIOD) < 0) {
            return java.util.Optional.of(new Violation("daemon.update_interval", null, "the update interval ("
                    + ClusterDbValues.formatDuration(updateInterval) + ") must be at least 10ms"));
        }
        if (heartbeat.compareTo(MIN_PERIOD) < 0) {
            return java.util.Optional.of(new Violation("daemon.heartbeat", null, "the heartbeat ("
                    + ClusterDbValues.formatDuration(heartbeat) + ") must be at least 10ms"));
        }
        if (ttl.compareTo(updateInterval.multipliedBy(2)) < 0) {
            return java.util.Optional.of(new Violation("daemon.ttl", "daemon.update_interval", "the time-to-live ("
                    + ClusterDbValues.formatDuration(ttl) + ") must be at least twice the update interval ("
                    + ClusterDbValues.formatDuration(updateInterval) + "), or one lost update expires a member"));
        }
        if (ringTimeout.compareTo(heartbeat.multipliedBy(2)) < 0) {
            return java.util.Optional.of(new Violation("daemon.ring_timeout", "daemon.heartbeat", "the ring time-out ("
                    + ClusterDbValues.formatDuration(ringTimeout) + ") must be at least twice the heartbeat ("
                    + ClusterDbValues.formatDuration(heartbeat) + "), or one late heartbeat loses a ring neighbour"));
        }
        if (maxSkew.compareTo(MIN_SKEW) < 0) {
            return java.util.Optional.of(new Violation("daemon.max_skew", null, "the largest clock skew ("
                    + ClusterDbValues.formatDuration(maxSkew) + ") must be at least 1s"));
        }
        if (authTimeout.compareTo(MIN_AUTH_TIMEOUT) < 0 || authTimeout.compareTo(MAX_AUTH_TIMEOUT) > 0) {
            return java.util.Optional.of(new Violation("daemon.auth_timeout", null, "the time for a connection's first"
                    + " authentic frame (" + ClusterDbValues.formatDuration(authTimeout) + ") must be from 100ms to 30s"));
        }
        return java.util.Optional.empty();
    }

    /**
     * The defaults: port 7470, update every 2 s, TTL 10 s, heartbeat 500 ms, ring time-out 2 s, skew 30 s,
     * first authentic frame within 2 s.
     */
    public static DaemonSettings defaults() {
        return new DaemonSettings(DEFAULT_PORT, Duration.ofSeconds(2), Duration.ofSeconds(10),
                Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofSeconds(30), DEFAULT_AUTH_TIMEOUT);
    }
}

package io.cohort.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * How the cluster's daemons talk: the port every {@code cohortd} listens on (TCP for requests and the
 * ring, UDP for load updates), how often a daemon sends its load to the load servers, after how long
 * without an update a load server expires a member (time-to-live), the ring's heartbeat interval and
 * the silence after which a ring neighbour is declared lost, and the largest clock skew an
 * authenticated message may show.
 */
public record DaemonSettings(int port, Duration updateInterval, Duration ttl, Duration heartbeat,
                             Duration ringTimeout, Duration maxSkew) {
    public static final int DEFAULT_PORT = 7470;

    public DaemonSettings {
        Objects.requireNonNull(updateInterval, "updateInterval");
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(heartbeat, "heartbeat");
        Objects.requireNonNull(ringTimeout, "ringTimeout");
        Objects.requireNonNull(maxSkew, "maxSkew");
    }

    /** The defaults: port 7470, update every 2 s, TTL 10 s, heartbeat 500 ms, ring time-out 2 s, skew 30 s. */
    public static DaemonSettings defaults() {
        return new DaemonSettings(DEFAULT_PORT, Duration.ofSeconds(2), Duration.ofSeconds(10),
                Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofSeconds(30));
    }
}

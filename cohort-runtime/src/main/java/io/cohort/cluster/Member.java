package io.cohort.cluster;

import java.util.Objects;

/**
 * One machine of the cluster, as the configuration database describes it (PSE's member).
 *
 * @param name    the member's name: letters, digits, {@code .}, {@code _} and {@code -}; also the name
 *                the launch agent is given ({@code ssh NAME}, {@code ip netns exec NAME})
 * @param address the address its daemon listens on and other members reach it at (IPv4/IPv6 literal or
 *                a DNS name)
 * @param cpus    processors the member offers, 1 or more
 * @param slots   job slots: how many Cohort jobs may run on it at once (PSE's "number of allowed
 *                jobs"); 0 keeps new jobs off it. The daemon's own value (drain, {@code admin slots})
 *                overrides it at run time
 */
public record Member(String name, String address, int cpus, int slots) {
    /** The most job slots a member may have, in the database and set by {@code cohort admin slots}. */
    public static final int MAX_SLOTS = 65535;
    /**
     * The most members a cluster database may define: a load server's STATUS answer then fits its frame,
     * and the daemon its heap (docs/cluster.md).
     */
    public static final int MAX_MEMBERS = 65535;

    public Member {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
    }
}

package io.cohort.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The cluster configuration database (PSE's "Cluster Definition"): the cluster's name, its members, its
 * overlapping partitions with their attributes, the default partition, the load servers, the daemons'
 * settings and a version number that every edit raises. Read from a file or from DNS TXT records
 * ({@code ClusterDbSource}); the grammar is in docs/cluster.md.
 *
 * <p>Immutable; a value that passed {@code ClusterDbParser}'s validation is consistent (every
 * partition's members exist, the default partition exists, load servers are members).
 *
 * @param name             the cluster's name (for DNS: the zone the TXT records live in)
 * @param version          raised by every edit (for DNS: compared with the zone's serial)
 * @param defaultPartition the partition used when a job names none
 * @param loadServers      members whose daemons also act as load servers, in the order clients try them
 * @param daemon           the daemons' settings
 * @param members          members by name, in the database's order
 * @param partitions       partitions by name, in the database's order
 */
public record ClusterDb(String name, long version, String defaultPartition, List<String> loadServers,
                        DaemonSettings daemon, Map<String, Member> members, Map<String, Partition> partitions) {
    public ClusterDb {
        Objects.requireNonNull(name, "name");
        loadServers = List.copyOf(loadServers);
        Objects.requireNonNull(daemon, "daemon");
        members = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(members));
        partitions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(partitions));
    }

    public Optional<Member> member(String memberName) {
        return Optional.ofNullable(members.get(memberName));
    }

    public Optional<Partition> partition(String partitionName) {
        return Optional.ofNullable(partitions.get(partitionName));
    }

    /** Member names in the database's order: the order of the daemons' failure-detection ring. */
    public List<String> memberOrder() {
        return List.copyOf(members.keySet());
    }
}

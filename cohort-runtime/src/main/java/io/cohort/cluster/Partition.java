package io.cohort.cluster;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A named subset of the cluster's members with the attributes its jobs run under (PSE's partition).
 * Partitions may overlap.
 *
 * @param name          the partition's name
 * @param members       member names, in the database's order (which is also the order placement
 *                      breaks ties in)
 * @param transport     default transport between hosts for its jobs: {@code auto}, {@code tcp} or {@code udp}
 * @param nice          default nice value of its jobs' peers (-20..19)
 * @param minNice       the lowest nice value (highest priority) a job may ask for; never above it
 * @param policy        scheduling policy of its jobs' peers
 * @param rtPriority    real-time priority (1..99) used with {@link SchedulingPolicy#FIFO}
 * @param maxRtPriority the highest real-time priority a job may ask for
 * @param users         user names allowed to run jobs here; {@code *} alone means everyone
 * @param groups        Unix groups whose members may run jobs here (in addition to {@code users})
 * @param network       preferred network for data traffic as a CIDR prefix ({@code 10.1.0.0/24}), or
 *                      null: the members' addresses
 * @param mode          default placement mode
 */
public record Partition(String name, List<String> members, String transport, int nice, int minNice,
                        SchedulingPolicy policy, int rtPriority, int maxRtPriority, Set<String> users,
                        Set<String> groups, String network, PlacementMode mode) {
    public Partition {
        Objects.requireNonNull(name, "name");
        members = List.copyOf(members);
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(policy, "policy");
        users = Set.copyOf(users);
        groups = Set.copyOf(groups);
        Objects.requireNonNull(mode, "mode");
    }

    /** Whether {@code user}, a member of {@code userGroups}, may run jobs in this partition. */
    public boolean allows(String user, Set<String> userGroups) {
        if (users.contains("*") || users.contains(user)) {
            return true;
        }
        for (String g : userGroups) {
            if (groups.contains(g)) {
                return true;
            }
        }
        return false;
    }
}

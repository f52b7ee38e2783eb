package io.cohort.cli;

import io.cohort.cluster.AccessDeniedException;
import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.MemberLoad;
import io.cohort.cluster.Partition;
import io.cohort.cluster.PeerPlacer;
import io.cohort.cluster.PlacementMode;
import io.cohort.cluster.SchedulingPolicy;
import io.cohort.cluster.SchedulingRequest;
import io.cohort.cluster.UserIdentity;
import io.cohort.launch.Placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * {@code cohort run --partition P}: the partition looked up in the cluster database, the user checked
 * against its access list before anything else happens, the scheduling request checked against its
 * maximum, and the peers placed on the members a load server reports as least loaded (PSE's controlling
 * process "getting system load information from a load server and then distributing the new processes
 * across the partition"). Runs on the launcher's main thread.
 */
final class ClusterPlanner {
    /** What the launcher needs from the cluster to start the job. */
    record Plan(ClusterDb db, Partition partition, PlacementMode mode, Placement placement, SchedulingRequest scheduling) {
    }

    private ClusterPlanner() {
    }

    /**
     * @param loads asked only after the cheap checks passed: a user refused by the access list never
     *              reaches the load servers
     * @throws UsageException          unknown partition, bad mode or priority
     * @throws AccessDeniedException   the user is not in the partition's access list
     * @throws io.cohort.cluster.PlacementException the partition cannot hold the job
     */
    static Plan plan(ClusterDb db, String partitionName, int peers, String mode, Integer nice, String policy, Integer rtPriority,
                     UserIdentity user, Supplier<List<MemberLoad>> loads) {
        String name = partitionName == null || partitionName.isBlank() ? db.defaultPartition() : partitionName.trim();
        Partition partition = db.partition(name).orElseThrow(() -> new UsageException("partition " + name
                + " is not in cluster " + db.name() + " (partitions: " + String.join(", ", new TreeSet<>(db.partitions().keySet())) + ")"));
        user.checkAllowed(partition);
        PlacementMode m = mode == null ? partition.mode() : parseMode(mode);
        SchedulingRequest scheduling;
        try {
            scheduling = SchedulingRequest.forJob(partition, nice, policy == null ? null : parsePolicy(policy), rtPriority);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Map<String, Integer> chosen = PeerPlacer.place(partition, loads.get(), peers, m);
        List<String> hosts = new ArrayList<>(chosen.keySet());
        int[] counts = chosen.values().stream().mapToInt(Integer::intValue).toArray();
        return new Plan(db, partition, m, Placement.of(hosts, counts), scheduling);
    }

    static PlacementMode parseMode(String s) {
        try {
            return PlacementMode.valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--mode " + s + " is not one of physical, virtual");
        }
    }

    static SchedulingPolicy parsePolicy(String s) {
        try {
            return SchedulingPolicy.valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--policy " + s + " is not one of normal, fifo");
        }
    }
}

package io.cohort.daemon;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.DaemonSettings;
import io.cohort.cluster.Member;
import io.cohort.cluster.Partition;
import io.cohort.cluster.PlacementMode;
import io.cohort.cluster.SchedulingPolicy;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Cluster databases for tests, built as values (the file parser is another class's business). */
final class TestClusters {
    static final ClusterKey KEY = ClusterKey.of("0123456789abcdef0123456789abcdef".getBytes());
    static final ClusterKey OTHER_KEY = ClusterKey.of("fedcba9876543210fedcba9876543210".getBytes());

    private TestClusters() {
    }

    /** Fast settings: updates every 100 ms, TTL 1 s, heartbeat 100 ms, ring time-out 500 ms. */
    static DaemonSettings fast(int port) {
        return new DaemonSettings(port, Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofMillis(100),
                Duration.ofMillis(500), Duration.ofSeconds(30));
    }

    /** Members m1..mN at 127.0.0.1..N, all in partition "all", the first {@code loadServers} load servers. */
    static ClusterDb loopback(int n, int loadServers, DaemonSettings settings) {
        Map<String, Member> members = new LinkedHashMap<>();
        for (int i = 1; i <= n; i++) {
            members.put("m" + i, new Member("m" + i, "127.0.0." + i, 2, 4));
        }
        Partition all = new Partition("all", List.copyOf(members.keySet()), "auto", 0, 0, SchedulingPolicy.NORMAL, 1, 1,
                Set.of("*"), Set.of(), null, PlacementMode.PHYSICAL);
        return new ClusterDb("test", 1, "all", List.copyOf(members.keySet()).subList(0, loadServers), settings, members,
                Map.of("all", all));
    }

    /** A port free on 127.0.0.1 now (the daemons bind it on 127.0.0.x). */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}

package io.cohort.daemon;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.Member;
import io.cohort.cluster.Partition;
import io.cohort.cluster.PlacementMode;
import io.cohort.cluster.SchedulingPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The cluster table of a large cluster reaches the command whole, though it is far more than one UDP-sized frame. */
@Timeout(60)
class LargeClusterStatusTest {
    @Test
    void statusOfTwoThousandMembers() throws Exception {
        int n = 2000;
        Map<String, Member> members = new LinkedHashMap<>();
        for (int i = 1; i <= n; i++) {
            members.put("node-" + i, new Member("node-" + i, "127.0." + (i / 250) + "." + (1 + i % 250), 64, 64));
        }
        Partition all = new Partition("all", List.copyOf(members.keySet()), "auto", 0, 0, SchedulingPolicy.NORMAL, 1, 1,
                Set.of("*"), Set.of(), null, PlacementMode.PHYSICAL);
        ClusterDb db = new ClusterDb("big", 1, "all", List.of("node-1"), TestClusters.fast(TestClusters.freePort()),
                members, Map.of("all", all));
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        try (Daemon d = Daemon.start(db, "node-1", TestClusters.KEY, new DaemonLog("node-1", quiet, Clock.systemUTC()),
                Clock.systemUTC())) {
            DaemonClient client = new DaemonClient(TestClusters.KEY, "test@here", db);
            StatusTable t = client.status(db);
            assertEquals(n, t.members().size());
            assertEquals("node-" + n, t.members().get(n - 1).name());
        }
    }
}

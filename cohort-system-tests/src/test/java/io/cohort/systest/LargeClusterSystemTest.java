package io.cohort.systest;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbSource;
import io.cohort.cluster.Member;
import io.cohort.daemon.ClusterKey;
import io.cohort.daemon.DaemonClient;
import io.cohort.daemon.StatusTable;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cluster of the most members a database may define, served by the distribution's own
 * {@code bin/cohortd} with the heap that script gives it: the load server starts, and {@code cohort
 * status} and a burst of concurrent STATUS requests all get the whole table. Before, the daemon ran out of
 * heap while reading the database, a 10000-member table took 17 s to print, and every request built its
 * own copy of a 19 MB answer.
 */
@Tag("soak") // a size limit: 65,534 members, and a cold daemon's answer of 19 MB (mvn verify -Psoak)
@Isolated // a limit measured alone: beside the box's daemon tests, the cold answer missed the client's read time-out
class LargeClusterSystemTest {
    @Test
    @Timeout(180)
    void aLoadServerOfTheLargestClusterAnswersStatus(@TempDir Path dir) throws Exception {
        CohortProcess.requireDist();
        int n = Member.MAX_MEMBERS;
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Path key = dir.resolve("cluster.key");
        ClusterKey.generate(key);
        Path db = dir.resolve("cluster.db");
        StringBuilder text = new StringBuilder("cluster = big\nversion = 1\ndefault_partition = all\nload_servers = node-1\n"
                + "daemon.port = " + port + "\n");
        for (int i = 1; i <= n; i++) {
            // node-1 is 127.0.0.1, where the one daemon runs; the others are loopback addresses nobody serves.
            text.append("member.node-").append(i).append(".address = 127.").append(i >> 16).append('.')
                    .append((i >> 8) & 255).append('.').append(i & 255).append('\n');
        }
        text.append("partition.all.members = *\n");
        Files.writeString(db, text);

        CohortProcess daemon = CohortProcess.startCommand(List.of(CohortProcess.HOME.resolve("bin/cohortd").toString(),
                "--member", "node-1", "--cluster-db", db.toString(), "--key", key.toString()),
                Map.of("JAVA_HOME", System.getProperty("java.home")));
        try {
            assertTrue(daemon.awaitErr(l -> l.contains("node-1 is up"), 1), "the daemon did not start: " + daemon.err());
            // The startup line names a few ring successors and how many there are, not all 65534.
            String serving = daemon.err().stream().filter(l -> l.contains("serving member")).findFirst().orElseThrow();
            assertTrue(serving.length() < 400 && serving.contains("(65534 in all)"), serving);

            CohortProcess status = CohortProcess.run("status", "--cluster-db", db.toString(), "--key", key.toString());
            assertEquals(0, status.exitCode(), String.join("\n", status.err()));
            assertEquals(n + 2, status.out().size()); // a title line, the column heads, one row per member
            assertTrue(status.out().get(n + 1).startsWith("all") && status.out().get(n + 1).contains("node-" + n),
                    status.out().get(n + 1));

            ClusterDb cluster = ClusterDbSource.load(db.toString());
            DaemonClient client = new DaemonClient(ClusterKey.load(key), "systest", cluster);
            ExecutorService pool = Executors.newFixedThreadPool(6);
            try {
                List<Future<StatusTable>> answers = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    answers.add(pool.submit(() -> client.status(cluster)));
                }
                for (Future<StatusTable> a : answers) {
                    StatusTable t = a.get();
                    assertEquals(n, t.members().size());
                    assertEquals("node-" + n, t.members().get(n - 1).name());
                }
            } finally {
                pool.shutdownNow();
            }
            assertTrue(daemon.process().isAlive(), "the daemon ended: " + daemon.err());
            assertTrue(daemon.err().stream().noneMatch(l -> l.contains("OutOfMemoryError") || l.contains("failed")),
                    String.join("\n", daemon.err()));
        } finally {
            daemon.process().destroy();
            daemon.waitFor();
        }
    }
}

package io.cohort.daemon;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.Member;
import io.cohort.cluster.Partition;
import io.cohort.cluster.PlacementMode;
import io.cohort.cluster.SchedulingPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link DaemonClient#status} with a first load server that hangs: it accepts connections and never
 * answers (a stopped process, a wedged host). The client's read time-out here is 10 minutes, far beyond
 * the test's limit, so only a client that does not wait for the first load server passes.
 */
@Timeout(30)
class StatusQueryTest {
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    @Test
    void aHungFirstLoadServerDoesNotHoldTheAnswerOfTheSecond() throws Exception {
        int port = TestClusters.freePort();
        Map<String, Member> members = new LinkedHashMap<>();
        members.put("m1", new Member("m1", "127.0.0.1", 1, 1));
        members.put("m2", new Member("m2", "127.0.0.2", 1, 1));
        Partition all = new Partition("all", List.of("m1", "m2"), "auto", 0, 0, SchedulingPolicy.NORMAL, 1, 1, Set.of("*"), Set.of(),
                null, PlacementMode.PHYSICAL);
        ClusterDb db = new ClusterDb("test", 1, "all", List.of("m1", "m2"), TestClusters.fast(port), members, Map.of("all", all));
        // m1: a listener whose connections are accepted by the kernel and never read.
        ServerSocket hung = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"));
        open.add(hung);
        Daemon m2 = Daemon.start(db, "m2", TestClusters.KEY, new DaemonLog("m2",
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), Clock.systemUTC()), Clock.systemUTC());
        open.add(m2::close);
        DaemonClient client = new DaemonClient(new MessageAuthenticator(TestClusters.KEY, "test@here", Clock.systemUTC(), 30_000,
                new ReplayGuard(30_000, 100)), new RefusalLog(new DaemonLog("test", System.err, Clock.systemUTC())),
                Duration.ofSeconds(2), Duration.ofMinutes(10), null);
        assertEquals("m2", client.status(db).server());
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress("127.0.0.1", port), 1000); // m1 still "up" for TCP: it really hung
        }
    }
}

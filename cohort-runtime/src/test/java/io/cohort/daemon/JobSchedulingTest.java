package io.cohort.daemon;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.Member;
import io.cohort.cluster.Partition;
import io.cohort.cluster.PlacementMode;
import io.cohort.cluster.SchedulingPolicy;
import io.cohort.cluster.SchedulingRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The daemon's checks before it changes a process's scheduling (it runs as root): the registration's
 * partition admitted by its own database, slots, the registering connection, the process's job and user.
 * One daemon on 127.0.0.1 with two job slots.
 */
@Timeout(60)
class JobSchedulingTest {
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final List<Process> children = new ArrayList<>();
    private final List<AutoCloseable> registrations = new ArrayList<>();
    private ClusterDb db;
    private Daemon daemon;
    private DaemonClient client;

    @BeforeEach
    void start() throws Exception {
        Partition open = new Partition("open", List.of("m1"), "auto", 2, 1, SchedulingPolicy.NORMAL, 1, 1, Set.of("*"), Set.of(),
                null, PlacementMode.PHYSICAL);
        Partition closed = new Partition("closed", List.of("m1"), "auto", 0, 0, SchedulingPolicy.NORMAL, 1, 1,
                Set.of("somebody-else"), Set.of("no-such-group"), null, PlacementMode.PHYSICAL);
        db = new ClusterDb("test", 1, "open", List.of("m1"), TestClusters.fast(TestClusters.freePort()),
                Map.of("m1", new Member("m1", "127.0.0.1", 2, 2)), Map.of("open", open, "closed", closed));
        daemon = Daemon.start(db, "m1", TestClusters.KEY, new DaemonLog("m1", new PrintStream(logBytes, true, StandardCharsets.UTF_8),
                Clock.systemUTC()), Clock.systemUTC());
        client = new DaemonClient(TestClusters.KEY, "test@here", db);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable r : registrations) {
            r.close();
        }
        children.forEach(Process::destroyForcibly);
        daemon.close();
    }

    private DaemonClient.JobRegistration register(String job, String partition) throws Exception {
        DaemonClient.JobRegistration r = client.registerJob(db, "m1", job, System.getProperty("user.name"),
                partition);
        registrations.add(r);
        return r;
    }

    /** A process of job {@code job}, as a peer would be: COHORT_JOB_ID in its environment. */
    private Process peerOf(String job) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("sleep", "60");
        pb.environment().put("COHORT_JOB_ID", job);
        Process p = pb.start();
        children.add(p);
        return p;
    }

    @Test
    void aPeerOfTheRegisteredJobGetsThePartitionsSchedulingCappedAtItsMaximum() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "lowering a nice value needs root; skipped");
        DaemonClient.JobRegistration r = register("j1", "open");
        Process peer = peerOf("j1");
        assertEquals("nice 1", r.schedule(peer.pid(), new SchedulingRequest(SchedulingPolicy.FIFO, -10, 50)),
                "fifo is not allowed and nice -10 is above min_nice 1: capped");
        assertEquals(1, ProcessScheduler.readAll(peer.pid()).get(0).nice());
        assertTrue(logBytes.toString(StandardCharsets.UTF_8).contains("runs at nice 1 (asked fifo 50, partition open's maximum applies)"));
    }

    @Test
    void processesOutsideTheJobAndRequestsFromOtherConnectionsAreRefused() throws Exception {
        DaemonClient.JobRegistration r = register("j1", "open");
        SchedulingRequest nice3 = new SchedulingRequest(SchedulingPolicy.NORMAL, 3, 1);
        RequestRefusedException notPeer = assertThrows(RequestRefusedException.class, () -> r.schedule(peerOf("j2").pid(), nice3));
        assertEquals("cannot schedule process " + children.get(0).pid() + " of job j1: it is not a peer of this job", notPeer.getMessage());
        long self = ProcessHandle.current().pid();
        assertThrows(RequestRefusedException.class, () -> r.schedule(self, nice3), "the test JVM is no peer of j1");
        // Another connection naming j1 (say, another user who read the job id from cohort status):
        Process peer = peerOf("j1");
        RequestRefusedException foreign = assertThrows(RequestRefusedException.class, () -> client.request(
                db, "m1", MessageType.SCHEDULE, MessageBody.empty().put("job", "j1").put("pid", peer.pid())
                        .put("policy", "normal").put("nice", -20).put("rt", 1)));
        assertEquals("job j1 was not registered with a partition on this connection", foreign.getMessage());
        RequestRefusedException release = assertThrows(RequestRefusedException.class, () -> client.request(
                db, "m1", MessageType.JOB_RELEASE, MessageBody.empty().put("job", "j1")));
        assertEquals("job j1 was not registered on this connection", release.getMessage());
    }

    @Test
    void registrationChecksThePartitionByTheDaemonsOwnDatabaseAndTheSlots() throws Exception {
        RequestRefusedException unknown = assertThrows(RequestRefusedException.class, () -> register("j1", "nope"));
        assertEquals("cluster test has no partition 'nope'", unknown.getMessage());
        RequestRefusedException closed = assertThrows(RequestRefusedException.class, () -> register("j1", "closed"));
        assertEquals("user " + System.getProperty("user.name") + " may not run jobs in partition closed", closed.getMessage());
        register("j1", "open");
        register("j2", "open");
        RequestRefusedException full = assertThrows(RequestRefusedException.class, () -> register("j3", "open"));
        assertEquals("m1 has no free job slot (2 of 2 taken)", full.getMessage());
    }

    @Test
    void aPeerThatExitedBeforeItsRequestIsAnsweredAsExitedNotRefused() throws Exception {
        DaemonClient.JobRegistration r = register("j1", "open");
        Process peer = peerOf("j1");
        peer.destroyForcibly().waitFor(); // reaped: its pid names no process any more
        assertEquals("exited", r.schedule(peer.pid(), new SchedulingRequest(SchedulingPolicy.NORMAL, 3, 1)));
    }
}

package io.cohort.daemon;

import io.cohort.net.ConnectionAdmission;
import io.cohort.cluster.ClusterDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Four daemons in this JVM on 127.0.0.1..4 (m1 and m2 are load servers), fast settings. */
@Timeout(60)
class DaemonLoopbackTest {
    private final List<Daemon> daemons = new ArrayList<>();
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream logStream = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
    private ClusterDb db;
    private DaemonClient client;

    @BeforeEach
    void start() throws Exception {
        db = TestClusters.loopback(4, 2, TestClusters.fast(TestClusters.freePort()));
        for (String m : db.memberOrder()) {
            daemons.add(startDaemon(m));
        }
        client = new DaemonClient(TestClusters.KEY, "test@here", db);
        awaitStates(MemberState.UP, MemberState.UP, MemberState.UP, MemberState.UP);
    }

    private Daemon startDaemon(String member) throws ClusterConfigException {
        return Daemon.start(db, member, TestClusters.KEY, new DaemonLog(member, logStream, Clock.systemUTC()), Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        daemons.forEach(Daemon::close);
    }

    private List<MemberState> states() throws Exception {
        return client.status(db).members().stream().map(MemberStatus::state).toList();
    }

    private void awaitStates(MemberState... expected) throws Exception {
        List<MemberState> want = List.of(expected);
        await(() -> {
            try {
                return states().equals(want);
            } catch (Exception e) {
                return false;
            }
        }, Duration.ofSeconds(20), () -> "states " + safeStates() + " instead of " + want + "\n" + log());
    }

    private String safeStates() {
        try {
            return states().toString();
        } catch (Exception e) {
            return e.toString();
        }
    }

    private String log() {
        return logBytes.toString(StandardCharsets.UTF_8);
    }

    /** Polls {@code condition} until it holds or the deadline passes. */
    static void await(BooleanSupplier condition, Duration within, java.util.function.Supplier<String> why) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(why.get());
            }
            Thread.sleep(20); // polling a daemon's table: there is no event to wait on from outside
        }
    }

    @Test
    void theRingFormsInDatabaseOrder() throws Exception {
        await(() -> "m2".equals(daemons.get(0).ringSuccessor()) && "m1".equals(daemons.get(3).ringSuccessor()),
                Duration.ofSeconds(10), () -> "ring not formed\n" + log());
    }

    @Test
    void aStoppedDaemonIsReportedDownByTheRingAndComesBackWhenRestarted() throws Exception {
        daemons.get(2).close();
        awaitStates(MemberState.UP, MemberState.UP, MemberState.DOWN, MemberState.UP); // the time: scripts/bench-cluster-box.sh
        MemberStatus m3 = client.status(db).member("m3");
        assertTrue(m3.reason().contains("reported by m"), m3.reason());
        await(() -> "m4".equals(daemons.get(1).ringSuccessor()), Duration.ofSeconds(10), () -> "m2 did not skip m3\n" + log());
        daemons.set(2, startDaemon("m3"));
        awaitStates(MemberState.UP, MemberState.UP, MemberState.UP, MemberState.UP);
        await(() -> "m3".equals(daemons.get(1).ringSuccessor()), Duration.ofSeconds(10), () -> "m2 did not go back to m3\n" + log());
    }

    @Test
    void drainResumeAndSlotsReachTheMemberAndTheLoadServers() throws Exception {
        String m3 = "m3";
        String ls = "m1";
        MessageBody drain = MessageBody.empty().put("member", "m3").put("reason", "new disk");
        assertEquals("member", client.request(db, m3, MessageType.DRAIN, drain).get("applied"));
        assertEquals("table", client.request(db, ls, MessageType.DRAIN, drain).get("applied"));
        MemberStatus s = client.status(db).member("m3");
        assertEquals(MemberState.DRAINED, s.state());
        assertEquals("new disk", s.reason());
        assertEquals(0, s.slots());
        MessageBody resume = MessageBody.empty().put("member", "m3");
        client.request(db, m3, MessageType.RESUME, resume);
        client.request(db, ls, MessageType.RESUME, resume);
        assertEquals(MemberState.UP, client.status(db).member("m3").state());
        client.request(db, m3, MessageType.SLOTS, MessageBody.empty().put("member", "m3").put("slots", 9));
        await(() -> {
            try {
                return client.status(db).member("m3").slots() == 9;
            } catch (Exception e) {
                return false;
            }
        }, Duration.ofSeconds(10), () -> "slots not pushed");
        RequestRefusedException bad = assertThrows(RequestRefusedException.class,
                () -> client.request(db, ls, MessageType.SLOTS, MessageBody.empty().put("member", "nobody").put("slots", 1)));
        assertTrue(bad.getMessage().contains("no member 'nobody'"), bad.getMessage());
    }

    @Test
    void aJobCountsWhileItsConnectionLivesAndIsReleasedWhenItCloses() throws Exception {
        String m4 = "m4";
        DaemonClient.JobRegistration r = client.registerJob(db, m4, "job-1", "alice");
        assertEquals(List.of("job-1"), daemons.get(3).activeJobs());
        await(() -> {
            try {
                return client.status(db).member("m4").jobs().equals(List.of("job-1"));
            } catch (Exception e) {
                return false;
            }
        }, Duration.ofSeconds(10), () -> "job not pushed");
        assertThrows(RequestRefusedException.class, () -> client.registerJob(db, m4, "job-1", "alice"));
        r.close();
        await(() -> daemons.get(3).activeJobs().isEmpty(), Duration.ofSeconds(10), () -> "job not released");
        // A connection that simply dies (a crashed io-manager) releases its job too.
        FrameStream raw = client.open(m4, DaemonClient.addressOf(db, m4));
        raw.write(MessageType.JOB_REGISTER, MessageBody.empty().put("job", "job-2").put("user", "bob"));
        raw.read();
        assertEquals(List.of("job-2"), daemons.get(3).activeJobs());
        raw.socket().setSoLinger(true, 0);
        raw.close();
        await(() -> daemons.get(3).activeJobs().isEmpty(), Duration.ofSeconds(10), () -> "job of a reset connection not released");
    }

    /**
     * A daemon restarted while a job runs learns the job again: the launcher's registration notices
     * its connection end and registers anew. Before, the restarted daemon forgot the job, and new
     * jobs could be placed on the slots it occupies.
     */
    @Test
    void aRestartedDaemonGetsTheRegistrationOfARunningJobBack() throws Exception {
        List<String> notices = new java.util.concurrent.CopyOnWriteArrayList<>();
        DaemonClient.JobRegistration r = client.registerJob(db, "m4", "job-7", "alice", null, notices::add);
        assertEquals(List.of("job-7"), daemons.get(3).activeJobs());
        daemons.get(3).close();
        Daemon restarted = startDaemon("m4"); // the same address and port
        daemons.set(3, restarted);
        // The daemon counts the job before the launcher's side has read its answer and said so.
        await(() -> restarted.activeJobs().equals(List.of("job-7")) && notices.size() == 2, Duration.ofSeconds(20),
                () -> "the job was not registered again: " + notices + "\n" + log());
        assertEquals("the daemon of m4 dropped job job-7's registration (it closed the connection); registering it again",
                notices.get(0));
        assertEquals("job job-7 is registered again with the daemon of m4", notices.get(1));
        r.close();
        await(() -> restarted.activeJobs().isEmpty(), Duration.ofSeconds(10), () -> "job not released after the renewal");
    }

    @Test
    void forgedAndReplayedMessagesAreRefusedCountedAndLogged() throws Exception {
        DaemonClient forger = new DaemonClient(TestClusters.OTHER_KEY, "mallory", db);
        String ls = "m1";
        assertThrows(java.io.IOException.class, () -> forger.request(db, ls, MessageType.DRAIN,
                MessageBody.empty().put("member", "m2").put("reason", "forged")));
        assertNotEquals(MemberState.DRAINED, client.status(db).member("m2").state(), "the forged drain took effect");
        assertTrue(daemons.get(0).refusals().count(Refusal.BAD_MAC) >= 1);
        // A captured, authentic update replayed to the load server.
        MessageAuthenticator m4 = new MessageAuthenticator(TestClusters.KEY, "m4", Clock.systemUTC(), 30_000, new ReplayGuard(30_000, 10));
        byte[] update = m4.seal(MessageType.UPDATE, new LoadUpdate(0, 0, 0, 2, 4, List.of(), null).toBody(), "m1");
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.4", 0))) {
            s.send(new DatagramPacket(update, update.length, DaemonClient.addressOf(db, ls)));
            s.send(new DatagramPacket(update, update.length, DaemonClient.addressOf(db, ls)));
            byte[] junk = "GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            s.send(new DatagramPacket(junk, junk.length, DaemonClient.addressOf(db, ls)));
        }
        await(() -> daemons.get(0).refusals().count(Refusal.REPLAYED) >= 1 && daemons.get(0).refusals().count(Refusal.MALFORMED) >= 1,
                Duration.ofSeconds(10), () -> "replay not refused: " + daemons.get(0).refusals().counts());
        assertTrue(log().contains("refused a message from /127.0.0.4"), log());
        assertTrue(log().contains("replayed nonce"), log());
        // Awaited: on a loaded machine the ring may see a stalled daemon as down for a moment.
        awaitStates(MemberState.UP, MemberState.UP, MemberState.UP, MemberState.UP); // nothing crashed
    }

    @Test
    void idleConnectionsBeyondTheCapOfTheirAddressShedTheOldestWithABusyNoticeAndAreCounted() throws Exception {
        InetSocketAddress ls = DaemonClient.addressOf(db, "m1");
        int extra = 4;
        List<java.net.Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < ConnectionAdmission.MAX_PENDING_PER_SOURCE + extra; i++) {
                java.net.Socket s = new java.net.Socket();
                s.bind(new InetSocketAddress("127.0.0.9", 0));
                s.connect(ls, 2000);
                s.setSoTimeout(1500); // less than daemon.auth_timeout: only a shed connection ends in time
                held.add(s);
            }
            // The oldest are shed, each told BUSY before its end of stream; the newest are still waiting.
            for (int i = 0; i < extra; i++) {
                byte[] notice = held.get(i).getInputStream().readNBytes(RefusalNotice.LENGTH + 1);
                assertEquals(new RefusalNotice(RefusalNotice.Reason.BUSY, 0), RefusalNotice.decode(notice, 0));
                assertEquals(RefusalNotice.LENGTH, notice.length, "no end of stream after the notice");
            }
        } finally {
            for (java.net.Socket s : held) {
                s.close();
            }
        }
        await(() -> {
            try {
                return client.status(db).counters().getOrDefault("refused.shed", 0L) >= extra;
            } catch (Exception e) {
                return false;
            }
        }, Duration.ofSeconds(20), () -> "shed connections not counted: " + safeCounters());
    }

    private String safeCounters() {
        try {
            return client.status(db).counters().toString();
        } catch (Exception e) {
            return e.toString();
        }
    }

    @Test
    void noLoadServerAnsweringIsOneSentence() throws Exception {
        daemons.get(0).close();
        daemons.get(1).close();
        ClusterUnreachableException e = assertThrows(ClusterUnreachableException.class, () -> client.status(db));
        assertTrue(e.getMessage().startsWith("no load server of cluster test answered: m1 (connection refused), m2 (connection refused)"),
                e.getMessage());
    }
}

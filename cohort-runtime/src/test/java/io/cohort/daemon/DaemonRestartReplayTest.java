package io.cohort.daemon;

import io.cohort.cluster.ClusterDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A daemon's replay guard dies with it: a request captured before a restart, replayed within
 * {@code daemon.max_skew} after it, must be refused all the same, and a client whose clock is a little
 * behind the daemon's must still get through right after the restart. Real daemons on loopback.
 */
@Timeout(60)
class DaemonRestartReplayTest {
    private final List<Daemon> daemons = new ArrayList<>();
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream logStream = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
    private ClusterDb db;

    @BeforeEach
    void start() throws Exception {
        db = TestClusters.loopback(2, 1, TestClusters.fast(TestClusters.freePort()));
        daemons.add(startDaemon("m1"));
        daemons.add(startDaemon("m2"));
    }

    private Daemon startDaemon(String member) throws ClusterConfigException {
        return Daemon.start(db, member, TestClusters.KEY, new DaemonLog(member, logStream, Clock.systemUTC()), Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        daemons.forEach(Daemon::close);
    }

    private String log() {
        return logBytes.toString(StandardCharsets.UTF_8);
    }

    /** Sends a captured frame as it was on a new connection; returns all the daemon sent back before closing. */
    private static byte[] replay(InetSocketAddress to, byte[] frame) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(to, 2000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(frame);
            s.shutdownOutput();
            return s.getInputStream().readAllBytes();
        }
    }

    @Test
    void aDrainCapturedBeforeARestartIsRefusedAfterItAndALateClockStillGetsThrough() throws Exception {
        InetSocketAddress m2 = DaemonClient.addressOf(db, "m2");
        MessageAuthenticator admin = new MessageAuthenticator(TestClusters.KEY, "admin@here", Clock.systemUTC(), 30_000,
                new ReplayGuard(30_000, 10));
        byte[] captured = admin.seal(MessageType.DRAIN, MessageBody.empty().put("member", "m2").put("reason", "captured"), "m2");
        byte[] first = replay(m2, captured); // the admin's own request: taken
        assertTrue(first.length > RefusalNotice.LENGTH, "the drain was not answered\n" + log());

        daemons.get(1).close(); // systemd restarts a crashed daemon within seconds: well within daemon.max_skew
        daemons.set(1, startDaemon("m2"));
        Daemon restarted = daemons.get(1);

        // A client whose clock is 4 s behind, right after the restart: refused as before the start, waits, asks again.
        MessageAuthenticator lateAuth = new MessageAuthenticator(TestClusters.KEY, "late@here",
                Clock.offset(Clock.systemUTC(), Duration.ofMillis(-4000)), 30_000, new ReplayGuard(30_000, 10));
        DaemonClient late = new DaemonClient(lateAuth, new RefusalLog(new DaemonLog("late", new PrintStream(
                java.io.OutputStream.nullOutputStream()), Clock.systemUTC())), Duration.ofSeconds(2), Duration.ofSeconds(5), null);
        MessageBody resumed = late.request(db, "m2", MessageType.RESUME, MessageBody.empty().put("member", "m2"));
        assertTrue(resumed != null, "no answer");
        assertEquals(1, restarted.refusals().count(Refusal.PREDATES_START), "the late clock's first try was not refused\n" + log());

        // The captured drain, replayed to the new daemon: its nonce is new to it, its time is before its start.
        byte[] answer = replay(m2, captured);
        assertEquals(new RefusalNotice(RefusalNotice.Reason.PREDATES_START, 0).reason(),
                RefusalNotice.decode(answer, 0) == null ? null : RefusalNotice.decode(answer, 0).reason(),
                "the replayed drain was answered with " + answer.length + " bytes, not refused\n" + log());
        assertEquals(2, restarted.refusals().count(Refusal.PREDATES_START), restarted.refusals().counts().toString());
        assertTrue(log().contains("time-stamped before this daemon started (a replay from before a restart, or a clock behind)"
                + " (from 'admin@here'"), log());
        // Nothing the replay asked was done: the daemon drained m2 once, before the restart.
        assertEquals(1, log().lines().filter(l -> l.contains("m2 drained by admin@here: captured")).count(), log());
    }
}

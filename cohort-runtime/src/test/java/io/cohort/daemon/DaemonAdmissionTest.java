package io.cohort.daemon;

import io.cohort.net.ConnectionAdmission;
import io.cohort.cluster.ClusterDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * cohortd under a connection flood, on loopback: real daemons ({@link Daemon#start}), real sockets from
 * many source addresses of 127/8. Idle connections without the key must not keep a client with it out,
 * and they end after {@code daemon.auth_timeout}; a client that fails says whether the daemon was busy
 * or flooded, or refused its key.
 */
@Timeout(60)
class DaemonAdmissionTest {
    private static final int FLOOD = 300;
    private static final int FLOOD_SOURCES = 30;

    private final List<Daemon> daemons = new ArrayList<>();
    private final List<Socket> flood = new ArrayList<>();
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream logStream = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
    private ClusterDb db;
    private DaemonClient client;

    @BeforeEach
    void start() throws Exception {
        db = TestClusters.loopback(2, 2, TestClusters.fast(TestClusters.freePort()));
        for (String m : db.memberOrder()) {
            daemons.add(Daemon.start(db, m, TestClusters.KEY, new DaemonLog(m, logStream, Clock.systemUTC()), Clock.systemUTC()));
        }
        client = new DaemonClient(TestClusters.KEY, "test@here", db);
        DaemonLoopbackTest.await(() -> {
            try {
                return client.status(db).members().stream().allMatch(m -> m.state() == MemberState.UP);
            } catch (Exception e) {
                return false;
            }
        }, Duration.ofSeconds(20), () -> "members not up\n" + log());
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket s : flood) {
            s.close();
        }
        daemons.forEach(Daemon::close);
    }

    private String log() {
        return logBytes.toString(StandardCharsets.UTF_8);
    }

    /** {@code n} idle connections to every load server, from {@link #FLOOD_SOURCES} addresses 127.0.1.x, sending nothing. */
    private void floodLoadServers(int n) throws IOException {
        for (String ls : db.loadServers()) {
            InetSocketAddress to = DaemonClient.addressOf(db, ls);
            for (int i = 0; i < n; i++) {
                Socket s = new Socket();
                flood.add(s);
                s.bind(new InetSocketAddress("127.0.1." + (1 + i % FLOOD_SOURCES), 0));
                s.connect(to, 2000);
            }
        }
    }

    /** Holds every authenticated place of {@code member}'s daemon: connections that asked once, were answered, and stay. */
    private void holdEveryAuthenticatedPlace(String member) throws IOException {
        MessageAuthenticator holder = new MessageAuthenticator(TestClusters.KEY, "holder@here", Clock.systemUTC(), 30_000,
                new ReplayGuard(30_000, 10));
        InetSocketAddress to = DaemonClient.addressOf(db, member);
        for (int i = 0; i < ConnectionAdmission.MAX_AUTHENTICATED; i++) {
            Socket s = new Socket();
            flood.add(s);
            s.bind(new InetSocketAddress("127.0.2." + (1 + i % FLOOD_SOURCES), 0));
            s.connect(to, 2000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(holder.seal(MessageType.STATUS, MessageBody.empty(), member));
            InputStream in = s.getInputStream();
            byte[] length = in.readNBytes(4);
            int n = ((length[0] & 0xFF) << 24) | ((length[1] & 0xFF) << 16) | ((length[2] & 0xFF) << 8) | (length[3] & 0xFF);
            if (length.length < 4 || in.readNBytes(n - 4).length != n - 4) {
                throw new AssertionError("holder " + i + " was not answered\n" + log());
            }
        }
    }

    @Test
    void aFloodOfIdleConnectionsLeavesStatusWorkingAndEndsAfterTheAuthTimeout() throws Exception {
        long t0 = System.nanoTime();
        floodLoadServers(FLOOD);
        // Each request is a new connection the flood competes with: every one of them must be answered.
        for (int i = 0; i < 5; i++) {
            long r0 = System.nanoTime();
            StatusTable t = client.status(db);
            long ms = (System.nanoTime() - r0) / 1_000_000;
            assertTrue(ms < 3000, "status took " + ms + " ms under the flood");
            assertTrue(t.members().size() == 2, t.toString());
        }
        // Every flooding connection is closed by the daemon after daemon.auth_timeout (2 s), not held.
        long deadline = t0 + Duration.ofSeconds(2 + 8).toNanos();
        for (Socket s : flood) {
            s.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            try {
                while (s.getInputStream().read() >= 0) {
                    // the notice's bytes, then the end of stream
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("a flooding connection from " + s.getLocalSocketAddress() + " is still open "
                        + (System.nanoTime() - t0) / 1_000_000 + " ms after the flood began\n" + log());
            } catch (IOException reset) {
                // closed: what is asked
            }
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms >= 1500, "the flood was closed after " + ms + " ms, before daemon.auth_timeout");
        assertTrue(daemons.get(0).refusals().count(Refusal.AUTH_TIMEOUT) + daemons.get(0).refusals().count(Refusal.SHED) >= FLOOD,
                daemons.get(0).refusals().counts().toString());
        assertTrue(log().contains("no authentic frame within daemon.auth_timeout"), log());
    }

    @Test
    void aBusyDaemonAndAWrongKeyFailWithDifferentSentences() throws Exception {
        DaemonClient wrongKey = new DaemonClient(TestClusters.OTHER_KEY, "test@here", db);
        ClusterUnreachableException keyFailure = assertThrows(ClusterUnreachableException.class, () -> wrongKey.status(db));
        assertTrue(keyFailure.getMessage().contains("m1 (refused the request: wrong cluster key"), keyFailure.getMessage());
        assertFalse(keyFailure.getMessage().contains("busy or flooded"), keyFailure.getMessage());
        assertTrue(keyFailure.getMessage().endsWith("check that their cohortd runs and has the same cluster key"), keyFailure.getMessage());

        holdEveryAuthenticatedPlace("m1");
        holdEveryAuthenticatedPlace("m2");
        ClusterUnreachableException busy = assertThrows(ClusterUnreachableException.class, () -> client.status(db));
        assertTrue(busy.getMessage().contains("m1 (the daemon is busy or flooded: it closed the connection before reading the request"),
                busy.getMessage());
        assertFalse(busy.getMessage().contains("cluster key"), busy.getMessage());
        assertTrue(busy.getMessage().endsWith("try again in a few seconds; the daemons' logs name who floods them"), busy.getMessage());
    }
}

package io.cohort.systest;

import io.cohort.cluster.ClusterDb;
import io.cohort.daemon.ClusterKey;
import io.cohort.daemon.DaemonClient;
import io.cohort.daemon.MemberState;
import io.cohort.daemon.MessageAuthenticator;
import io.cohort.daemon.MessageBody;
import io.cohort.daemon.MessageType;
import io.cohort.daemon.ReplayGuard;
import io.cohort.daemon.StatusTable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Attacks on cohortd in a cluster in a box (issue 42, items 5 and 6): the daemons are the
 * distribution's {@code bin/cohortd}, one per namespace, hosts 1 and 2 the load servers; the attacker
 * and {@code cohort} run in the root namespace, so the flood comes from the very address the user's
 * commands do.
 */
@Tag("long")
class DaemonFloodSystemTest {
    @RegisterExtension
    static final ClusterInABox.Extension BOX = new ClusterInABox.Extension(3);

    private static final int PORT = 7470;
    private static final int FLOOD = 300;

    @TempDir
    Path dir;
    private BoxDaemons daemons;
    private ClusterDb cluster;
    private final List<Socket> held = new ArrayList<>();

    @BeforeEach
    void startDaemons() throws Exception {
        daemons = new BoxDaemons(BOX.box(), dir, 2, 2, List.of("daemon.port = " + PORT, "daemon.update_interval = 500ms",
                "daemon.ttl = 3000ms", "daemon.heartbeat = 250ms", "daemon.ring_timeout = 1s"), List.of(), List.of());
        cluster = daemons.cluster();
        daemons.awaitTable(t -> t.members().size() == 3 && t.members().stream().allMatch(m -> m.state() == MemberState.UP),
                Duration.ofSeconds(60), "every member up");
    }

    @AfterEach
    void stop() throws Exception {
        for (Socket s : held) {
            s.close();
        }
        daemons.close();
        assertTrue(BOX.box().awaitNoProcessesInHosts(Duration.ofSeconds(10)), "daemons left running");
    }

    private String name(int host) {
        return BOX.box().host(host).name();
    }

    private CohortProcess cohort(Path key, String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("--cluster-db", daemons.db().toString(), "--key", key.toString()));
        CohortProcess p = CohortProcess.start(a.toArray(new String[0]));
        p.closeStdin();
        p.waitFor();
        return p;
    }

    /** {@code n} connections to {@code host}'s daemon that never send a byte, as a client without the key can open. */
    private List<Socket> idle(int host, int n) throws IOException {
        List<Socket> flood = new ArrayList<>();
        InetSocketAddress to = DaemonClient.addressOf(cluster, name(host));
        for (int i = 0; i < n; i++) {
            Socket s = new Socket();
            held.add(s);
            flood.add(s);
            s.connect(to, 2000);
        }
        return flood;
    }

    /** Holds every authenticated place of {@code host}'s daemon: connections that asked once with the key and stay open. */
    /**
     * Opens authenticated connections to {@code host}'s daemon and keeps them, until the daemon turns
     * one away (a 13-byte notice instead of an answer): then every place is held, by us or by the
     * daemon's own links. Called again, it takes any place that came free meanwhile (a ring link that
     * reconnected, say).
     */
    private void holdEveryAuthenticatedPlace(int host) throws Exception {
        long skew = cluster.daemon().maxSkew().toMillis();
        MessageAuthenticator holder = new MessageAuthenticator(ClusterKey.load(daemons.key()), "holder", Clock.systemUTC(), skew,
                new ReplayGuard(skew, 10));
        InetSocketAddress to = DaemonClient.addressOf(cluster, name(host));
        for (int i = 0; i < 300; i++) {
            Socket s = new Socket();
            held.add(s);
            s.connect(to, 2000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(holder.seal(MessageType.STATUS, MessageBody.empty(), name(host)));
            InputStream in = s.getInputStream();
            byte[] length = in.readNBytes(4);
            if (length.length < 4) {
                throw new AssertionError("holder " + i + " of " + name(host) + " was not answered\n" + daemons.logs());
            }
            int n = ((length[0] & 0xFF) << 24) | ((length[1] & 0xFF) << 16) | ((length[2] & 0xFF) << 8) | (length[3] & 0xFF);
            if (in.readNBytes(n - 4).length != n - 4) {
                throw new AssertionError("holder " + i + " of " + name(host) + " got half an answer\n" + daemons.logs());
            }
            if (n == 13) {
                return; // turned away: the daemon is full
            }
        }
        throw new AssertionError(name(host) + " admitted 300 connections without turning one away\n" + daemons.logs());
    }

    @Test
    @Timeout(90)
    void aFloodOfIdleConnectionsLeavesCohortStatusWorkingAndIsClosedAfterTheAuthTimeout() throws Exception {
        long t0 = System.nanoTime();
        List<Socket> flood = new ArrayList<>(idle(1, FLOOD));
        flood.addAll(idle(2, FLOOD));
        CohortProcess p = cohort(daemons.key(), "status");
        assertEquals(0, p.exitCode(), p + "\n" + daemons.logs());
        assertEquals(3, p.out().stream().filter(l -> l.startsWith("all ") && l.contains(" up ")).count(), p.toString());
        // Every flooding connection is closed by its daemon once daemon.auth_timeout (2 s) has passed.
        long deadline = t0 + Duration.ofSeconds(15).toNanos();
        for (Socket s : flood) {
            s.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            try {
                while (s.getInputStream().read() >= 0) {
                    // the daemon's notice, then the end of stream
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("a flooding connection to " + s.getRemoteSocketAddress() + " is still open "
                        + (System.nanoTime() - t0) / 1_000_000 + " ms after the flood began\n" + daemons.logs());
            } catch (IOException reset) {
                // closed: what is asked
            }
        }
        System.out.println("cohortd: " + 2 * FLOOD + " idle connections closed within " + (System.nanoTime() - t0) / 1_000_000
                + " ms; cohort status answered meanwhile");
        StatusTable t = daemons.awaitTable(x -> x.counters().getOrDefault("refused.shed", 0L)
                + x.counters().getOrDefault("refused.auth_timeout", 0L) >= FLOOD, Duration.ofSeconds(20), "the flood counted");
        assertTrue(daemons.daemon(1).err().stream().anyMatch(l -> l.contains("refused a message from /" + BOX.box().bridgeAddress())
                && (l.contains("no authentic frame within daemon.auth_timeout") || l.contains("too many connections waiting"))),
                daemons.logs());
        assertTrue(t.counters().containsKey("refused.auth_timeout"), t.counters().toString());
    }

    @Test
    @Timeout(90)
    void exit69SaysBusyOrFloodedForAFullDaemonAndWrongKeyForAnotherKey() throws Exception {
        Path wrong = dir.resolve("wrong.key");
        ClusterKey.generate(wrong);
        CohortProcess forged = cohort(wrong, "status");
        assertEquals(69, forged.exitCode(), forged.toString());
        String keyMessage = String.join("\n", forged.err());
        assertTrue(keyMessage.contains(name(1) + " (refused the request: wrong cluster key"), keyMessage);
        assertFalse(keyMessage.contains("busy or flooded"), keyMessage);

        // A place may come free between our holding and the command's asking (the daemons' own links
        // reconnect): hold again and ask again, a few times at most.
        CohortProcess busy = null;
        for (int attempt = 0; attempt < 5 && (busy == null || busy.exitCode() != 69); attempt++) {
            holdEveryAuthenticatedPlace(1);
            holdEveryAuthenticatedPlace(2);
            busy = cohort(daemons.key(), "status");
        }
        assertEquals(69, busy.exitCode(), busy + "\n" + daemons.logs());
        String busyMessage = String.join("\n", busy.err());
        assertTrue(busyMessage.contains(name(1) + " (the daemon is busy or flooded"), busyMessage);
        assertTrue(busyMessage.contains(name(2) + " (the daemon is busy or flooded"), busyMessage);
        assertFalse(busyMessage.contains("cluster key"), busyMessage);
    }

    @Test
    @Timeout(90)
    void aDrainCapturedBeforeTheDaemonRestartsIsRefusedAfterIt() throws Exception {
        String victim = name(3);
        InetSocketAddress to = DaemonClient.addressOf(cluster, victim);
        byte[] captured = ReplayProbe.sealedDrainRequest(ClusterKey.load(daemons.key()), cluster, victim, "captured");
        ReplayProbe.send(to, captured); // the administrator's own request, recorded on the way
        assertTrue(daemons.daemon(3).awaitErr(l -> l.contains(victim + " drained by admin: captured"), 1), daemons.logs());
        CohortProcess resume = cohort(daemons.key(), "admin", "resume", victim);
        assertEquals(0, resume.exitCode(), resume.toString());

        // The daemon crashes and is restarted at once (systemd waits 2 s): well within daemon.max_skew (30 s).
        daemons.daemon(3).process().destroyForcibly();
        daemons.daemon(3).process().waitFor();
        daemons.restart(3);
        assertTrue(daemons.daemon(3).awaitErr(l -> l.contains("serving member " + victim), 1), daemons.logs());

        ReplayProbe.send(to, captured);
        // Whichever comes first in its log: the drain applied again, or the replay refused.
        String refusal = "time-stamped before this daemon started (a replay from before a restart, or a clock behind)";
        assertTrue(daemons.daemon(3).awaitErr(l -> l.contains("drained by") || l.contains(refusal), 1), daemons.logs());
        assertEquals(List.of(), daemons.daemon(3).err().stream().filter(l -> l.contains("drained by")).toList(), daemons.logs());
        assertTrue(daemons.daemon(3).err().stream().anyMatch(l -> l.contains("refused a message from /" + BOX.box().bridgeAddress())
                && l.contains(refusal) && l.contains("from 'admin'")), daemons.logs());
        daemons.awaitTable(t -> t.member(victim).state() == MemberState.UP && t.member(victim).slots() == 2,
                Duration.ofSeconds(20), victim + " up with its slots after the replay");
    }
}

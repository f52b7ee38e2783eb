package io.cohort.systest;

import io.cohort.cluster.ClusterDb;
import io.cohort.daemon.ClusterKey;
import io.cohort.daemon.DaemonClient;
import io.cohort.daemon.MemberState;
import io.cohort.daemon.MemberStatus;
import io.cohort.daemon.StatusTable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * cohortd on a cluster in a box: four hosts, one daemon process per network namespace, started with
 * the distribution's {@code bin/cohortd} and finding its member by its interface address; host 1 and 2
 * are the load servers. {@code cohort status} and {@code cohort admin} run from the root namespace.
 */
@Tag("long")
class DaemonBoxSystemTest {
    @RegisterExtension
    static final ClusterInABox.Extension BOX = new ClusterInABox.Extension(4);

    private static final int PORT = 7470;
    private static final long TTL_MILLIS = 3000;

    @TempDir
    Path dir;
    private BoxDaemons daemons;
    private Path db;
    private Path key;
    private ClusterDb cluster;
    private DaemonClient client;

    @BeforeEach
    void startDaemons() throws Exception {
        daemons = new BoxDaemons(BOX.box(), dir, 2, 2, List.of("daemon.port = " + PORT, "daemon.update_interval = 500ms",
                "daemon.ttl = " + TTL_MILLIS + "ms", "daemon.heartbeat = 250ms", "daemon.ring_timeout = 1s"), List.of(), List.of());
        db = daemons.db();
        key = daemons.key();
        cluster = daemons.cluster();
        client = daemons.client();
    }

    @AfterEach
    void killDaemons() throws Exception {
        daemons.close();
        BOX.box().exec(BOX.box().host(4), "nft", "delete", "table", "inet", "cohortd_test");
        assertTrue(BOX.box().awaitNoProcessesInHosts(Duration.ofSeconds(10)), "daemons left running");
    }

    private String name(int host) {
        return BOX.box().host(host).name();
    }

    private String logs() {
        return daemons.logs();
    }

    private StatusTable awaitTable(Predicate<StatusTable> done, Duration within, String what) throws Exception {
        return daemons.awaitTable(done, within, what);
    }

    private static boolean all(StatusTable t, MemberState s) {
        return t.members().size() == 4 && t.members().stream().allMatch(m -> m.state() == s);
    }

    private static MemberState state(StatusTable t, String member) {
        return t.member(member).state();
    }

    private CohortProcess cohort(String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("--cluster-db", db.toString(), "--key", key.toString()));
        CohortProcess p = CohortProcess.start(a.toArray(new String[0]));
        p.closeStdin();
        p.waitFor();
        return p;
    }

    @Test
    @Timeout(90)
    void cohortStatusShowsEveryMemberUp() throws Exception {
        awaitTable(t -> all(t, MemberState.UP), Duration.ofSeconds(60), "every member up");
        CohortProcess p = cohort("status");
        assertEquals(0, p.exitCode(), p.toString());
        List<String> rows = p.out().stream().filter(l -> l.startsWith("all ")).toList();
        assertEquals(4, rows.size(), p.toString());
        for (int i = 1; i <= 4; i++) {
            String n = name(i);
            assertTrue(rows.stream().anyMatch(r -> r.matches("all\\s+" + n + "\\s+up\\s+[0-9.]+\\s+[0-9.]+\\s+[0-9.]+\\s+2\\s+2\\s+0\\s+-")),
                    p.toString());
        }
        // Each daemon found its member by its namespace's address, not by --member.
        for (int i = 0; i < 4; i++) {
            String n = name(i + 1);
            assertTrue(daemons.daemon(i + 1).err().stream().anyMatch(l -> l.contains("serving member " + n + " of cluster box")), logs());
        }
    }

    @Test
    @Timeout(90)
    void aDaemonKilledWithSigkillIsReportedDownByTheRingAndComesBackWhenRestarted() throws Exception {
        awaitTable(t -> all(t, MemberState.UP), Duration.ofSeconds(60), "every member up");
        String victim = name(3);
        // Up at the load servers is not yet in the ring: a member killed before any neighbour linked it
        // is only not responding (by design: a member the ring never had is not news). The victim logs
        // its predecessor's link once that neighbour has it, and only then is its death the ring's to see.
        assertTrue(daemons.daemon(3).awaitErr(l -> l.contains("ring: predecessor ") && l.contains(" linked"), 1), logs());
        long t0 = System.nanoTime();
        daemons.daemon(3).process().destroyForcibly(); // SIGKILL
        StatusTable t = awaitTable(x -> state(x, victim) == MemberState.DOWN, Duration.ofSeconds(10), victim + " reported down");
        long detectedMillis = (System.nanoTime() - t0) / 1_000_000;
        MemberStatus m = t.member(victim);
        System.out.println("cohortd: a daemon killed with SIGKILL was reported down after " + detectedMillis
                + " ms; load server " + t.server() + ": " + m.reason());
        // Down (not not-responding, TTL 3 s) and reported by another member: the ring found it. Which
        // member is the victim's neighbour depends on the ring as it is now: after another test took
        // host 4 out by TTL, the ring may still be 1-2-3 and host 1 the one that reports. How fast is
        // measured by scripts/bench-cluster-box.sh, not asserted here.
        assertTrue(m.reason().matches("reported by (" + name(1) + "|" + name(2) + "|" + name(4) + ") at .*"), m.reason());
        // Every other member stays up (awaited: a member the loaded box stalled past the ring's timeout
        // may be reported down for a moment, and comes back), and a restarted daemon is back.
        awaitTable(x -> x.members().stream().filter(y -> !y.name().equals(victim)).allMatch(y -> y.state() == MemberState.UP),
                Duration.ofSeconds(30), "every other member up");
        daemons.restart(3);
        awaitTable(x -> all(x, MemberState.UP), Duration.ofSeconds(30), victim + " back up");
    }

    @Test
    @Timeout(90)
    void aDaemonStoppedLongerThanTheRingTimeoutReportsNoNeighbourDownWhenItRunsAgain() throws Exception {
        awaitTable(t -> all(t, MemberState.UP), Duration.ofSeconds(60), "every member up");
        // SIGSTOP host 3's daemon (a paused VM, a swapped-out process) until its neighbours report it
        // down, so that it was not running for longer than daemon.ring_timeout; then SIGCONT.
        String victim = name(3);
        ProcessHandle daemon = daemons.daemon(3).process().toHandle();
        signal("-STOP", daemon);
        try {
            awaitTable(x -> state(x, victim) == MemberState.DOWN, Duration.ofSeconds(20), victim + " reported down while stopped");
        } finally {
            signal("-CONT", daemon);
        }
        awaitTable(x -> all(x, MemberState.UP), Duration.ofSeconds(30), "every member up after " + victim + " ran again");
        // It knew it had not run, and took its links' ends for what they were: its neighbours had
        // rightly closed them and the handshakes in its backlog were stale. It reported no one down.
        assertEquals(List.of(), daemons.daemon(3).err().stream().filter(l -> l.contains("reporting it down")).toList(), logs());
        assertTrue(daemons.daemon(3).awaitErr(l -> l.contains("ring: this daemon did not run for"), 1), logs());
    }

    /** Sends {@code kill SIGNAL} to the process and its descendants (ip netns exec, the script, java). */
    private static void signal(String signal, ProcessHandle process) throws Exception {
        List<String> command = new ArrayList<>(List.of("kill", signal, Long.toString(process.pid())));
        process.descendants().forEach(d -> command.add(Long.toString(d.pid())));
        assertEquals(0, new ProcessBuilder(command).inheritIO().start().waitFor(), command.toString());
    }

    @Test
    @Timeout(90)
    void aMemberWhoseUpdatesStopExpiresByTtlWhileTheRingStillHoldsIt() throws Exception {
        awaitTable(t -> all(t, MemberState.UP), Duration.ofSeconds(60), "every member up");
        // Block host 4's outgoing UDP to the daemon port: its updates stop, its TCP ring links stay.
        ClusterInABox.Host h4 = BOX.box().host(4);
        String rules = "add table inet cohortd_test\n"
                + "add chain inet cohortd_test out { type filter hook output priority 0; }\n"
                + "add rule inet cohortd_test out udp dport " + PORT + " drop\n";
        Path f = dir.resolve("block.nft");
        Files.writeString(f, rules);
        ClusterInABox.Result r = BOX.box().exec(h4, "nft", "-f", f.toString());
        assertEquals(0, r.code(), r.toString());
        long t0 = System.nanoTime();
        StatusTable t = awaitTable(x -> state(x, name(4)) != MemberState.UP, Duration.ofSeconds(20), name(4) + " expiring");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        MemberStatus m = t.member(name(4));
        assertEquals(MemberState.NOT_RESPONDING, m.state(), m.toString());
        // By the load server's own clock the last update is older than the TTL. The test's clock only
        // bounds it loosely: the last update may have left up to an update interval before t0.
        Matcher age = Pattern.compile("last update (\\d+\\.\\d+) s ago, longer than daemon\\.ttl 3\\.0 s").matcher(m.reason());
        assertTrue(age.matches(), m.reason());
        assertTrue(Double.parseDouble(age.group(1)) * 1000 > TTL_MILLIS, m.reason());
        assertTrue(ms >= TTL_MILLIS / 2, "expired after " + ms + " ms, long before the TTL");
        System.out.println("cohortd: a member whose updates stopped expired by TTL after " + ms + " ms (daemon.ttl " + TTL_MILLIS + " ms): " + m.reason());
        BOX.box().exec(h4, "nft", "delete", "table", "inet", "cohortd_test");
        awaitTable(x -> state(x, name(4)) == MemberState.UP, Duration.ofSeconds(20), name(4) + " back up");
    }

    @Test
    @Timeout(120)
    void drainAndResumeWithCohortAdmin() throws Exception {
        awaitTable(t -> all(t, MemberState.UP), Duration.ofSeconds(60), "every member up");
        CohortProcess d = cohort("admin", "drain", name(2), "--reason", "replace fan");
        assertEquals(0, d.exitCode(), d.toString());
        assertEquals(List.of(name(2) + " drained (replace fan): taken by its daemon and load server " + name(2) + ", load server "
                + name(1)), d.out(), d.toString());
        CohortProcess s = cohort("status");
        assertTrue(s.out().stream().anyMatch(l -> l.matches("all\\s+" + name(2) + "\\s+drained\\s+.*\\s+2\\s+0\\s+0\\s+replace fan")), s.toString());
        CohortProcess j = cohort("status", "--json");
        assertTrue(String.join("", j.out()).contains("\"state\":\"drained\",\"load\""), j.toString());
        CohortProcess r = cohort("admin", "resume", name(2));
        assertEquals(0, r.exitCode(), r.toString());
        awaitTable(t -> all(t, MemberState.UP) && t.member(name(2)).slots() == 2, Duration.ofSeconds(10), "resume");
    }

    @Test
    @Timeout(90)
    void aForgedAndAReplayedMessageAreRefusedAndLogged() throws Exception {
        awaitTable(t -> all(t, MemberState.UP), Duration.ofSeconds(60), "every member up");
        Path wrong = dir.resolve("wrong.key");
        ClusterKey.generate(wrong);
        CohortProcess forged = CohortProcess.start("status", "--cluster-db", db.toString(), "--key", wrong.toString());
        forged.closeStdin();
        forged.waitFor();
        assertEquals(69, forged.exitCode(), forged.toString());
        assertTrue(daemons.daemon(1).awaitErr(l -> l.contains("refused a message from /" + BOX.box().bridgeAddress())
                && l.contains("bad MAC"), 1), logs());
        // A captured, authentic request sent again: the daemon refuses the second copy.
        byte[] captured = ReplayProbe.sealedStatusRequest(ClusterKey.load(key), cluster, name(1));
        ReplayProbe.send(DaemonClient.addressOf(cluster, name(1)), captured);
        ReplayProbe.send(DaemonClient.addressOf(cluster, name(1)), captured);
        assertTrue(daemons.daemon(1).awaitErr(l -> l.contains("replayed nonce"), 1), logs());
        // The same capture replayed to another daemon, whose replay guard never saw it: sealed for host 1 only.
        ReplayProbe.send(DaemonClient.addressOf(cluster, name(2)), captured);
        assertTrue(daemons.daemon(2).awaitErr(l -> l.contains("bad MAC"), 1), logs());
        // Host 1's counters, which saw both, and every member up: nothing crashed. Awaited, since the
        // answer comes from whichever load server is first, and host 2's counters lack the replay.
        awaitTable(t -> t.counters().getOrDefault("refused.bad_mac", 0L) >= 1 && t.counters().getOrDefault("refused.replayed", 0L) >= 1
                && all(t, MemberState.UP), Duration.ofSeconds(30), "host 1's refusal counters, every member up");
    }

    @Test
    @Timeout(120)
    void daemonsAndStatusReadTheDatabaseFromDnsServedInTheBox() throws Exception {
        daemons.close();
        assertTrue(BOX.box().awaitNoProcessesInHosts(Duration.ofSeconds(10)), "daemons left running");
        Files.createDirectories(dir.resolve("dns"));
        try (BoxDaemons dns = new BoxDaemons(BOX.box(), dir.resolve("dns"), 2, 2, List.of("daemon.port = " + PORT,
                "daemon.update_interval = 500ms", "daemon.ttl = " + TTL_MILLIS + "ms"), List.of(), List.of(), true)) {
            dns.awaitTable(t -> all(t, MemberState.UP), Duration.ofSeconds(60), "every member up, database from DNS");
            CohortProcess p = CohortProcess.start("status", "--cluster-db", dns.dbSpec(), "--key", dns.key().toString());
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.toString());
            assertEquals(4, p.out().stream().filter(l -> l.startsWith("all ") && l.contains(" up ")).count(), p.toString());
            for (int i = 1; i <= 4; i++) {
                String n = name(i);
                assertTrue(dns.daemon(i).err().stream().anyMatch(l -> l.contains("serving member " + n + " of cluster box")), dns.logs());
            }
        }
    }
}

package io.cohort.bench;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbSource;
import io.cohort.daemon.ClusterKey;
import io.cohort.daemon.ClusterUnreachableException;
import io.cohort.daemon.DaemonClient;
import io.cohort.daemon.MemberState;
import io.cohort.daemon.MemberStatus;
import io.cohort.daemon.MessageBody;
import io.cohort.daemon.MessageType;
import io.cohort.daemon.StatusTable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Failure detection of the cluster daemons (issue 7: "failure of a member reported within 5 s of its
 * daemon's death"), measured on a cluster in a box whose members are network namespaces named as in
 * the database. Run as root by {@code scripts/bench-cluster-box.sh}; not a test, it asserts nothing.
 *
 * <p>It starts one {@code cohortd} per member ({@code ip netns exec MEMBER cohortd --cluster-db DB --key
 * KEY --loadavg DIR/loadavg-MEMBER}), waits until a load server shows every member {@code up}, then:
 * <ul>
 *   <li><b>kill</b> (R trials): SIGKILL to one member's daemon, rotating over every member, load servers
 *       included (while a load server is dead the other one answers), and the time until a load server's
 *       table shows it {@code down}; then the daemon is restarted, every member must be {@code up} again,
 *       and the ring is given {@code --settle-ms} to link back to it before the next trial;</li>
 *   <li><b>stop</b> (a few trials): SIGSTOP instead: the process keeps its sockets but stops echoing
 *       heartbeats, as a hung or cut-off host does, so only {@code daemon.ring_timeout} finds it; the
 *       daemon is then killed and restarted;</li>
 *   <li><b>ttl</b> (a few trials): an nftables rule in the member's namespace drops its outgoing UDP to
 *       the daemon port, so its load updates stop while its TCP ring links stay; the time until the
 *       table shows {@code not-responding}, and (from the table) the age of its last update then,
 *       against {@code daemon.ttl}. The TTL victims are members that are not load servers.</li>
 * </ul>
 * The table is polled in-process every {@code --poll-ms}, with a STATUS request ({@link DaemonClient#request})
 * to the first load server that is not the victim: {@link DaemonClient#status} would ask a stopped first
 * load server first and wait for its read time-out (5 s) before asking the next, which measures the
 * client's fail-over, not the detection. A time is taken when the answer that shows the state has
 * arrived, so it is an upper bound by at most one poll interval plus one request. One line per trial, then {@code summary KIND n= median_ms= p99_ms=
 * max_ms=} lines (p99 by nearest rank: with 20 trials it is the maximum).
 *
 * <pre>
 * java -cp ... io.cohort.bench.FailureDetectionProbe --cluster-db DB --key KEY --cohortd PATH
 *     --loadavg-dir DIR --log-dir DIR [--trials 20] [--stop-trials 5] [--ttl-trials 3] [--poll-ms 5]
 *     [--settle-ms 3000]
 * </pre>
 */
public final class FailureDetectionProbe {
    private static final String NFT_TABLE = "cohort_bench";

    private final ClusterDb db;
    private final DaemonClient client;
    private final Path dbFile;
    private final Path keyFile;
    private final Path cohortd;
    private final Path loadavgDir;
    private final Path logDir;
    private final long pollMillis;
    private final long settleMillis;
    private final Map<String, Process> daemons = new LinkedHashMap<>();

    private FailureDetectionProbe(Map<String, String> o) throws Exception {
        dbFile = Path.of(req(o, "--cluster-db"));
        keyFile = Path.of(req(o, "--key"));
        cohortd = Path.of(req(o, "--cohortd"));
        loadavgDir = Path.of(req(o, "--loadavg-dir"));
        logDir = Path.of(req(o, "--log-dir"));
        pollMillis = Long.parseLong(o.getOrDefault("--poll-ms", "5"));
        settleMillis = Long.parseLong(o.getOrDefault("--settle-ms", "3000"));
        db = ClusterDbSource.load(dbFile.toString());
        client = new DaemonClient(ClusterKey.load(keyFile), "bench@probe", db);
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i], args[i + 1]);
        }
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("options are --name value pairs: " + Arrays.toString(args));
        }
        FailureDetectionProbe p = new FailureDetectionProbe(o);
        int trials = Integer.parseInt(o.getOrDefault("--trials", "20"));
        int stopTrials = Integer.parseInt(o.getOrDefault("--stop-trials", "5"));
        int ttlTrials = Integer.parseInt(o.getOrDefault("--ttl-trials", "3"));
        Runtime.getRuntime().addShutdownHook(new Thread(p::killAll));
        try {
            p.run(trials, stopTrials, ttlTrials);
        } finally {
            p.killAll();
        }
    }

    private static String req(Map<String, String> o, String name) {
        String v = o.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing " + name);
        }
        return v;
    }

    private void run(int trials, int stopTrials, int ttlTrials) throws Exception {
        var d = db.daemon();
        System.out.printf(Locale.ROOT, "settings heartbeat_ms=%d ring_timeout_ms=%d update_interval_ms=%d ttl_ms=%d poll_ms=%d%n",
                d.heartbeat().toMillis(), d.ringTimeout().toMillis(), d.updateInterval().toMillis(), d.ttl().toMillis(), pollMillis);
        List<String> members = db.memberOrder();
        long t0 = System.nanoTime();
        for (String m : members) {
            start(m);
        }
        awaitAllUp(Duration.ofSeconds(90));
        System.out.printf(Locale.ROOT, "all %d members up %d ms after starting their daemons%n", members.size(),
                (System.nanoTime() - t0) / 1_000_000);
        Thread.sleep(settleMillis);

        List<Long> kill = new ArrayList<>();
        List<Long> killLs = new ArrayList<>();
        List<Long> killOther = new ArrayList<>();
        for (int i = 0; i < trials; i++) {
            String victim = members.get(i % members.size());
            long ms = downAfter(victim, "kill", i + 1, false);
            if (ms >= 0) {
                kill.add(ms);
                (db.loadServers().contains(victim) ? killLs : killOther).add(ms);
            }
        }
        List<Long> stop = new ArrayList<>();
        for (int i = 0; i < stopTrials; i++) {
            String victim = members.get((i + 1) % members.size());
            long ms = downAfter(victim, "stop", i + 1, true);
            if (ms >= 0) {
                stop.add(ms);
            }
        }
        List<Long> ttl = new ArrayList<>();
        List<Long> ttlAge = new ArrayList<>();
        List<String> plain = members.stream().filter(m -> !db.loadServers().contains(m)).toList();
        for (int i = 0; i < ttlTrials && !plain.isEmpty(); i++) {
            long[] r = expiry(plain.get(i % plain.size()), i + 1);
            if (r != null) {
                ttl.add(r[0]);
                ttlAge.add(r[1]);
            }
        }
        summary("kill", kill, trials);
        summary("kill_load_server", killLs, -1);
        summary("kill_other_member", killOther, -1);
        summary("stop", stop, stopTrials);
        summary("ttl", ttl, ttlTrials);
        summary("ttl_last_update_age", ttlAge, -1);
    }

    /**
     * Kills (SIGKILL) or stops (SIGSTOP) {@code victim}'s daemon and returns the ms until a load server
     * shows it down, or -1 if it did not within 60 s; then restarts it and waits for the cluster to settle.
     */
    private long downAfter(String victim, String kind, int trial, boolean sigstop) throws Exception {
        Process p = daemons.get(victim);
        long t0 = System.nanoTime();
        if (sigstop) {
            signal(p, "STOP");
        } else {
            p.destroyForcibly(); // SIGKILL to the JVM itself: ip netns exec and bin/cohortd both exec
        }
        StatusTable t = poll(x -> state(x, victim) == MemberState.DOWN, Duration.ofSeconds(60), victim);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        String role = db.loadServers().contains(victim) ? "load server" : "member";
        if (t == null) {
            System.out.printf(Locale.ROOT, "%s %d victim %s (%s): NOT shown down within 60 s%n", kind, trial, victim, role);
            ms = -1;
        } else {
            long othersUp = t.members().stream().filter(m -> !m.name().equals(victim) && m.state() == MemberState.UP).count();
            System.out.printf(Locale.ROOT, "%s %d victim %s (%s): down after %d ms, table of %s, %d others up: %s%n", kind, trial,
                    victim, role, ms, t.server(), othersUp, t.member(victim).reason());
        }
        if (sigstop) {
            if (victim.equals(db.loadServers().get(0))) {
                // What a user's `cohort status` (DaemonClient.status, load servers in order) costs meanwhile.
                long c0 = System.nanoTime();
                String from;
                try {
                    from = client.status(db).server();
                } catch (ClusterUnreachableException e) {
                    from = "none";
                }
                System.out.printf(Locale.ROOT, "stop %d: DaemonClient.status answered after %d ms (from %s) while the first load server %s"
                        + " is stopped%n", trial, (System.nanoTime() - c0) / 1_000_000, from, victim);
            }
            p.destroyForcibly(); // a stopped process takes SIGKILL
        }
        p.waitFor();
        start(victim);
        awaitAllUp(Duration.ofSeconds(60));
        Thread.sleep(settleMillis); // the predecessor's ring probe (every second) links back to the restarted daemon
        return ms;
    }

    /** Blocks {@code victim}'s outgoing UDP; returns {ms until not-responding, age of its last update then}. */
    private long[] expiry(String victim, int trial) throws Exception {
        Path rules = logDir.resolve("block-udp.nft");
        Files.writeString(rules, "add table inet " + NFT_TABLE + "\n"
                + "add chain inet " + NFT_TABLE + " out { type filter hook output priority 0; }\n"
                + "add rule inet " + NFT_TABLE + " out udp dport " + db.daemon().port() + " drop\n");
        exec("ip", "netns", "exec", victim, "nft", "-f", rules.toString());
        long t0 = System.nanoTime();
        StatusTable t = poll(x -> state(x, victim) != MemberState.UP, Duration.ofSeconds(60), victim);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        exec("ip", "netns", "exec", victim, "nft", "delete", "table", "inet", NFT_TABLE);
        long[] r = null;
        if (t == null) {
            System.out.printf(Locale.ROOT, "ttl %d victim %s: still up after 60 s%n", trial, victim);
        } else {
            MemberStatus m = t.member(victim);
            long age = t.time() - m.lastUpdate();
            System.out.printf(Locale.ROOT, "ttl %d victim %s: %s after %d ms, last update %d ms old on %s's clock: %s%n", trial, victim,
                    m.state().label(), ms, age, t.server(), m.reason());
            if (m.state() == MemberState.NOT_RESPONDING) {
                r = new long[] {ms, age};
            }
        }
        awaitAllUp(Duration.ofSeconds(60));
        Thread.sleep(settleMillis);
        return r;
    }

    private void start(String member) throws IOException {
        Path log = logDir.resolve("cohortd-" + member + ".log");
        Path loadavg = loadavgDir.resolve("loadavg-" + member);
        ProcessBuilder b = new ProcessBuilder("ip", "netns", "exec", member, cohortd.toString(), "--cluster-db", dbFile.toString(),
                "--key", keyFile.toString(), "--loadavg", loadavg.toString());
        b.environment().put("JAVA_HOME", System.getProperty("java.home"));
        b.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        b.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        b.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        daemons.put(member, b.start());
    }

    private void killAll() {
        for (Process p : daemons.values()) {
            if (p.isAlive()) {
                p.destroyForcibly();
            }
        }
        for (Process p : daemons.values()) {
            try {
                p.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void signal(Process p, String sig) throws Exception {
        exec("kill", "-" + sig, Long.toString(p.pid()));
    }

    private static void exec(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
        }
    }

    private void awaitAllUp(Duration within) throws Exception {
        if (poll(t -> t.members().size() == db.members().size() && t.members().stream().allMatch(m -> m.state() == MemberState.UP),
                within, null) == null) {
            throw new IllegalStateException("the members were not all up within " + within.toSeconds() + " s; see " + logDir);
        }
    }

    /**
     * Polls every poll interval until {@code done} holds; null after {@code within}. With {@code victim}
     * null, any load server ({@link DaemonClient#status}); else the first load server that is not it.
     */
    private StatusTable poll(Predicate<StatusTable> done, Duration within, String victim) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        String server = victim == null ? null : db.loadServers().stream().filter(s -> !s.equals(victim)).findFirst().orElseThrow();
        while (System.nanoTime() < deadline) {
            try {
                StatusTable t = server == null ? client.status(db)
                        : StatusTable.fromBody(client.request(db, server, MessageType.STATUS, MessageBody.empty()));
                if (done.test(t)) {
                    return t;
                }
            } catch (ClusterUnreachableException | IOException | io.cohort.daemon.RequestRefusedException e) {
                // load servers down or starting: ask again
            }
            Thread.sleep(pollMillis);
        }
        return null;
    }

    private static MemberState state(StatusTable t, String member) {
        MemberStatus m = t.member(member);
        return m == null ? null : m.state();
    }

    private static void summary(String kind, List<Long> ms, int tried) {
        if (ms.isEmpty()) {
            System.out.printf(Locale.ROOT, "summary %s n=0%s%n", kind, tried > 0 ? " failed=" + tried : "");
            return;
        }
        List<Long> s = new ArrayList<>(ms);
        s.sort(null);
        int n = s.size();
        double median = n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2.0;
        long p99 = s.get(Math.max(0, (int) Math.ceil(0.99 * n) - 1));
        System.out.printf(Locale.ROOT, "summary %s n=%d median_ms=%s p99_ms=%d min_ms=%d max_ms=%d%s%n", kind, n,
                median == Math.rint(median) ? Long.toString((long) median) : String.format(Locale.ROOT, "%.1f", median), p99, s.get(0),
                s.get(n - 1), tried > n ? " failed=" + (tried - n) : "");
    }
}

package io.cohort.systest;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbSource;
import io.cohort.daemon.ClusterKey;
import io.cohort.daemon.ClusterUnreachableException;
import io.cohort.daemon.DaemonClient;
import io.cohort.daemon.StatusTable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A cohortd cluster on a cluster in a box, for system tests: a key, a database whose members are the
 * box's hosts (hosts 1 and 2 the load servers, {@code partition.all} every host) plus lines a test adds,
 * one daemon process per host started with the distribution's {@code bin/cohortd} inside the host's
 * namespace, and an in-process client that polls the load servers' table.
 */
final class BoxDaemons implements AutoCloseable {
    private final ClusterInABox box;
    private final Path db;
    private final Path key;
    private final ClusterDb cluster;
    private final DaemonClient client;
    private final List<String> extraArgs;
    private final List<CohortProcess> daemons = new ArrayList<>();
    private final String dbSpec;
    private Process dnsmasq;

    /**
     * @param settings  {@code daemon.*} lines (port, intervals)
     * @param extraDb   more database lines (partitions)
     * @param extraArgs per host, more cohortd arguments ({@code %d} stands for the host's number)
     */
    BoxDaemons(ClusterInABox box, Path dir, int cpus, int slots, List<String> settings, List<String> extraDb, List<String> extraArgs)
            throws Exception {
        this(box, dir, cpus, slots, settings, extraDb, extraArgs, false);
    }

    /**
     * As above; with {@code servedByDns} the daemons read the database from DNS: dnsmasq in host 1's
     * namespace serves it as TXT records of zone {@code box} on port 53 of host 1's address, and every
     * daemon gets {@code --cluster-db dns://HOST1/box}.
     */
    BoxDaemons(ClusterInABox box, Path dir, int cpus, int slots, List<String> settings, List<String> extraDb, List<String> extraArgs,
               boolean servedByDns) throws Exception {
        CohortProcess.requireDist();
        this.box = box;
        this.extraArgs = List.copyOf(extraArgs);
        key = dir.resolve("cluster.key");
        ClusterKey.generate(key);
        List<String> lines = new ArrayList<>(List.of("cluster = box", "version = 1", "default_partition = all",
                "load_servers = " + box.host(1).name() + ", " + box.host(2).name()));
        lines.addAll(settings);
        for (ClusterInABox.Host h : box.hosts()) {
            lines.add("member." + h.name() + ".address = " + h.address());
            lines.add("member." + h.name() + ".cpus = " + cpus);
            lines.add("member." + h.name() + ".slots = " + slots);
        }
        lines.add("partition.all.members = " + box.hostList(box.hosts().size()));
        lines.addAll(extraDb);
        db = dir.resolve("cluster.db");
        Files.write(db, lines);
        cluster = ClusterDbSource.load(db.toString());
        client = new DaemonClient(ClusterKey.load(key), "systest", cluster);
        dbSpec = servedByDns ? serveByDns(dir) : db.toString();
        for (int i = 1; i <= box.hosts().size(); i++) {
            daemons.add(start(i));
        }
    }

    /** Starts host {@code host}'s daemon (1-based) and returns its process. */
    CohortProcess start(int host) throws Exception {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", box.host(host).name(),
                CohortProcess.HOME.resolve("bin/cohortd").toString(), "--cluster-db", dbSpec, "--key", key.toString()));
        extraArgs.forEach(a -> command.add(a.replace("%d", Integer.toString(host))));
        return CohortProcess.startCommand(command, Map.of("JAVA_HOME", System.getProperty("java.home")));
    }

    /** Replaces host {@code host}'s daemon with a new one. */
    void restart(int host) throws Exception {
        daemons.set(host - 1, start(host));
    }

    CohortProcess daemon(int host) {
        return daemons.get(host - 1);
    }

    Path db() {
        return db;
    }

    /** What the daemons were given as --cluster-db: the file, or dns://HOST1/box. */
    String dbSpec() {
        return dbSpec;
    }

    private String serveByDns(Path dir) throws Exception {
        Path dnsmasqBinary = Path.of("/usr/sbin/dnsmasq");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(dnsmasqBinary),
                "dnsmasq is missing (apt-get install dnsmasq-base): the DNS-served cluster database test is skipped");
        Path conf = dir.resolve("dnsmasq.conf");
        Files.writeString(conf, io.cohort.cluster.ClusterDbWriter.formatDnsmasq(cluster));
        String address = box.host(1).address();
        dnsmasq = new ProcessBuilder("ip", "netns", "exec", box.host(1).name(), dnsmasqBinary.toString(), "--no-daemon",
                "--no-resolv", "--no-hosts", "--bind-interfaces", "--listen-address=" + address, "--port=53", "--pid-file=",
                "--conf-file=" + conf).redirectErrorStream(true).redirectOutput(dir.resolve("dnsmasq.log").toFile()).start();
        String spec = "dns://" + address + "/box";
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        for (;;) { // poll a query until dnsmasq answers: it has no readiness signal
            try {
                ClusterDb served = ClusterDbSource.load(spec);
                if (!served.members().equals(cluster.members())) {
                    throw new AssertionError("DNS serves another database: " + served);
                }
                return spec;
            } catch (io.cohort.cluster.ClusterDbException notYet) {
                if (!dnsmasq.isAlive() || System.nanoTime() > deadline) {
                    throw new AssertionError("dnsmasq did not answer: " + notYet.getMessage() + "\n"
                            + Files.readString(dir.resolve("dnsmasq.log")));
                }
                dnsmasq.waitFor(20, java.util.concurrent.TimeUnit.MILLISECONDS);
            }
        }
    }

    Path key() {
        return key;
    }

    ClusterDb cluster() {
        return cluster;
    }

    DaemonClient client() {
        return client;
    }

    /** Every daemon's log, for failure messages. */
    String logs() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < daemons.size(); i++) {
            b.append("--- daemon on ").append(box.host(i + 1).name()).append(":\n");
            daemons.get(i).err().forEach(l -> b.append(l).append('\n'));
        }
        return b.toString();
    }

    /** Polls the load servers (every 20 ms) until {@code done} holds; returns that table. */
    StatusTable awaitTable(Predicate<StatusTable> done, Duration within, String what) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        StatusTable last = null;
        while (System.nanoTime() < deadline) {
            try {
                last = client.status(cluster);
                if (done.test(last)) {
                    return last;
                }
            } catch (ClusterUnreachableException e) {
                last = null;
            }
            Thread.sleep(20); // polling the load server's table: the test has no event to wait on
        }
        throw new AssertionError(what + " did not happen within " + within.toSeconds() + " s; last table " + last + "\n" + logs());
    }

    /** SIGKILLs every daemon and waits for them. */
    @Override
    public void close() throws Exception {
        for (CohortProcess d : daemons) {
            d.close();
            d.process().waitFor();
        }
        if (dnsmasq != null) {
            dnsmasq.destroyForcibly().waitFor();
        }
    }
}

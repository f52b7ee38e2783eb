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

    /**
     * @param settings  {@code daemon.*} lines (port, intervals)
     * @param extraDb   more database lines (partitions)
     * @param extraArgs per host, more cohortd arguments ({@code %d} stands for the host's number)
     */
    BoxDaemons(ClusterInABox box, Path dir, int cpus, int slots, List<String> settings, List<String> extraDb, List<String> extraArgs)
            throws Exception {
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
        for (int i = 1; i <= box.hosts().size(); i++) {
            daemons.add(start(i));
        }
    }

    /** Starts host {@code host}'s daemon (1-based) and returns its process. */
    CohortProcess start(int host) throws Exception {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", box.host(host).name(),
                CohortProcess.HOME.resolve("bin/cohortd").toString(), "--cluster-db", db.toString(), "--key", key.toString()));
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
    }
}

package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.daemon.ClusterKey;
import io.cohort.daemon.Daemon;
import io.cohort.daemon.DaemonLog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code cohort daemon} (also the distribution's {@code cohortd}): runs this member's daemon in the
 * foreground, logging to stderr, until SIGTERM or SIGINT (the shutdown hook says goodbye on the ring).
 */
@Command(name = "daemon", description = "Run cohortd, the cluster daemon of this member, in the foreground.")
final class DaemonCommand implements Callable<Integer> {
    @CommandLine.Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--member", paramLabel = "NAME",
            description = "This daemon's member (default: the member whose address is one of this host's).")
    String member;

    @Option(names = "--loadavg", paramLabel = "FILE",
            description = "Read the load averages from this file (format of /proc/loadavg) instead of /proc/loadavg: for members sharing one kernel.")
    java.nio.file.Path loadavg;

    @Override
    public Integer call() throws Exception {
        if (loadavg != null) {
            try {
                io.cohort.daemon.LoadAverage.check(loadavg);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--loadavg " + e.getMessage());
            }
            io.cohort.daemon.LoadAverage.source(loadavg);
        }
        ClusterDb db = cluster.db();
        ClusterKey key = cluster.clusterKey();
        Daemon daemon = Daemon.start(db, member, key, new DaemonLog("?", System.err, Clock.systemUTC()), Clock.systemUTC());
        CountDownLatch forever = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(daemon::close, "cohortd-shutdown"));
        forever.await(); // the daemon's threads do the work; the JVM ends by signal
        return 0;
    }
}

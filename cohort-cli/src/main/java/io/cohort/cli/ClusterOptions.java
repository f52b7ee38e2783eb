package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbSource;
import io.cohort.daemon.ClusterConfigException;
import io.cohort.daemon.ClusterKey;
import io.cohort.daemon.DaemonClient;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.util.Map;

/**
 * The options every cluster command shares ({@code daemon}, {@code status}, {@code admin}): where the
 * configuration database and the cluster key are. A picocli mixin.
 */
final class ClusterOptions {
    static final String DB_ENV_NAME = "COHORT_CLUSTER_DB";
    static final String DB_DEFAULT = "/etc/cohort/cluster.db";

    @Option(names = "--cluster-db", paramLabel = "SPEC",
            description = "The cluster database (default: $" + DB_ENV_NAME + ", else " + DB_DEFAULT + ").")
    String clusterDb;

    @Option(names = "--key", paramLabel = "FILE",
            description = "The cluster key file (default: $" + ClusterKey.ENV_NAME + ", else /etc/cohort/cluster.key).")
    String key;

    @Option(names = "--verbose", description = "Print stack traces of errors.")
    boolean verbose;

    Map<String, String> env = System.getenv();

    String dbSpec() {
        if (clusterDb != null && !clusterDb.isBlank()) {
            return clusterDb;
        }
        String e = env.get(DB_ENV_NAME);
        return e != null && !e.isBlank() ? e : DB_DEFAULT;
    }

    ClusterDb db() throws ClusterConfigException {
        String spec = dbSpec();
        try {
            return ClusterDbSource.load(spec);
        } catch (Exception e) { // whatever the database's reader throws, it is one sentence for the user
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            if (e instanceof java.nio.file.NoSuchFileException) {
                why = "no such file";
            }
            throw new ClusterConfigException("cannot read the cluster database " + spec + " (" + why
                    + "); give --cluster-db SPEC or set " + DB_ENV_NAME, e);
        }
    }

    ClusterKey clusterKey() throws ClusterConfigException {
        return ClusterKey.load(ClusterKey.locate(key, env));
    }

    DaemonClient client(ClusterDb db) throws ClusterConfigException {
        return new DaemonClient(clusterKey(), clientName(), db);
    }

    /** How this command signs its requests: user@host, as the daemons' logs show it. */
    static String clientName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "localhost";
        }
        String n = System.getProperty("user.name", "someone") + "@" + host;
        return n.length() > 200 ? n.substring(0, 200) : n;
    }
}

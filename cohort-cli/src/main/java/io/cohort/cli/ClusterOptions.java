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
    static final String DB_ENV_NAME = ClusterDbSource.ENV;
    static final String DB_DEFAULT = ClusterDbSource.DEFAULT_PATH;

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
        return ClusterDbSource.resolve(notBlank("--cluster-db", clusterDb), env);
    }

    /**
     * The value of an option that names a database or a file, refused when given blank: an empty
     * {@code --cluster-db ""} (say, from an unset shell variable) must not quietly mean the default.
     */
    static String notBlank(String option, String value) {
        if (value != null && value.isBlank()) {
            throw new UsageException(option + " is empty; name one, or leave the option out for the default");
        }
        return value;
    }

    /** The database; a missing, unreadable or invalid one is a {@link io.cohort.cluster.ClusterDbException} (exit 5). */
    ClusterDb db() {
        return ClusterDbSource.load(dbSpec());
    }

    ClusterKey clusterKey() throws ClusterConfigException {
        return ClusterKey.load(ClusterKey.locate(notBlank("--key", key), env));
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

package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbSource;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * What every {@code cohort db} subcommand shares: the {@code --cluster-db SPEC} and {@code --verbose}
 * options, the environment (given by {@link Main}'s factory, so tests can pass their own) and the
 * one-line summary of a database. Called on the command's thread only.
 */
abstract class DbSubcommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--cluster-db", paramLabel = "SPEC",
            description = "The database: a file, dns:ZONE or dns://HOST[:PORT]/ZONE (default: $"
                    + ClusterDbSource.ENV + ", else " + ClusterDbSource.DEFAULT_PATH + ").")
    String clusterDb;

    @Option(names = "--verbose", description = "Print the stack trace of an error.")
    boolean verbose;

    /** The process environment; {@link Main} sets it before the command runs. */
    Map<String, String> env = System.getenv();

    /** The database spec that applies: the option, else the environment variable, else the default path. */
    String databaseSpec() {
        return ClusterDbSource.resolve(ClusterOptions.notBlank("--cluster-db", clusterDb), env);
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** {@code cluster lab, version 7, 5 members, 2 partitions} */
    static String summary(ClusterDb db) {
        return "cluster " + db.name() + ", version " + db.version() + ", " + count(db.members().size(), "member")
                + ", " + count(db.partitions().size(), "partition");
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}

package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbEditor;
import io.cohort.launch.HostName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cohort db init CLUSTER}: writes a new, minimal database: one member (the load server), one
 * partition {@code all} of every member. Never overwrites a file.
 */
@Command(name = "init", description = "Create a new database file with one member and the partition 'all'.")
final class DbInitCommand extends DbSubcommand {
    @Parameters(paramLabel = "CLUSTER", description = "The cluster's name (also its DNS zone, if published there).")
    String cluster;

    @Option(names = "--load-server", paramLabel = "MEMBER",
            description = "The first member, which also serves the load (default: this host's name).")
    String loadServer;

    @Option(names = "--address", paramLabel = "ADDRESS",
            description = "The first member's address (default: its name).")
    String address;

    @Override
    public Integer call() {
        String member = loadServer != null ? loadServer : HostName.local();
        String text = "# Cohort cluster configuration database (see docs/cluster.md)\n"
                + "cluster = " + cluster + "\n"
                + "version = 1\n"
                + "default_partition = all\n"
                + "load_servers = " + member + "\n"
                + "\n"
                + "member." + member + ".address = " + (address != null ? address : member) + "\n"
                + "member." + member + ".cpus = " + Runtime.getRuntime().availableProcessors() + "\n"
                + "\n"
                + "partition.all.members = *\n";
        String where = databaseSpec();
        ClusterDb db = ClusterDbEditor.create(where, text);
        out().println("created " + where + ": " + summary(db));
        out().flush();
        return 0;
    }
}

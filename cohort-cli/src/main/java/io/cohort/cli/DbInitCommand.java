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
        word("CLUSTER", cluster);
        String member = word("--load-server", loadServer != null ? loadServer : HostName.local());
        word("--address", address);
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

    /**
     * A value that goes on a line of the new file as one word: a line break, white space, '#' or '='
     * in it would end the value early or add lines of its own, so it is a usage error. The file's own
     * check then says whether the word is a valid name or address.
     */
    private static String word(String what, String value) {
        if (value != null && !value.matches("[\\x21-\\x7e&&[^#=]]+")) {
            String shown = value.replaceAll("[^\\x20-\\x7e]", "?");
            throw new UsageException(what + " '" + (shown.length() > 64 ? shown.substring(0, 64) + "..." : shown)
                    + "' must be one word of printable ASCII without '#' or '='");
        }
        return value;
    }
}

package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.daemon.StatusTable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code cohort status}: the cluster's members and their state, from the first load server that answers. */
@Command(name = "status", description = "Show the cluster's members, their state, load, slots and jobs, per partition.")
final class StatusCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--json", description = "Print JSON instead of the table.")
    boolean json;

    @Option(names = "--partition", paramLabel = "P", description = "Only this partition's members.")
    String partition;

    @Override
    public Integer call() throws Exception {
        ClusterDb db = cluster.db();
        if (partition != null && db.partition(partition).isEmpty()) {
            throw new UsageException("cluster " + db.name() + " has no partition '" + partition + "' (its partitions: "
                    + String.join(", ", db.partitions().keySet()) + ")");
        }
        StatusTable t = cluster.client(db).status(db);
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? StatusFormat.json(db, t, partition) : StatusFormat.text(db, t, partition));
        out.flush();
        return 0;
    }
}

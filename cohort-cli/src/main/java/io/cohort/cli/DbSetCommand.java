package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbEditor;
import io.cohort.cluster.ClusterDbText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;

/**
 * {@code cohort db set TOKEN=VALUE...}: sets tokens in a file database in place (a new member or
 * partition is simply its first token), raises the version and saves only a valid result.
 */
@Command(name = "set", description = "Set tokens (TOKEN=VALUE) in a file database; saved only if the result is valid.")
final class DbSetCommand extends DbSubcommand {
    @Parameters(paramLabel = "TOKEN=VALUE", arity = "1..*",
            description = "e.g. member.m3.address=10.0.0.3 or partition.all.nice=5")
    List<String> assignments;

    @Override
    public Integer call() {
        ClusterDbEditor editor = ClusterDbEditor.open(databaseSpec());
        ClusterDbText text = ClusterDbText.of(editor.original());
        for (String a : assignments) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("'" + a + "' is not TOKEN=VALUE, like member.m3.cpus=4");
            }
            String value = a.substring(eq + 1).strip();
            if (value.contains("\n") || value.contains("\r")) {
                throw new UsageException("the value of '" + a.substring(0, eq) + "' must be one line");
            }
            text.set(a.substring(0, eq).strip(), value);
        }
        ClusterDb db = editor.commit(text.text());
        out().println("saved " + editor.spec() + ": " + summary(db));
        out().flush();
        return 0;
    }
}

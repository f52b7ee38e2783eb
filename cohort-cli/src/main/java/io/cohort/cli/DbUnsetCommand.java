package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbEditor;
import io.cohort.cluster.ClusterDbException;
import io.cohort.cluster.ClusterDbText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;

/**
 * {@code cohort db unset TOKEN...}: removes tokens from a file database (an attribute then takes its
 * default), raises the version and saves only a valid result.
 */
@Command(name = "unset", description = "Remove tokens from a file database (they return to their defaults).")
final class DbUnsetCommand extends DbSubcommand {
    @Parameters(paramLabel = "TOKEN", arity = "1..*", description = "e.g. partition.all.nice")
    List<String> tokens;

    @Override
    public Integer call() {
        ClusterDbEditor editor = ClusterDbEditor.open(databaseSpec());
        ClusterDbText text = ClusterDbText.of(editor.original());
        for (String t : tokens) {
            if (t.strip().equals("version")) {
                // Every edit raises it; unset, it would only come back one higher.
                throw new ClusterDbException(editor.spec() + ": 'version' cannot be unset; every edit raises it by one,"
                        + " and 'cohort db set version=N' raises it further");
            }
            if (!text.unset(t.strip())) {
                throw new ClusterDbException(editor.spec() + ": there is no '" + t.strip() + "' to unset");
            }
        }
        ClusterDb db = editor.commit(text.text());
        out().println("saved " + editor.spec() + ": " + summary(db));
        out().flush();
        return 0;
    }
}

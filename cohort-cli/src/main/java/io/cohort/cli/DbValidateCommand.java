package io.cohort.cli;

import io.cohort.cluster.ClusterDbSource;
import picocli.CommandLine.Command;

/** {@code cohort db validate}: one line, {@code ok: ...} and exit 0, or the first error and exit 5. */
@Command(name = "validate", description = "Check the database; print 'ok: ...' or the first error.")
final class DbValidateCommand extends DbSubcommand {
    @Override
    public Integer call() {
        out().println("ok: " + summary(ClusterDbSource.load(databaseSpec())));
        out().flush();
        return 0;
    }
}

package io.cohort.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code cohort db}: reads, checks and edits the cluster configuration database (docs/cluster.md). */
@Command(name = "db", description = "Show, check and edit the cluster configuration database.",
        subcommands = {DbInitCommand.class, DbPrintCommand.class, DbValidateCommand.class, DbSetCommand.class,
                DbUnsetCommand.class, DbRemoveCommand.class, DbEditCommand.class})
final class DbCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "a subcommand is needed (init, print, validate, set, unset, remove, edit)");
    }
}

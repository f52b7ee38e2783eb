package io.cohort.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** The top-level {@code cohort} command; it only holds the subcommands. */
@Command(name = "cohort", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Run parallel Java programs as cooperating peer processes.",
        subcommands = {RunCommand.class, StacksCommand.class, ExamplesCommand.class, DbCommand.class, StatusCommand.class, AdminCommand.class, DaemonCommand.class,
                ProfCommand.class,
                HelpCommand.class})
final class CohortCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is needed (run, stacks, examples, db, status, admin, daemon, prof, help)");
    }
}

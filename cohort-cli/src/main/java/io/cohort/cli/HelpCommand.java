package io.cohort.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code cohort help [COMMAND [SUBCOMMAND...]]}: the usage of any command of the tree, as its
 * {@code --help} prints it ({@code cohort help db print} is {@code cohort db print --help}).
 * Picocli's own help command looks one level down only.
 */
@Command(name = "help", helpCommand = true,
        description = "Show the usage of cohort or of one of its commands: help [COMMAND [SUBCOMMAND]].")
final class HelpCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "The command, and its subcommand, to show.")
    List<String> path = List.of();

    @Override
    public Integer call() {
        CommandLine at = spec.commandLine().getParent();
        for (String word : path) {
            CommandLine sub = at.getSubcommands().get(word);
            if (sub == null) {
                // Raised on the level that lacks the word, so that the message points at its --help.
                throw new CommandLine.ParameterException(at, "'" + at.getCommandSpec().qualifiedName()
                        + "' has no command '" + word + "'" + (at.getSubcommands().isEmpty() ? ""
                                : " (its commands: " + String.join(", ", at.getSubcommands().keySet()) + ")"));
            }
            at = sub;
        }
        at.usage(spec.commandLine().getOut());
        return 0;
    }
}

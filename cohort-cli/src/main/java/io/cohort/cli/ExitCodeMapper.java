package io.cohort.cli;

import io.cohort.cluster.ClusterDbException;
import io.cohort.daemon.ClusterConfigException;
import io.cohort.daemon.ClusterUnreachableException;
import io.cohort.daemon.RequestRefusedException;
import io.cohort.launch.ExitCodes;
import io.cohort.launch.JobRegistry;
import io.cohort.launch.LaunchException;
import io.cohort.launch.StacksQuery;
import io.cohort.tools.prof.ProfileInputException;
import picocli.CommandLine;

import java.io.PrintWriter;

/**
 * The one place where failures become exit codes and messages: one line on stderr, starting with
 * "cohort: ", saying what was wrong and what to do; a stack trace only with {@code --verbose}.
 */
final class ExitCodeMapper implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        String command = cmd.getCommandSpec().qualifiedName();
        report(cmd.getErr(), sentence(plain(ex, cmd)).replaceAll("\\.$", "") + "; run '" + command + " --help' for usage",
                ex, verbose(cmd));
        return ExitCodes.USAGE;
    }

    /**
     * Picocli's message, in our words where its own are a parser's: a word that is no command
     * ("Unmatched argument at index 0: 'bogus'"), and numbers out of a Java type's range ("is not an int").
     */
    static String plain(CommandLine.ParameterException ex, CommandLine cmd) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()
                && !u.getUnmatched().get(0).startsWith("-")) {
            String word = u.getUnmatched().get(0);
            if (!cmd.getSubcommands().isEmpty()) {
                return "'" + cmd.getCommandSpec().qualifiedName() + "' has no command '" + word + "' (its commands: "
                        + String.join(", ", cmd.getSubcommands().keySet()) + ")";
            }
            return "unexpected argument '" + word + "'";
        }
        // A run of digits too long for the type is a number out of range; anything else is no number.
        return ex.getMessage()
                .replaceAll("'(-?\\d+)' is not an? (int|long)", "'$1' is too large a number")
                .replace("' is not an int", "' is not a whole number")
                .replace("' is not a long", "' is not a whole number")
                .replace("' is not a double", "' is not a number");
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
        boolean verbose = verbose(cmd);
        PrintWriter err = cmd.getErr();
        if (ex instanceof UsageException) {
            err.println("cohort: " + sentence(ex.getMessage()));
            for (String line : ((UsageException) ex).more()) {
                err.println("cohort: " + sentence(line)); // one line per problem found
            }
            if (verbose) {
                ex.printStackTrace(err);
            }
            err.flush();
            return ExitCodes.USAGE;
        }
        if (ex instanceof ProgramNotFoundException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.PROGRAM_NOT_FOUND;
        }
        if (ex instanceof ClusterDbException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.CLUSTER_DB;
        }
        if (ex instanceof io.cohort.cluster.AccessDeniedException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.ACCESS_DENIED;
        }
        if (ex instanceof io.cohort.cluster.PlacementException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.NO_ROOM;
        }
        if (ex instanceof ClusterConfigException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.CLUSTER_CONFIG;
        }
        if (ex instanceof ClusterUnreachableException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.CLUSTER_UNAVAILABLE;
        }
        if (ex instanceof RequestRefusedException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.REQUEST_REFUSED;
        }
        if (ex instanceof NoJobException || ex instanceof StacksQuery.JobEndedException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.NO_JOB;
        }
        if (ex instanceof StacksQuery.RefusedException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.ACCESS_DENIED;
        }
        if (ex instanceof StacksQuery.NoAnswerException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.CLUSTER_UNAVAILABLE;
        }
        if (ex instanceof JobRegistry.UnsafeRegistryException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.CLUSTER_CONFIG;
        }
        if (ex instanceof ProfileInputException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.NO_INPUT;
        }
        if (ex instanceof OutputFileException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.CANNOT_CREATE;
        }
        if (ex instanceof LaunchException) {
            report(err, ex.getMessage(), ex, verbose);
            return ExitCodes.LAUNCH_FAILURE;
        }
        report(err, "internal error (" + ex + "); run with --verbose for the stack trace and please report it", ex,
                verbose);
        return ExitCodes.INTERNAL_ERROR;
    }

    private static boolean verbose(CommandLine cmd) {
        Object o = cmd.getCommand();
        if (o instanceof RunCommand r) {
            return r.verbose;
        }
        if (o instanceof StacksCommand s) {
            return s.verbose;
        }
        if (o instanceof DbSubcommand d) {
            return d.verbose;
        }
        if (o instanceof ProfCommand p) {
            return p.verbose;
        }
        return cmd.getMixins().values().stream()
                .anyMatch(m -> m instanceof ClusterOptions c && c.verbose);
    }

    private static void report(PrintWriter err, String message, Throwable t, boolean verbose) {
        err.println("cohort: " + sentence(message));
        if (verbose) {
            t.printStackTrace(err);
        }
        err.flush();
    }

    /** Messages are one line, whatever the exception carried. */
    static String sentence(String s) {
        return s == null ? "" : s.replaceAll("\\s*[\\r\\n]+\\s*", " ").trim();
    }
}

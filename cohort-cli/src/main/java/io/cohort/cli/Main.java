package io.cohort.cli;

import picocli.CommandLine;

import java.io.PrintWriter;

/** Entry point of the {@code cohort} command (the ./cohort script runs this class). */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs one command line in-process and returns its exit code (tests call this directly). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return commandLine(out, err).execute(args);
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        ExitCodeMapper mapper = new ExitCodeMapper();
        CommandLine cl = new CommandLine(new CohortCommand());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler(mapper);
        cl.setParameterExceptionHandler(mapper);
        // Everything after the main class is the program's, even words that look like our options.
        cl.getSubcommands().get("run").setStopAtPositional(true);
        return cl;
    }
}

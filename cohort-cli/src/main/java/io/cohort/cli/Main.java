package io.cohort.cli;

import io.cohort.launch.EarlyIoManager;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.util.Map;

/** Entry point of the {@code cohort} command (the ./cohort script runs this class). */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        if (runsOnThisHostOnly(args)) {
            // Boot the io-manager's JVM while picocli builds its model (a tenth of a second or more).
            EarlyIoManager.start();
        }
        int code;
        PrintWriter out = new PrintWriter(System.out, true);
        try {
            code = execute(args, out, new PrintWriter(System.err, true));
        } finally {
            EarlyIoManager.discard();
        }
        if (code == 0 && (out.checkError() | System.out.checkError())) {
            code = outputLost();
        }
        if (JobRunner.stoppedBySignal) {
            // The signal's own exit is under way; System.exit(code) here could win the race and
            // report 130 for a SIGTERM. Returning lets the shutdown finish with the signal's status.
            return;
        }
        System.exit(code);
    }

    /**
     * A command's report could not be written to standard output (a full device, a closed pipe):
     * exit 141 without a word where stdout is a pipe (its reader went away, as {@code head} does;
     * SIGPIPE's status, as a Unix tool ends), else one line and 74, never 0 with the report lost.
     */
    private static int outputLost() {
        String target = "";
        try {
            target = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/1")).toString();
        } catch (java.io.IOException | UnsupportedOperationException e) {
            // no /proc: say it
        }
        if (target.startsWith("pipe:")) {
            return io.cohort.launch.ExitCodes.OUTPUT_CLOSED;
        }
        System.err.println("cohort: the standard output" + (target.isEmpty() ? "" : " (" + target + ")")
                + " could not be written; the report is incomplete");
        return io.cohort.launch.ExitCodes.OUTPUT_FAILED;
    }

    /**
     * A quick look before parsing: {@code cohort run} with none of the options that put peers on
     * other hosts among the words before the program. A wrong guess costs nothing but an unused
     * JVM: the job starts its io-manager the usual way, and the early one exits when told.
     */
    static boolean runsOnThisHostOnly(String[] args) {
        if (args.length < 2 || !args[0].equals("run")) {
            return false;
        }
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-cp") || a.equals("--classpath") || a.equals("-jar")
                    || a.equals("--example")) {
                return true; // the program starts here; what follows is its own
            }
            if (a.startsWith("--hosts") || a.startsWith("--launch-agent") || a.equals("-h") || a.equals("--help")
                    || a.equals("-V") || a.equals("--version")) {
                return false;
            }
        }
        return false;
    }

    /** Runs one command line in-process and returns its exit code (tests call this directly). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return commandLine(out, err).execute(args);
    }

    /** As {@link #execute(String[], PrintWriter, PrintWriter)}, with the environment {@code cohort db} sees. */
    static int execute(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env) {
        return commandLine(out, err, env).execute(args);
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(out, err, System.getenv());
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err, Map<String, String> env) {
        ExitCodeMapper mapper = new ExitCodeMapper();
        CommandLine.IFactory defaults = CommandLine.defaultFactory();
        CommandLine.IFactory factory = new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                K made = defaults.create(cls);
                if (made instanceof DbSubcommand) {
                    ((DbSubcommand) made).env = env;
                }
                if (made instanceof RunCommand) {
                    ((RunCommand) made).environment = env;
                }
                if (made instanceof StacksCommand) {
                    ((StacksCommand) made).environment = env;
                }
                return made;
            }
        };
        CommandLine cl = new CommandLine(new CohortCommand(), factory);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler(mapper);
        cl.setParameterExceptionHandler(mapper);
        // Everything after the main class is the program's, even words that look like our options.
        cl.getSubcommands().get("run").setStopAtPositional(true);
        // And unchanged: picocli would otherwise read a file for any argument that starts with @.
        cl.setExpandAtFiles(false);
        addHelpOptions(cl);
        return cl;
    }

    /** Gives every command of the tree {@code -h} / {@code --help}, as {@code run}, {@code stacks} and {@code prof} declare it. */
    private static void addHelpOptions(CommandLine c) {
        CommandLine.Model.CommandSpec spec = c.getCommandSpec();
        if (spec.options().stream().noneMatch(CommandLine.Model.OptionSpec::usageHelp)) {
            spec.addOption(CommandLine.Model.OptionSpec.builder("-h", "--help").usageHelp(true)
                    .description("Show this help.").build());
        }
        for (CommandLine sub : c.getSubcommands().values()) {
            addHelpOptions(sub);
        }
    }
}

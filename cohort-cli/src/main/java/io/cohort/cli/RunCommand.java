package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.UserIdentity;
import io.cohort.daemon.ClusterConfigException;
import io.cohort.daemon.ClusterUnreachableException;
import io.cohort.daemon.DaemonClient;
import io.cohort.daemon.RequestRefusedException;
import io.cohort.launch.Controller;
import io.cohort.launch.HostPlan;
import io.cohort.launch.JobSpec;
import io.cohort.launch.LaunchException;
import io.cohort.launch.LocalLaunchAgent;
import io.cohort.launch.NetnsLaunchAgent;
import io.cohort.profile.ProfileRecording;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Stack;
import java.util.concurrent.Callable;

/**
 * {@code cohort run}: its options, as picocli parses them, and the steps from them to a running job:
 * where it runs ({@link HostPlanBuilder}, with a partition's load server and {@link ClusterSession}),
 * what runs ({@link JobSpecBuilder}, which checks every option into a {@link JobSpec}), and the job
 * run in this JVM as its controller ({@link JobRunner}: the shutdown hook that stops it in order on
 * SIGINT/SIGTERM, {@code cohort stacks}' registry, SIGUSR1's stacks and SIGTSTP's job control).
 */
@Command(name = "run", sortOptions = false,
        description = "Run a program as N cooperating peer processes.",
        customSynopsis = {"cohort run -n N [--hosts H1[:SLOTS],... | --hostfile FILE | --partition P] [OPTIONS] (-jar JAR | -cp CLASSPATH MAIN_CLASS | --example NAME) [PROGRAM_ARGS...]"})
final class RunCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-n", "-np", "--np"}, required = true, paramLabel = "N", description = "Number of peers (1 to 65536).")
    int np;

    @Option(names = "-jar", paramLabel = "JAR", parameterConsumer = ProgramConsumer.class,
            description = "Run the Main-Class of JAR; the words after JAR are the program's arguments.")
    String jar;

    @Option(names = {"-cp", "--classpath"}, paramLabel = "CLASSPATH",
            description = "The program's classpath; the first word after the options is its main class.")
    String classpath;

    @Option(names = "--example", paramLabel = "NAME", parameterConsumer = ProgramConsumer.class,
            description = "Run a shipped example (see 'cohort examples'); the words after NAME are its arguments.")
    String example;

    @Parameters(paramLabel = "MAIN_CLASS [PROGRAM_ARGS]", arity = "0..*",
            description = "With -cp: the main class, then the program's arguments (all passed as they are).")
    List<String> positional = new ArrayList<>();

    /** Program arguments that followed -jar JAR or --example NAME. */
    final List<String> trailing = new ArrayList<>();

    @Option(names = "--jvm-opt", paramLabel = "OPT", description = "An option for every peer JVM (repeatable).")
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "-x", paramLabel = "VAR[=VALUE]",
            description = "Set VAR in every peer's environment; VAR alone passes on this shell's value (repeatable).")
    List<String> exports = new ArrayList<>();

    @Option(names = "--tag-output", description = "Prefix every output line with [rank].")
    boolean tagOutput;

    @Option(names = "--output", paramLabel = "PATTERN",
            description = "Write each peer's stdout and stderr to a file: %%r is the rank, %%j the job id.")
    String output;

    @Option(names = "--stdin", paramLabel = "all|none|RANK", defaultValue = "0",
            description = "Which peers read this command's stdin (default: ${DEFAULT-VALUE}).")
    String stdin;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Stop the job after this long, exit 124.")
    int timeoutSeconds;

    @Option(names = "--stacks-on-timeout",
            description = "When --timeout stops the job, first print the merged stacks of its peers on stderr, as 'cohort stacks' shows them.")
    boolean stacksOnTimeout;

    @Option(names = "--grace-period", paramLabel = "MILLIS", defaultValue = "" + JobSpec.GRACE_MILLIS_DEFAULT,
            description = "Time between TERM and KILL when the job is stopped (default: ${DEFAULT-VALUE}).")
    int graceMillis;

    @Option(names = "--collectives", paramLabel = "MODE",
            description = "Collective algorithms: auto (by peers and message length), p2p (over point-to-point) "
                    + "or bcast (over the broadcast domain where one exists). Sets COHORT_COLLECTIVES.")
    String collectives;

    @Option(names = "--bcast-protocol", paramLabel = "pcode|eqa",
            description = "The protocol of the broadcast domains: pcode (default) or eqa (EQA's Simple and Push-Pull "
                    + "broadcast; cohort.eqa.* settings apply). Sets COHORT_BCAST_PROTOCOL.")
    String bcastProtocol;

    @Option(names = "--check-collectives",
            description = "Compare every collective call across the ranks before it runs, and fail all of them with one "
                    + "sentence where they differ (debugging; costs a small gather and bcast per call). Sets COHORT_CHECK_COLLECTIVES.")
    boolean checkCollectives;

    @Option(names = "--idle", paramLabel = "STRATEGY",
            description = "How waiting peers idle: busy-spin, yield, backoff or park (sets COHORT_IDLE).")
    String idle;

    @Option(names = "--bind-to", paramLabel = "auto|core|none",
            description = "Bind each peer (its JVM and all its threads) to processors of its host. auto (default): split "
                    + "the processors the host allows and no other job holds among its peers, unbound if none are free; "
                    + "core: local rank i to the i-th the host allows, in turn where peers outnumber them; none: unbound "
                    + "(sets COHORT_BIND_TO).")
    String bindTo;

    @Option(names = "--wireup-timeout", paramLabel = "SECONDS", defaultValue = "" + JobSpec.WIREUP_TIMEOUT_SECONDS_DEFAULT,
            description = "Time the peers have to connect to each other (default: ${DEFAULT-VALUE}).")
    int wireupTimeoutSeconds;

    @Option(names = "--transport", paramLabel = "auto|shm|tcp|udp",
            description = "auto: shared memory between peers on one host, TCP between hosts (default); shm, tcp or udp: that one for every pair.")
    String transport;

    @Option(names = "--hosts", paramLabel = "H1[:SLOTS],...",
            description = "Run the peers on these hosts, ranks placed in blocks by slots (default slots: an equal share).")
    String hosts;

    @Option(names = "--partition", paramLabel = "P",
            description = "Run in this partition of the cluster (default: $COHORT_PARTITION); a load server places the peers.")
    String partition;

    @Option(names = "--mode", paramLabel = "physical|virtual",
            description = "With a partition: one peer per member (physical, the partition's default unless it says otherwise) or several (virtual).")
    String mode;

    @Option(names = "--cluster-db", paramLabel = "SPEC",
            description = "The cluster database, a file or dns:ZONE (default: $COHORT_CLUSTER_DB, else /etc/cohort/cluster.db); alone it means the default partition.")
    String clusterDb;

    @Option(names = "--key", paramLabel = "FILE",
            description = "The cluster key file (default: $COHORT_CLUSTER_KEY, else /etc/cohort/cluster.key).")
    String key;

    @Option(names = "--nice", paramLabel = "N",
            description = "With a partition: the peers' nice value (default: the partition's; never below its min_nice).")
    Integer nice;

    @Option(names = "--policy", paramLabel = "normal|fifo",
            description = "With a partition: time-sharing or real-time FIFO scheduling (fifo only where the partition allows it).")
    String policy;

    @Option(names = "--rt-priority", paramLabel = "N",
            description = "With --policy fifo: the real-time priority, 1-99 (default and maximum: the partition's).")
    Integer rtPriority;

    Map<String, String> environment = System.getenv();

    /** Set by {@link #call} when the job runs in a partition. */
    ClusterPlanner.Plan cluster;

    @Option(names = "--hostfile", paramLabel = "FILE",
            description = "Run the peers on the hosts this file lists, one per line: HOST, HOST slots=N or HOST:N.")
    Path hostfile;

    @Option(names = "--launch-agent", paramLabel = "local|netns|ssh|TEMPLATE",
            description = "How to start the io-manager on each host: local, netns (ip netns exec HOST), ssh (default with --hosts), or a command with %%h for the host.")
    String launchAgent;

    @Option(names = "--controller-address", paramLabel = "ADDRESS",
            description = "The address of this machine the hosts reach the launcher at (default: the one that routes to them).")
    String controllerAddress;

    @Option(names = "--fault", paramLabel = "SPEC",
            description = "Inject datagram faults under the udp transport and the broadcast domain, e.g. loss=0.05,dup=0.01,seed=7 (sets COHORT_FAULT; see docs/cli.md).")
    String fault;

    @Option(names = "--serial-filter", paramLabel = "PATTERN",
            description = "What the peers may deserialize from each other, in jdk.serialFilter syntax: class patterns "
                    + "(com.example.**;java.base/*;!*) and limits that replace the defaults (maxdepth=20;maxrefs=10000000); "
                    + "checked here, sets COHORT_SERIAL_FILTER (see docs/security.md).")
    String serialFilter;

    @Option(names = "--profile", paramLabel = "DIR", arity = "0..1", fallbackValue = ProfileRecording.DEFAULT_DIRECTORY,
            preprocessor = AttachedValueOnly.class,
            description = "Record a profile: each peer writes DIR/<App>.prof.<rank>.tsv, or .jfr with --profile-mode=full "
                    + "(default DIR: cohort-prof-<jobid>; give it as --profile=DIR, %%j is the job id). Read it with 'cohort prof DIR'.")
    String profile;

    @Option(names = "--profile-mode", paramLabel = "MODE",
            description = "What --profile records: summary (default: totals per operation, peer, size and call site, and "
                    + "method samples; a few percent at most) or full (a Flight Recorder recording of every call, for "
                    + "the timeline; a second of CPU per peer to start, microseconds per call).")
    String profileMode;
    @Option(names = "--debug", paramLabel = "RANKS", arity = "0..1", preprocessor = DebugRanksPreprocessor.class,
            description = "Start these peers (default: all; e.g. --debug=0,2-3) suspended with a JDWP debugger listener, "
                    + "and open a tmux session with a jdb window each (or print how to attach). No wire-up time-out.")
    String debug;

    @Option(names = "--no-tmux", description = "With --debug: print the jdb commands instead of opening a tmux session.")
    boolean noTmux;

    @Option(names = "--core-dir", paramLabel = "DIR",
            description = "Give every peer its own directory DIR/App.JOBID/rank-R for its JVM crash log, heap dump "
                    + "and uncaught-exception trace (default: $COHORT_CORE_DIR; off without either).")
    String coreDir;

    @Option(names = "--verbose", description = "Print the job id and command lines, and stack traces of errors.")
    boolean verbose;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help.")
    boolean help;

    @Override
    public Integer call() throws LaunchException, IOException, ClusterUnreachableException, RequestRefusedException,
            ClusterConfigException {
        HostPlanBuilder where = new HostPlanBuilder(this);
        ClusterOptions clusterOptions = where.clusterOptions();
        DaemonClient[] client = new DaemonClient[1];
        if (where.partitionWanted()) {
            ClusterDb db = clusterOptions.db();
            // The key is read only after the access list let the user in: a refused user hears why.
            cluster = where.clusterPlan(db, () -> {
                try {
                    client[0] = clusterOptions.client(db);
                    return HostPlanBuilder.loads(client[0].status(db));
                } catch (ClusterUnreachableException | ClusterConfigException e) {
                    throw new HostPlanBuilder.UncheckedClusterException(e);
                }
            });
        }
        JobSpec job = jobSpec(environment, Path.of("").toAbsolutePath());
        HostPlan plan = where.hostPlan();
        HostPlanBuilder.checkSharedMemoryReaches(job, plan.placement());
        // Peers started by the local or netns agent write into this machine's file system.
        boolean filesAreHere = plan.agent() instanceof LocalLaunchAgent || plan.agent() instanceof NetnsLaunchAgent;
        Controller controller = new Controller(job, plan, System.in,
                new FileOutputStream(FileDescriptor.out), new FileOutputStream(FileDescriptor.err), System.err);
        ClusterSession session = null;
        if (cluster != null) {
            session = ClusterSession.open(cluster.db(), client[0], cluster.placement().hosts(), controller.jobId(),
                    UserIdentity.current().user(), cluster.partition().name(), cluster.scheduling(), controller::printLineOnStderr, verbose);
            controller.onPeerStarted(session::peerStarted);
        }
        try (ClusterSession registered = session) {
            return new JobRunner(environment, stacksOnTimeout, profile, filesAreHere).run(job, controller);
        }
    }

    /** Checks every option and builds the job ({@link JobSpecBuilder#build}). */
    JobSpec jobSpec(Map<String, String> launcherEnv, Path cwd) {
        return new JobSpecBuilder(this).build(launcherEnv, cwd);
    }

    /**
     * {@code --profile} takes its value only when attached ({@code --profile=DIR}): alone, it never
     * swallows the next word, which may be the program's main class or an option's value.
     */
    static final class AttachedValueOnly implements CommandLine.IParameterPreprocessor {
        @Override
        public boolean preprocess(Stack<String> args, CommandLine.Model.CommandSpec commandSpec,
                                  CommandLine.Model.ArgSpec argSpec, Map<String, Object> info) {
            Object separator = info.get("separator");
            if (separator == null || separator.toString().isBlank()) {
                args.push(((CommandLine.Model.OptionSpec) argSpec).fallbackValue()); // as if --profile=<fallback>
            }
            return false; // picocli goes on and takes the value from the stack
        }
    }

    /** Where the job runs ({@link HostPlanBuilder#hostPlan}). */
    HostPlan hostPlan() {
        return new HostPlanBuilder(this).hostPlan();
    }

    /** Whether the job runs in a partition ({@link HostPlanBuilder#partitionWanted}). */
    boolean partitionWanted() {
        return new HostPlanBuilder(this).partitionWanted();
    }

    /**
     * The optional value of --debug: {@code --debug=VALUE} always (checked later, so a bad value is
     * an error and not a program); {@code --debug WORD} only if the word looks like a rank list
     * ("all", or starting with a digit), so {@code --debug -cp x Main} and {@code -cp x --debug Main}
     * leave the program alone.
     */
    static final class DebugRanksPreprocessor implements CommandLine.IParameterPreprocessor {
        @Override
        public boolean preprocess(Stack<String> args, CommandLine.Model.CommandSpec commandSpec,
                                  CommandLine.Model.ArgSpec argSpec, java.util.Map<String, Object> info) {
            if ("=".equals(info.get("separator")) && !args.isEmpty()) {
                argSpec.setValue(args.pop());
                return true;
            }
            String next = args.isEmpty() ? null : args.peek().trim();
            if (next != null && (next.equalsIgnoreCase("all") || (!next.isEmpty() && Character.isDigit(next.charAt(0))))) {
                argSpec.setValue(args.pop());
            } else {
                argSpec.setValue("all");
            }
            return true;
        }
    }

    /**
     * Consumes the value of -jar / --example and then every remaining word as the program's
     * arguments, so that "-jar app.jar -n 5" passes "-n 5" to the program.
     */
    static final class ProgramConsumer implements CommandLine.IParameterConsumer {
        @Override
        public void consumeParameters(Stack<String> args, CommandLine.Model.ArgSpec argSpec,
                                      CommandLine.Model.CommandSpec commandSpec) {
            CommandLine.Model.OptionSpec option = (CommandLine.Model.OptionSpec) argSpec;
            if (args.isEmpty()) {
                throw new CommandLine.ParameterException(commandSpec.commandLine(),
                        option.longestName() + " needs a value (" + option.paramLabel() + ")");
            }
            argSpec.setValue(args.pop());
            RunCommand run = (RunCommand) commandSpec.userObject();
            while (!args.isEmpty()) {
                run.trailing.add(args.pop());
            }
        }
    }
}

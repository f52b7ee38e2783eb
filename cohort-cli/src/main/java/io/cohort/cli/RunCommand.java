package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.MemberLoad;
import io.cohort.cluster.UserIdentity;
import io.cohort.daemon.ClusterConfigException;
import io.cohort.daemon.ClusterUnreachableException;
import io.cohort.daemon.DaemonClient;
import io.cohort.daemon.MemberState;
import io.cohort.daemon.MemberStatus;
import io.cohort.daemon.RequestRefusedException;
import io.cohort.daemon.StatusTable;
import io.cohort.idle.IdleStrategies;
import io.cohort.launch.CohortHome;
import io.cohort.launch.Controller;
import io.cohort.launch.CrashDirectories;
import io.cohort.launch.DebugSpec;
import io.cohort.launch.HostPlan;
import io.cohort.launch.JobOutcome;
import io.cohort.launch.JobRegistry;
import io.cohort.launch.JobSpec;
import io.cohort.launch.LaunchAgent;
import io.cohort.launch.LaunchAgents;
import io.cohort.launch.LaunchException;
import io.cohort.launch.LocalLaunchAgent;
import io.cohort.launch.NetnsLaunchAgent;
import io.cohort.launch.Placement;
import io.cohort.launch.StdinTarget;
import io.cohort.profile.PeerProfile;
import io.cohort.wireup.ParentWatch;
import io.cohort.stacks.JobStacks;
import io.cohort.tools.stacks.StackTree;
import io.cohort.tools.stacks.StackTreeFormatter;
import io.cohort.tools.stacks.ThreadFilter;
import io.cohort.transport.bcast.DomainFactory;
import io.cohort.transport.fault.FaultPlan;
import io.cohort.transport.udp.UdpSettings;
import io.cohort.wireup.JobEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Stack;
import java.util.concurrent.Callable;

/**
 * {@code cohort run}: validates the command line into a {@link JobSpec}, then runs the job in this
 * JVM as its controller. SIGINT/SIGTERM reach a shutdown hook that stops the job in order. The job is
 * registered for {@code cohort stacks} ({@link JobRegistry}), and SIGUSR1 ({@link StacksSignal}; the
 * {@code ./cohort} script turns SIGQUIT into it) prints its merged stacks on stderr while it goes on.
 * SIGTSTP (Ctrl-Z) suspends the job and SIGCONT continues it ({@link JobControl}).
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

    /** Set by {@link #clusterPlan} when the job runs in a partition. */
    private ClusterPlanner.Plan cluster;

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

    @Option(names = "--profile", paramLabel = "DIR", arity = "0..1", fallbackValue = PeerProfile.DEFAULT_DIRECTORY,
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
        ClusterOptions clusterOptions = clusterOptions();
        DaemonClient[] client = new DaemonClient[1];
        if (partitionWanted()) {
            ClusterDb db = clusterOptions.db();
            // The key is read only after the access list let the user in: a refused user hears why.
            cluster = clusterPlan(db, () -> {
                try {
                    client[0] = clusterOptions.client(db);
                    return loads(client[0].status(db));
                } catch (ClusterUnreachableException | ClusterConfigException e) {
                    throw new UncheckedClusterException(e);
                }
            });
        }
        JobSpec job = jobSpec(environment, Path.of("").toAbsolutePath());
        HostPlan plan = hostPlan();
        checkSharedMemoryReaches(job, plan.placement());
        // Peers started by the local or netns agent write into this machine's file system.
        filesAreHere = plan.agent() instanceof LocalLaunchAgent || plan.agent() instanceof NetnsLaunchAgent;
        Controller controller = new Controller(job, plan, System.in,
                new FileOutputStream(FileDescriptor.out), new FileOutputStream(FileDescriptor.err), System.err);
        ClusterSession session = null;
        if (cluster != null) {
            session = ClusterSession.open(cluster.db(), client[0], cluster.placement().hosts(), controller.jobId(),
                    UserIdentity.current().user(), cluster.partition().name(), cluster.scheduling(), controller::printLineOnStderr, verbose);
            controller.onPeerStarted(session::peerStarted);
        }
        try (ClusterSession registered = session) {
            return runController(job, controller);
        }
    }

    /**
     * Set by the shutdown hook, before it stops the job: the JVM is exiting on SIGINT or SIGTERM with
     * the signal's status (130 or 143), which {@link Main} must not race with an exit of its own.
     */
    static volatile boolean stoppedBySignal;

    private Integer runController(JobSpec job, Controller controller) throws LaunchException, IOException {
        controller.register(JobRegistry.forCurrentUser(environment));
        StacksSignal.install(new StacksOnSignal(controller));
        JobControl.install(controller);
        if (stacksOnTimeout) {
            controller.onTimeoutStacks(Duration.ofMillis(Math.round(StacksCommand.TIMEOUT_SECONDS_DEFAULT * 1000)),
                    stacks -> controller.printOnStderr(StackTreeFormatter.format(stacks, StackTree.merge(stacks, ThreadFilter.PROGRAM))));
        }
        watchScript(controller);
        Thread hook = new Thread(() -> {
            // SIGINT/SIGTERM: stop the peers in order; the JVM then exits with 130/143 by itself.
            stoppedBySignal = true;
            controller.interrupt();
            try {
                controller.awaitFinished(job.graceMillis() + 15_000L);
            } catch (InterruptedException ignored) {
                // Exiting anyway.
            }
        }, "cohort-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        JobOutcome outcome;
        long startMillis = System.currentTimeMillis();
        try {
            outcome = controller.run();
        } finally {
            // Ended, or failed before it started the job: nothing left for the hook to wait for (it
            // would wait for the grace period and 15 s after a launch error).
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException exiting) {
                // A signal came first: the hook runs and finds the job finished.
            }
        }
        if (profile != null) {
            String dir = PeerProfile.directory(profile.trim(), controller.jobId());
            System.err.println(filesAreHere
                    ? profileLine(job, job.workingDirectory().resolve(dir), dir, startMillis)
                    : profileLine(job.size(), dir));
        }
        return outcome.exitCode();
    }

    /** SIGUSR1: the merged stacks of the job on the launcher's stderr, one dump at a time; the job goes on. */
    static final class StacksOnSignal implements Runnable {
        private final Controller controller;
        private final java.util.concurrent.atomic.AtomicBoolean busy = new java.util.concurrent.atomic.AtomicBoolean();

        StacksOnSignal(Controller controller) {
            this.controller = controller;
        }

        @Override
        public void run() {
            if (!busy.compareAndSet(false, true)) {
                return; // a dump is on its way; a second one right behind it would say the same
            }
            try {
                Duration timeout = Duration.ofMillis(Math.round(StacksCommand.TIMEOUT_SECONDS_DEFAULT * 1000));
                JobStacks stacks = controller.collectStacks(timeout).get();
                controller.printOnStderr(StackTreeFormatter.format(stacks, StackTree.merge(stacks, ThreadFilter.PROGRAM)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.util.concurrent.ExecutionException | RuntimeException e) {
                controller.printOnStderr("cohort: the stacks could not be collected: " + e + "\n");
            } finally {
                busy.set(false);
            }
        }
    }

    /**
     * Set by {@code ./cohort run} to its own pid; the launcher is its child (so that SIGQUIT can show
     * stacks). When the script is gone (kill -9 of the pid the user knows), even before the launcher
     * looked, the job is stopped as on SIGINT rather than left running under init.
     */
    static final String WATCH_PARENT_PROP_NAME = "cohort.watchParent";

    private static void watchScript(Controller controller) {
        String script = System.getProperty(WATCH_PARENT_PROP_NAME, "");
        if (script.matches("\\d{1,18}")) {
            // The script's pid, not whatever our parent is now: a script killed in the launcher's first
            // tenths of a second left it under init, where watching "the parent" watched nothing.
            ParentWatch.watch("cohort-script-watch", Long.parseLong(script), parent -> controller.interrupt());
        } else if (Boolean.parseBoolean(script)) {
            ParentWatch.start("cohort-script-watch", parent -> controller.interrupt());
        }
    }

    /** Whether the peers' files land in this machine's file system (set by {@link #call}). */
    private boolean filesAreHere;

    /** The launcher's last word after a profiled job: where the files are and how to read them. */
    static String profileLine(int peers, String directory) {
        return "cohort: profile of " + peers + (peers == 1 ? " peer" : " peers") + " in " + directory
                + "; read it with: cohort prof " + directory;
    }

    /**
     * As {@link #profileLine(int, String)}, for peers whose files this machine sees: only the ranks
     * whose file was written during the job count, so that a directory no peer could write in (each
     * peer said so when it started) is not announced as a profile.
     */
    static String profileLine(JobSpec job, Path dir, String shown, long sinceMillis) {
        PeerProfile.Mode mode = PeerProfile.Mode.of(job.environment().getOrDefault(JobEnvironment.PROFILE_MODE,
                PeerProfile.Mode.SUMMARY.label()));
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < job.size(); r++) {
            Path f = dir.resolve(PeerProfile.fileName(job.mainClass(), r, mode == null ? PeerProfile.Mode.SUMMARY : mode));
            try {
                // a second's slack: some file systems keep whole seconds
                if (Files.getLastModifiedTime(f).toMillis() >= sinceMillis - 1000) {
                    continue;
                }
            } catch (IOException e) {
                // no file: missing
            }
            missing.add(r);
        }
        if (missing.isEmpty()) {
            return profileLine(job.size(), shown);
        }
        if (missing.size() == job.size()) {
            return "cohort: no profile was written to " + shown + " (a peer that cannot write there says why when it starts;"
                    + " one killed outright writes none)";
        }
        int written = job.size() - missing.size();
        return "cohort: profile of " + written + " of " + job.size() + " peers in " + shown + " (" + (missing.size() == 1
                ? "rank " : "ranks ") + io.cohort.launch.ExitTracker.rankList(missing) + " wrote none); read it with: cohort prof " + shown;
    }

    /**
     * A word before any program form: picocli took it for the main class, and everything after it
     * for the program's. Says what it was probably meant to be.
     */
    private String strayWord(String word) {
        String start = "'" + word + "' is not an option of cohort run, and no program was given before it";
        if (profile != null && profile.equals(PeerProfile.DEFAULT_DIRECTORY)) {
            return start + ": if it names the profile's directory, attach it (--profile=" + word + "; --profile alone"
                    + " means cohort-prof-<jobid>); a main class needs -cp CLASSPATH before it";
        }
        if (word.endsWith(".jar")) {
            return start + ": run a jar with -jar " + word;
        }
        return start + ": a main class needs -cp CLASSPATH before it (-cp . " + word + " for a class in this directory),"
                + " or use -jar JAR or --example NAME";
    }

    /**
     * Peers per job. The launch frame of one io-manager and the peer table every peer receives
     * carry a record per peer, and both must fit a control frame (16 MiB): 100 000 peers did not.
     */
    static final int MAX_PEERS = 65_536;

    /** Checks every option and builds the job; throws {@link UsageException} / {@link ProgramNotFoundException}. */
    JobSpec jobSpec(Map<String, String> launcherEnv, Path cwd) {
        if (np < 1) {
            throw new UsageException("-n must be 1 or more (got " + np + ")");
        }
        if (np > MAX_PEERS) {
            throw new UsageException("-n " + np + " is more than a job may have (" + MAX_PEERS + " peers)");
        }
        int forms = (jar != null ? 1 : 0) + (classpath != null ? 1 : 0) + (example != null ? 1 : 0);
        if (forms == 0 && !positional.isEmpty()) {
            throw new UsageException(strayWord(positional.get(0)));
        }
        if (forms == 0) {
            throw new UsageException("no program given; use -jar JAR, -cp CLASSPATH MAIN_CLASS or --example NAME");
        }
        if (forms > 1) {
            throw new UsageException("give only one of -jar JAR, -cp CLASSPATH MAIN_CLASS and --example NAME");
        }
        if (timeoutSeconds < 0) {
            throw new UsageException("--timeout must be 0 (no limit) or more seconds (got " + timeoutSeconds + ")");
        }
        if (stacksOnTimeout && timeoutSeconds == 0) {
            throw new UsageException("--stacks-on-timeout needs a --timeout");
        }
        if (graceMillis < 0) {
            throw new UsageException("--grace-period must be 0 or more milliseconds (got " + graceMillis + ")");
        }
        if (wireupTimeoutSeconds < 1 || wireupTimeoutSeconds > JobEnvironment.WIREUP_TIMEOUT_MAX_SECONDS) {
            throw new UsageException("--wireup-timeout must be 1 to " + JobEnvironment.WIREUP_TIMEOUT_MAX_SECONDS
                    + " seconds (got " + wireupTimeoutSeconds + ")");
        }
        StdinTarget stdinTarget;
        try {
            stdinTarget = StdinTarget.parse(stdin);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (stdinTarget.singleRank() >= np) {
            throw new UsageException("--stdin " + stdin + " names a rank outside a job of " + np + " peers");
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String x : exports) {
            int eq = x.indexOf('=');
            String name = eq < 0 ? x : x.substring(0, eq);
            if (name.isEmpty()) {
                throw new UsageException("-x '" + x + "' has no variable name; write -x VAR=VALUE or -x VAR");
            }
            if (eq >= 0) {
                env.put(name, x.substring(eq + 1));
            } else if (launcherEnv.containsKey(name)) {
                env.put(name, launcherEnv.get(name));
            } else {
                throw new UsageException("-x " + name + ": " + name + " is not set here; give a value with -x " + name + "=VALUE");
            }
        }
        // Variables that options stand for, passed on with -x: checked as the options are, before anything starts.
        if (env.containsKey(JobEnvironment.CPU_SHARED)) {
            throw new UsageException("-x " + JobEnvironment.CPU_SHARED + ": the io-manager sets it where it binds peers to a shared"
                    + " processor; choose how peers wait with --idle");
        }
        checkPassedOn(env, IdleStrategies.IDLE_ENV_NAME, IdleStrategies::factory);
        checkPassedOn(env, JobEnvironment.TRANSPORT, v -> oneOf(v, JobEnvironment.TRANSPORTS));
        checkPassedOn(env, JobEnvironment.COLLECTIVES, io.cohort.collective.CollectiveMode::parse);
        checkPassedOn(env, JobEnvironment.FAULT, FaultPlan::parse);
        checkPassedOn(env, JobEnvironment.NETWORK, v -> {
            if (!v.isBlank()) {
                io.cohort.wireup.NetworkPrefix.parse(v);
            }
        });
        if (idle != null) {
            try {
                IdleStrategies.factory(idle);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            env.put(IdleStrategies.IDLE_ENV_NAME, idle);
        }
        if (bindTo != null) {
            String mode = bindTo.trim().toLowerCase(java.util.Locale.ROOT);
            if (!JobEnvironment.BIND_TO_MODES.contains(mode)) {
                throw new UsageException("--bind-to " + bindTo + " is not one of " + JobEnvironment.BIND_TO_MODES);
            }
            env.put(JobEnvironment.BIND_TO, mode);
        } else if (env.containsKey(JobEnvironment.BIND_TO)) { // given with -x
            String mode = env.get(JobEnvironment.BIND_TO).trim().toLowerCase(java.util.Locale.ROOT);
            if (!mode.isEmpty() && !JobEnvironment.BIND_TO_MODES.contains(mode)) {
                throw new UsageException("-x " + JobEnvironment.BIND_TO + "=" + env.get(JobEnvironment.BIND_TO)
                        + " is not one of " + JobEnvironment.BIND_TO_MODES);
            }
            if (mode.isEmpty()) {
                env.remove(JobEnvironment.BIND_TO); // the default
            } else {
                env.put(JobEnvironment.BIND_TO, mode);
            }
        }
        if (collectives != null) {
            String mode = collectives.trim().toLowerCase(java.util.Locale.ROOT);
            if (!JobEnvironment.COLLECTIVE_MODES.contains(mode)) {
                throw new UsageException("--collectives " + collectives + " is not one of " + JobEnvironment.COLLECTIVE_MODES);
            }
            env.put(JobEnvironment.COLLECTIVES, mode);
        }
        if (checkCollectives) {
            env.put(JobEnvironment.CHECK_COLLECTIVES, "1");
        }
        String chosen = transport != null ? transport : cluster != null ? cluster.partition().transport() : "auto";
        String t = chosen.trim().toLowerCase(java.util.Locale.ROOT);
        if (!JobEnvironment.TRANSPORTS.contains(t)) {
            throw new UsageException("--transport " + chosen + " is not one of " + JobEnvironment.TRANSPORTS);
        }
        if (!t.equals("auto")) {
            env.put(JobEnvironment.TRANSPORT, t); // auto is what a peer does without it
        }
        checkPeerProperties(jvmOptions);
        if (fault != null) {
            try {
                FaultPlan.parse(fault);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--fault: " + e.getMessage());
            }
            env.put(JobEnvironment.FAULT, fault.trim());
        }
        if (cluster != null && cluster.partition().network() != null) {
            env.put(JobEnvironment.NETWORK, cluster.partition().network()); // the partition's data network
        }
        if (verbose) {
            env.put(JobEnvironment.VERBOSE, "1"); // rank 0 prints the transport matrix
        }
        if (output != null && output.isBlank()) {
            throw new UsageException("--output needs a file name pattern such as out/rank-%r.txt");
        }
        if (output != null && !output.replace("%%", "").replaceAll("%[rj]", "").chars().noneMatch(c -> c == '%')) {
            throw new UsageException("--output '" + output + "' has a % that is neither %r (the rank), %j (the job id)"
                    + " nor %% (a percent sign)");
        }
        if (profileMode != null && PeerProfile.Mode.of(profileMode) == null) {
            throw new UsageException("--profile-mode must be summary or full (got '" + profileMode + "')");
        }
        if (profileMode != null && profile == null) {
            throw new UsageException("--profile-mode says what --profile records; give --profile too");
        }
        if (profile != null) {
            env.put(JobEnvironment.PROFILE, checkProfile(profile, cwd)); // each peer resolves %j and its own file
            env.put(JobEnvironment.PROFILE_MODE, (profileMode == null ? PeerProfile.Mode.SUMMARY : PeerProfile.Mode.of(profileMode)).label());
        }
        ProgramResolver resolver = new ProgramResolver(cwd);
        ProgramResolver.Program program;
        List<String> args;
        if (jar != null) {
            program = resolver.jar(jar);
            args = List.copyOf(trailing);
        } else if (example != null) {
            ExampleCatalog.Example e = ExampleCatalog.load().get(example);
            if (e == null) {
                throw new UsageException("unknown example '" + example + "'; run 'cohort examples' to list them");
            }
            Path examplesJar = CohortHome.jar(CohortHome.EXAMPLES_JAR, e.mainClass());
            if (examplesJar == null) {
                throw new ProgramNotFoundException("the examples jar was not found; rebuild Cohort (mvn package)");
            }
            program = new ProgramResolver.Program(List.of(examplesJar.toString()), e.mainClass());
            args = List.copyOf(trailing);
            String wrong = e.check(args);
            if (wrong != null) {
                throw new UsageException(wrong);
            }
        } else {
            if (positional.isEmpty()) {
                throw new UsageException("-cp " + classpath + " needs a main class after it");
            }
            program = resolver.classpath(classpath, positional.get(0));
            args = positional.subList(1, positional.size());
        }
        if (jar == null && example == null && !trailing.isEmpty()) {
            throw new UsageException("unexpected arguments " + trailing);
        }
        if ((jar != null || example != null) && !positional.isEmpty()) {
            throw new UsageException("unexpected arguments " + positional + " before the program");
        }
        if (env.keySet().stream().anyMatch(k -> k.equals(JobEnvironment.RANK) || k.equals(JobEnvironment.JOB_ID))) {
            throw new UsageException("-x may not set the COHORT_* variables the launcher sets itself");
        }
        List<String> peerJvmOptions = jvmOptions;
        if (profile != null && (profileMode == null || PeerProfile.Mode.of(profileMode) == PeerProfile.Mode.SUMMARY)) {
            peerJvmOptions = new ArrayList<>(PeerProfile.SUMMARY_JVM_OPTIONS); // first: the program's own may follow
            peerJvmOptions.addAll(jvmOptions);
        }
        return new JobSpec(np, program.classpath(), program.mainClass(), args, peerJvmOptions, env, tagOutput, output,
                stdinTarget, timeoutSeconds, graceMillis, wireupTimeoutSeconds, verbose, cwd, debugSpec(),
                crashRoot(launcherEnv, cwd));
    }

    /** --debug[=RANKS] and --no-tmux checked against the job's size; null without --debug. */
    private DebugSpec debugSpec() {
        if (debug == null) {
            if (noTmux) {
                throw new UsageException("--no-tmux only applies with --debug");
            }
            return null;
        }
        try {
            return DebugSpec.parse(debug, np, !noTmux);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** --core-dir, else $COHORT_CORE_DIR, as an absolute path; null when neither is given. */
    private Path crashRoot(Map<String, String> launcherEnv, Path cwd) {
        String dir = coreDir;
        String from = "--core-dir";
        if (dir == null) {
            dir = launcherEnv.get(CrashDirectories.CORE_DIR_ENV_NAME);
            from = CrashDirectories.CORE_DIR_ENV_NAME;
            if (dir == null || dir.isBlank()) {
                return null;
            }
        }
        if (dir.isBlank()) {
            throw new UsageException("--core-dir needs a directory");
        }
        if (dir.indexOf('%') >= 0) {
            // The JVM expands %p and %% in -XX:ErrorFile and -XX:HeapDumpPath.
            throw new UsageException(from + " " + dir + ": the directory may not contain '%'");
        }
        Path root;
        try {
            root = cwd.resolve(dir).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw new UsageException(from + " " + dir + " is not a valid path");
        }
        if (java.nio.file.Files.exists(root) && !java.nio.file.Files.isDirectory(root)) {
            throw new UsageException(from + " " + dir + " is not a directory");
        }
        return root;
    }

    /**
     * {@code --profile=DIR}: a directory spec the peers can use ({@code %j} and {@code %%} only) that
     * does not name an existing file; returned trimmed. The peers create the directory.
     */
    static String checkProfile(String spec, Path cwd) {
        String s = spec.trim();
        if (s.isEmpty()) {
            throw new UsageException("--profile= needs a directory, e.g. --profile=prof or plain --profile for cohort-prof-<jobid>");
        }
        String dir;
        try {
            dir = PeerProfile.directory(s, "");
        } catch (IllegalArgumentException e) {
            throw new UsageException("--profile " + e.getMessage());
        }
        if (!s.contains("%j") && java.nio.file.Files.isRegularFile(cwd.resolve(dir))) {
            throw new UsageException("--profile " + dir + " is a file; give a directory for the peers' profiles"
                    + " (it is created if missing)");
        }
        return s;
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

    /**
     * Where the job runs: --hosts, --launch-agent and --controller-address checked and combined;
     * without them, every peer on this machine. Throws {@link UsageException}.
     */
    HostPlan hostPlan() {
        InetAddress controller = controllerAddress == null ? null : controllerAddress(controllerAddress);
        if (hosts != null && hostfile != null) {
            throw new UsageException("give only one of --hosts and --hostfile");
        }
        if (cluster != null) {
            LaunchAgent agent;
            try {
                agent = LaunchAgents.parse(launchAgent == null ? "ssh" : launchAgent);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            return new HostPlan(cluster.placement(), agent, controller);
        }
        if (hosts == null && hostfile == null) {
            if (launchAgent != null && !launchAgent.trim().equals("local")) {
                try {
                    LaunchAgents.parse(launchAgent); // an agent that is wrong in itself is the first thing to say
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
                throw new UsageException("--launch-agent " + launchAgent.trim() + " needs --hosts or --hostfile to say where the peers run");
            }
            HostPlan local = HostPlan.local(np);
            return new HostPlan(local.placement(), local.agent(), controller);
        }
        Placement placement;
        LaunchAgent agent;
        try {
            placement = hosts != null ? Placement.parse(hosts, np)
                    : Placement.parseHostfile(readHostfile(hostfile), hostfile.toString(), np);
            agent = LaunchAgents.parse(launchAgent == null ? "ssh" : launchAgent);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return new HostPlan(placement, agent, controller);
    }

    /**
     * {@code --transport shm} moves every message through one host's memory: refused before anything
     * starts when the peers run on several hosts (each would fail to reach the others otherwise).
     */
    static void checkSharedMemoryReaches(JobSpec job, Placement placement) {
        List<String> hosts = List.copyOf(new java.util.LinkedHashSet<>(List.of(placement.hostPerRank())));
        if ("shm".equals(job.environment().get(JobEnvironment.TRANSPORT)) && hosts.size() > 1) {
            throw new UsageException("--transport shm needs every peer on one host, but this job's run on " + hosts.size()
                    + " (" + String.join(", ", hosts) + "); use --transport auto, which takes shared memory within a"
                    + " host and TCP between hosts");
        }
    }

    /** Whether the job runs in a partition: --partition, $COHORT_PARTITION or --cluster-db given. */
    boolean partitionWanted() {
        boolean byEnv = environment.get("COHORT_PARTITION") != null && !environment.get("COHORT_PARTITION").isBlank();
        boolean wanted = partition != null || clusterDb != null || (byEnv && hosts == null && hostfile == null);
        if (wanted && (hosts != null || hostfile != null)) {
            throw new UsageException("--partition and --cluster-db place the peers by load; give them or --hosts/--hostfile, not both");
        }
        if (!wanted && (mode != null || nice != null || policy != null || rtPriority != null)) {
            throw new UsageException("--mode, --nice, --policy and --rt-priority apply to jobs in a partition; add --partition P");
        }
        return wanted;
    }

    private ClusterOptions clusterOptions() {
        ClusterOptions o = new ClusterOptions();
        o.clusterDb = clusterDb;
        o.key = key;
        o.verbose = verbose;
        o.env = environment;
        return o;
    }

    /** The partition's plan: access checked first, then the load server asked and the peers placed. */
    ClusterPlanner.Plan clusterPlan(ClusterDb db, java.util.function.Supplier<List<MemberLoad>> loads)
            throws ClusterUnreachableException, ClusterConfigException {
        String p = partition != null ? partition : environment.get("COHORT_PARTITION");
        try {
            return ClusterPlanner.plan(db, p, np, mode, nice, policy, rtPriority, UserIdentity.current(), loads);
        } catch (UncheckedClusterException e) {
            if (e.getCause() instanceof ClusterConfigException c) {
                throw c;
            }
            throw (ClusterUnreachableException) e.getCause();
        }
    }

    /** A load server's table as placement sees it: a member is available when up or drained (drained has no slots). */
    static List<MemberLoad> loads(StatusTable table) {
        List<MemberLoad> out = new ArrayList<>();
        for (MemberStatus m : table.members()) {
            boolean available = m.state() == MemberState.UP || m.state() == MemberState.DRAINED;
            out.add(new MemberLoad(m.name(), available, m.cpus(), Math.max(0, m.load1()), m.slots(), m.jobs().size()));
        }
        return out;
    }

    /** Carries a load server failure out of the placement's supplier. */
    private static final class UncheckedClusterException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UncheckedClusterException(Exception cause) {
            super(cause);
        }
    }

    /** The largest host file read: 65536 peers on lines of a generous 256 bytes. */
    private static final int HOSTFILE_MAX_BYTES = 16 << 20;

    private static String readHostfile(Path file) {
        try {
            return io.cohort.cluster.TextFiles.read(file, HOSTFILE_MAX_BYTES, java.nio.charset.StandardCharsets.UTF_8);
        } catch (io.cohort.cluster.TextFiles.NotTextFileException e) {
            throw new UsageException("--hostfile " + file + " " + e.getMessage() + "; give a text file of host names");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new UsageException("--hostfile " + file + " is not UTF-8 text");
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UsageException("--hostfile " + file + " does not exist");
        } catch (java.nio.file.AccessDeniedException e) {
            throw new UsageException("--hostfile " + file + " cannot be read (permission denied)");
        } catch (IOException e) {
            throw new UsageException("--hostfile " + file + " cannot be read (" + e.getMessage() + ")");
        }
    }

    /** --controller-address must be one of this machine's own addresses (the controller binds it). */
    private static InetAddress controllerAddress(String value) {
        InetAddress a;
        try {
            a = InetAddress.getByName(value.trim());
        } catch (UnknownHostException e) {
            throw new UsageException("--controller-address " + value + " does not resolve to an address");
        }
        boolean own;
        try {
            own = a.isLoopbackAddress() || NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            own = false;
        }
        if (a.isAnyLocalAddress() || a.isMulticastAddress() || !own) {
            throw new UsageException("--controller-address " + value + " is not an address of this machine; "
                    + "give one that 'ip addr' lists and the hosts reach");
        }
        return a;
    }

    /**
     * Peer settings given as {@code --jvm-opt -Dcohort.udp.X=V}, {@code -Dcohort.bcast.X=V} or {@code -Dcohort.fault=SPEC} are
     * checked here, so a bad value costs one line and exit 2 instead of every peer failing at start.
     */
    static void checkPeerProperties(List<String> jvmOptions) {
        Map<String, String> udp = new LinkedHashMap<>();
        Properties bcast = new Properties();
        for (String o : jvmOptions) {
            if (!o.startsWith("-D")) {
                continue;
            }
            int eq = o.indexOf('=');
            String name = eq < 0 ? o.substring(2) : o.substring(2, eq);
            String value = eq < 0 ? "" : o.substring(eq + 1);
            if (name.startsWith("cohort.udp.")) {
                udp.put(name, value);
            } else if (name.startsWith("cohort.bcast.")) {
                bcast.setProperty(name, value);
            } else if (name.equals(io.cohort.collective.CollectivePolicy.FORCE_PROP_NAME)) {
                try {
                    io.cohort.collective.CollectivePolicy.parseForced(value);
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--jvm-opt " + o + ": " + e.getMessage());
                }
            } else if (name.equals(FaultPlan.FAULT_PROP_NAME)) {
                try {
                    FaultPlan.parse(value);
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--jvm-opt " + o + ": " + e.getMessage());
                }
            }
        }
        try {
            DomainFactory.checkSettings(bcast);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--jvm-opt: " + e.getMessage());
        }
        if (udp.isEmpty()) {
            return;
        }
        UdpSettings settings;
        try {
            settings = UdpSettings.from(udp::get);
        } catch (RuntimeException e) {
            throw new UsageException("--jvm-opt: " + e.getMessage());
        }
        for (String name : udp.keySet()) {
            if (!settings.explicit().containsKey(name)) {
                throw new UsageException("--jvm-opt -D" + name + ": no such udp setting; see docs/cli.md");
            }
        }
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

    /** Refuses {@code -x NAME=VALUE} in one sentence where {@code check} refuses the value. */
    private static void checkPassedOn(Map<String, String> env, String name, java.util.function.Consumer<String> check) {
        String value = env.get(name);
        if (value == null) {
            return;
        }
        try {
            check.accept(value);
        } catch (IllegalArgumentException | io.cohort.CohortException e) {
            throw new UsageException("-x " + name + "=" + value + ": " + e.getMessage());
        }
    }

    private static void oneOf(String value, List<String> allowed) {
        if (!allowed.contains(value.trim().toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException("not one of " + allowed);
        }
    }
}

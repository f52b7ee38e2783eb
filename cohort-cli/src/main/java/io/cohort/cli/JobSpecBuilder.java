package io.cohort.cli;

import io.cohort.launch.CohortHome;
import io.cohort.launch.CrashDirectories;
import io.cohort.launch.DebugSpec;
import io.cohort.launch.JobSpec;
import io.cohort.launch.StdinTarget;
import io.cohort.profile.ProfileRecording;
import io.cohort.wireup.JobEnvironment;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code cohort run} runs: every option that says so checked, one sentence per refusal
 * ({@link UsageException}, {@link ProgramNotFoundException}), and combined into the {@link JobSpec}:
 * the program and its arguments, the peers' JVM options and environment (the variables options
 * stand for, and {@code -x}), output, stdin, time-outs, --debug and --core-dir. The checks that need
 * cohort-core's own parsers are {@link PeerSettingChecks}'; where the job runs is
 * {@link HostPlanBuilder}'s. Reads the options {@link RunCommand} parsed.
 */
final class JobSpecBuilder {
    private final RunCommand run;

    JobSpecBuilder(RunCommand run) {
        this.run = run;
    }

    /**
     * A word before any program form: picocli took it for the main class, and everything after it
     * for the program's. Says what it was probably meant to be.
     */
    private String strayWord(String word) {
        String start = "'" + word + "' is not an option of cohort run, and no program was given before it";
        if (run.profile != null && run.profile.equals(ProfileRecording.DEFAULT_DIRECTORY)) {
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
    JobSpec build(Map<String, String> launcherEnv, Path cwd) {
        if (run.np < 1) {
            throw new UsageException("-n must be 1 or more (got " + run.np + ")");
        }
        if (run.np > MAX_PEERS) {
            throw new UsageException("-n " + run.np + " is more than a job may have (" + MAX_PEERS + " peers)");
        }
        int forms = (run.jar != null ? 1 : 0) + (run.classpath != null ? 1 : 0) + (run.example != null ? 1 : 0);
        if (forms == 0 && !run.positional.isEmpty()) {
            throw new UsageException(strayWord(run.positional.get(0)));
        }
        if (forms == 0) {
            throw new UsageException("no program given; use -jar JAR, -cp CLASSPATH MAIN_CLASS or --example NAME");
        }
        if (forms > 1) {
            throw new UsageException("give only one of -jar JAR, -cp CLASSPATH MAIN_CLASS and --example NAME");
        }
        if (run.timeoutSeconds < 0) {
            throw new UsageException("--timeout must be 0 (no limit) or more seconds (got " + run.timeoutSeconds + ")");
        }
        if (run.stacksOnTimeout && run.timeoutSeconds == 0) {
            throw new UsageException("--stacks-on-timeout needs a --timeout");
        }
        if (run.graceMillis < 0) {
            throw new UsageException("--grace-period must be 0 or more milliseconds (got " + run.graceMillis + ")");
        }
        if (run.wireupTimeoutSeconds < 1 || run.wireupTimeoutSeconds > JobEnvironment.WIREUP_TIMEOUT_MAX_SECONDS) {
            throw new UsageException("--wireup-timeout must be 1 to " + JobEnvironment.WIREUP_TIMEOUT_MAX_SECONDS
                    + " seconds (got " + run.wireupTimeoutSeconds + ")");
        }
        StdinTarget stdinTarget;
        try {
            stdinTarget = StdinTarget.parse(run.stdin);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (stdinTarget.singleRank() >= run.np) {
            throw new UsageException("--stdin " + run.stdin + " names a rank outside a job of " + run.np + " peers");
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String x : run.exports) {
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
        PeerSettingChecks.checkPassedOn(env);
        if (run.idle != null) {
            PeerSettingChecks.checkIdle(run.idle);
            env.put(PeerSettingChecks.IDLE_ENV_NAME, run.idle);
        }
        if (run.bindTo != null) {
            String mode = run.bindTo.trim().toLowerCase(Locale.ROOT);
            if (!JobEnvironment.BIND_TO_MODES.contains(mode)) {
                throw new UsageException("--bind-to " + run.bindTo + " is not one of " + JobEnvironment.BIND_TO_MODES);
            }
            env.put(JobEnvironment.BIND_TO, mode);
        } else if (env.containsKey(JobEnvironment.BIND_TO)) { // given with -x
            String mode = env.get(JobEnvironment.BIND_TO).trim().toLowerCase(Locale.ROOT);
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
        if (run.collectives != null) {
            String mode = run.collectives.trim().toLowerCase(Locale.ROOT);
            if (!JobEnvironment.COLLECTIVE_MODES.contains(mode)) {
                throw new UsageException("--collectives " + run.collectives + " is not one of " + JobEnvironment.COLLECTIVE_MODES);
            }
            env.put(JobEnvironment.COLLECTIVES, mode);
        }
        if (run.bcastProtocol != null) {
            env.put(PeerSettingChecks.BCAST_PROTOCOL_ENV_NAME, PeerSettingChecks.checkBcastProtocol(run.bcastProtocol));
        }
        if (run.checkCollectives) {
            env.put(JobEnvironment.CHECK_COLLECTIVES, "1");
        }
        String chosen = run.transport != null ? run.transport : run.cluster != null ? run.cluster.partition().transport() : "auto";
        String t = chosen.trim().toLowerCase(Locale.ROOT);
        if (!JobEnvironment.TRANSPORTS.contains(t)) {
            throw new UsageException("--transport " + chosen + " is not one of " + JobEnvironment.TRANSPORTS);
        }
        if (!t.equals("auto")) {
            env.put(JobEnvironment.TRANSPORT, t); // auto is what a peer does without it
        }
        PeerSettingChecks.checkPeerProperties(run.jvmOptions);
        if (run.fault != null) {
            PeerSettingChecks.checkFault(run.fault);
            env.put(JobEnvironment.FAULT, run.fault.trim());
        }
        if (run.serialFilter != null) {
            PeerSettingChecks.checkSerialFilter(run.serialFilter);
            env.put(JobEnvironment.SERIAL_FILTER, run.serialFilter);
        }
        if (run.cluster != null && run.cluster.partition().network() != null) {
            env.put(JobEnvironment.NETWORK, run.cluster.partition().network()); // the partition's data network
        }
        if (run.verbose) {
            env.put(JobEnvironment.VERBOSE, "1"); // rank 0 prints the transport matrix
        }
        if (run.output != null && run.output.isBlank()) {
            throw new UsageException("--output needs a file name pattern such as out/rank-%r.txt");
        }
        if (run.output != null && !run.output.replace("%%", "").replaceAll("%[rj]", "").chars().noneMatch(c -> c == '%')) {
            throw new UsageException("--output '" + run.output + "' has a % that is neither %r (the rank), %j (the job id)"
                    + " nor %% (a percent sign)");
        }
        if (run.profileMode != null && ProfileRecording.Mode.of(run.profileMode) == null) {
            throw new UsageException("--profile-mode must be summary or full (got '" + run.profileMode + "')");
        }
        if (run.profileMode != null && run.profile == null) {
            throw new UsageException("--profile-mode says what --profile records; give --profile too");
        }
        if (run.profile != null) {
            env.put(JobEnvironment.PROFILE, checkProfile(run.profile, cwd)); // each peer resolves %j and its own file
            env.put(JobEnvironment.PROFILE_MODE, (run.profileMode == null ? ProfileRecording.Mode.SUMMARY : ProfileRecording.Mode.of(run.profileMode)).label());
        }
        ProgramResolver resolver = new ProgramResolver(cwd);
        ProgramResolver.Program program;
        List<String> args;
        if (run.jar != null) {
            program = resolver.jar(run.jar);
            args = List.copyOf(run.trailing);
        } else if (run.example != null) {
            ExampleCatalog.Example e = ExampleCatalog.load().get(run.example);
            if (e == null) {
                throw new UsageException("unknown example '" + run.example + "'; run 'cohort examples' to list them");
            }
            Path examplesJar = CohortHome.jar(CohortHome.EXAMPLES_JAR, e.mainClass());
            if (examplesJar == null) {
                throw new ProgramNotFoundException("the examples jar was not found; rebuild Cohort (mvn package)");
            }
            program = new ProgramResolver.Program(List.of(examplesJar.toString()), e.mainClass());
            args = List.copyOf(run.trailing);
            String wrong = e.check(args);
            if (wrong != null) {
                throw new UsageException(wrong);
            }
        } else {
            if (run.positional.isEmpty()) {
                throw new UsageException("-cp " + run.classpath + " needs a main class after it");
            }
            program = resolver.classpath(run.classpath, run.positional.get(0));
            args = run.positional.subList(1, run.positional.size());
        }
        if (run.jar == null && run.example == null && !run.trailing.isEmpty()) {
            throw new UsageException("unexpected arguments " + run.trailing);
        }
        if ((run.jar != null || run.example != null) && !run.positional.isEmpty()) {
            throw new UsageException("unexpected arguments " + run.positional + " before the program");
        }
        if (env.keySet().stream().anyMatch(k -> k.equals(JobEnvironment.RANK) || k.equals(JobEnvironment.JOB_ID))) {
            throw new UsageException("-x may not set the COHORT_* variables the launcher sets itself");
        }
        List<String> peerJvmOptions = run.jvmOptions;
        if (run.profile != null && (run.profileMode == null || ProfileRecording.Mode.of(run.profileMode) == ProfileRecording.Mode.SUMMARY)) {
            peerJvmOptions = new ArrayList<>(ProfileRecording.SUMMARY_JVM_OPTIONS); // first: the program's own may follow
            peerJvmOptions.addAll(run.jvmOptions);
        }
        return new JobSpec(run.np, program.classpath(), program.mainClass(), args, peerJvmOptions, env, run.tagOutput, run.output,
                stdinTarget, run.timeoutSeconds, run.graceMillis, run.wireupTimeoutSeconds, run.verbose, cwd, debugSpec(),
                crashRoot(launcherEnv, cwd));
    }

    /** --debug[=RANKS] and --no-tmux checked against the job's size; null without --debug. */
    private DebugSpec debugSpec() {
        if (run.debug == null) {
            if (run.noTmux) {
                throw new UsageException("--no-tmux only applies with --debug");
            }
            return null;
        }
        try {
            return DebugSpec.parse(run.debug, run.np, !run.noTmux);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** --core-dir, else $COHORT_CORE_DIR, as an absolute path; null when neither is given. */
    private Path crashRoot(Map<String, String> launcherEnv, Path cwd) {
        String dir = run.coreDir;
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
        } catch (InvalidPathException e) {
            throw new UsageException(from + " " + dir + " is not a valid path");
        }
        if (Files.exists(root) && !Files.isDirectory(root)) {
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
            dir = ProfileRecording.directory(s, "");
        } catch (IllegalArgumentException e) {
            throw new UsageException("--profile " + e.getMessage());
        }
        if (!s.contains("%j") && Files.isRegularFile(cwd.resolve(dir))) {
            throw new UsageException("--profile " + dir + " is a file; give a directory for the peers' profiles"
                    + " (it is created if missing)");
        }
        return s;
    }
}

package io.cohort.launch;

import io.cohort.wireup.JobEnvironment;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command lines and environments the launcher starts processes with: the io-manager's JVM
 * (also started early, before the job is known, by {@link EarlyIoManager}), and each peer's JVM
 * with its {@code COHORT_*} environment, which the controller sends in its io-manager's LAUNCH.
 * Nothing here starts a process or keeps state; the controller's event thread asks it for a peer's
 * lines as the peer's io-manager says hello.
 */
final class PeerCommandLines {
    /**
     * Flags that make the io-manager's JVM start fast; it does little work, and nobody needs to see
     * it in {@code jps} (no perf-data file).
     */
    static final List<String> IO_MANAGER_JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-XX:-UsePerfData");
    /** The class-data-sharing archive of the io-manager made by the build, beside cohort-core.jar. */
    static final String IO_MANAGER_ARCHIVE = "cohort-iomanager.jsa";
    /**
     * Build-time only: the launcher's training run sets this to the file the io-manager it starts
     * should write its archive to ({@code -XX:ArchiveClassesAtExit}).
     */
    static final String IO_MANAGER_TRAINING_PROP_NAME = "cohort.training.ioManagerArchive";
    static final String PEER_MAIN = "io.cohort.wireup.PeerMain";
    /** The class-data-sharing archive of cohort-core made by the build, beside cohort-core.jar. */
    static final String CORE_ARCHIVE = "cohort-core.jsa";
    /**
     * The wire-up time-out peers are given under --debug: the most {@code COHORT_WIREUP_TIMEOUT}
     * allows (a day), i.e. none, since a peer of a debugged job may wait for a breakpoint's user.
     */
    static final int DEBUG_WIREUP_TIMEOUT_SECONDS = JobEnvironment.WIREUP_TIMEOUT_MAX_SECONDS;

    private final JobSpec spec;
    private final Placement placement;
    private final String jobId;
    /** Every peer runs on this machine (the local or netns agent): the hosts share its processors. */
    private final boolean peersOnThisMachine;

    PeerCommandLines(JobSpec spec, Placement placement, String jobId, boolean peersOnThisMachine) {
        this.spec = spec;
        this.placement = placement;
        this.jobId = jobId;
        this.peersOnThisMachine = peersOnThisMachine;
    }

    /** The io-manager's JVM command up to and including its main class (its arguments follow). */
    static List<String> ioManagerJvm() {
        List<String> command = new ArrayList<>();
        command.add(CohortHome.javaExecutable());
        command.addAll(IO_MANAGER_JVM_FLAGS);
        command.addAll(ioManagerArchiveFlags());
        command.add("-cp");
        command.add(CohortHome.ioManagerClasspath());
        command.add(IoManagerMain.class.getName());
        return command;
    }

    /** Class-data sharing for the io-manager: use the build's archive, or record it in the training run. */
    private static List<String> ioManagerArchiveFlags() {
        String training = System.getProperty(IO_MANAGER_TRAINING_PROP_NAME);
        if (training != null && !training.isBlank()) {
            return List.of("-XX:ArchiveClassesAtExit=" + training, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
        }
        java.nio.file.Path archive = CohortHome.coreJar().resolveSibling(IO_MANAGER_ARCHIVE);
        if (java.nio.file.Files.isReadable(archive)) {
            // Skipped silently by a JVM the archive does not match; the io-manager then only starts slower.
            return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
        }
        return List.of();
    }

    /** The crash-file directory of one rank, or null without --core-dir. */
    Path crashDirectory(int rank) {
        if (spec.crashRoot() == null) {
            return null;
        }
        return CrashDirectories.rankDirectory(CrashDirectories.jobDirectory(spec.crashRoot(), spec.mainClass(), jobId), rank);
    }

    /**
     * The JVM command line of {@code rank}; {@code debugHost} is the address its JDWP agent binds,
     * null if it is not debugged.
     */
    List<String> peerCommand(int rank, String debugHost) {
        List<String> c = new ArrayList<>();
        c.add(CohortHome.javaExecutable());
        // cohort-core comes first on the classpath so that its class-data-sharing archive (a CDS
        // classpath must be a prefix of the runtime one) applies whatever the program's classpath is.
        java.nio.file.Path archive = CohortHome.coreJar().resolveSibling(CORE_ARCHIVE);
        if (java.nio.file.Files.isReadable(archive)) {
            c.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
        }
        if (debugHost != null) {
            c.add(JdwpAgentLine.option(debugHost));
        }
        Path crashDir = crashDirectory(rank);
        if (crashDir != null) {
            c.addAll(CrashDirectories.jvmFlags(crashDir)); // before the user's options, which may override them
        }
        c.addAll(spec.jvmOptions());
        List<String> cp = new ArrayList<>();
        cp.add(String.valueOf(CohortHome.coreJar()));
        cp.addAll(spec.classpath());
        c.add("-cp");
        c.add(String.join(File.pathSeparator, cp));
        c.add(PEER_MAIN);
        c.add(spec.mainClass());
        c.addAll(spec.programArgs());
        return c;
    }

    /** The environment of {@code rank}: the job's, and the COHORT_* variables that place it in the job. */
    Map<String, String> peerEnvironment(int rank, String address) {
        Map<String, String> env = new LinkedHashMap<>(spec.environment());
        env.put(JobEnvironment.JOB_ID, jobId);
        env.put(JobEnvironment.RANK, Integer.toString(rank));
        env.put(JobEnvironment.SIZE, Integer.toString(spec.size()));
        env.put(JobEnvironment.LOCAL_RANK, Integer.toString(placement.localRank(rank)));
        env.put(JobEnvironment.LOCAL_SIZE, Integer.toString(placement.localSize(rank)));
        String bindTo = env.getOrDefault(JobEnvironment.BIND_TO, "");
        if (bindTo.isEmpty() || bindTo.equals("auto")) {
            // Several hosts started here by the local or netns agent share this machine's processors,
            // and each one's io-manager would claim them all for its own peers: left unbound.
            if (peersOnThisMachine && placement.hosts().size() > 1) {
                bindTo = "none";
                env.put(JobEnvironment.BIND_TO, bindTo);
            } else {
                bindTo = "auto"; // the default is sent unset: an older io-manager then starts the peer unbound
            }
        }
        if (bindTo.equals("core")) {
            // Hosts that the local or netns agent starts all share this machine's processors.
            env.put(JobEnvironment.BIND_INDEX, Integer.toString(peersOnThisMachine ? rank : placement.localRank(rank)));
        } else if (bindTo.equals("auto")) {
            env.put(JobEnvironment.BIND_INDEX, Integer.toString(placement.localRank(rank)));
        }
        // The --hosts name: peers compare these to put shared memory within a host and TCP between hosts.
        env.put(JobEnvironment.HOST, placement.hostOf(rank));
        env.put(JobEnvironment.CONTROLLER, address);
        env.put(JobEnvironment.WIREUP_TIMEOUT, Integer.toString(spec.debug() != null ? DEBUG_WIREUP_TIMEOUT_SECONDS
                : spec.wireupTimeoutSeconds()));
        Path crashDir = crashDirectory(rank);
        if (crashDir != null) {
            env.put(JobEnvironment.CRASH_DIR, crashDir.toString());
        }
        return env;
    }
}

package io.cohort.launch;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything the controller needs to run one job, validated by the command line before it gets here.
 *
 * @param size             number of peers (1 or more)
 * @param classpath        the program's classpath entries; cohort-core.jar is appended for the peers
 * @param mainClass        the program's main class, run through {@code io.cohort.wireup.PeerMain}
 * @param programArgs      the program's arguments
 * @param jvmOptions       options for every peer JVM
 * @param environment      variables added to every peer's environment (-x, COHORT_IDLE)
 * @param tagOutput        prefix each output line with "[rank] "
 * @param outputPattern    per-peer output file ("%r" rank, "%j" job id), or null for the launcher's stdout/stderr
 * @param stdin            which peers get the launcher's standard input
 * @param timeoutSeconds   stop the job after this long (0: no limit)
 * @param graceMillis      time between TERM and KILL when the job is stopped
 * @param wireupTimeoutSeconds time the peers have to connect once the job started
 * @param verbose          print the job id and command lines
 * @param workingDirectory the peers' working directory
 * @param debug            the ranks to start under a debugger ({@code --debug}), or null
 * @param crashRoot        the absolute root of the per-peer crash-file directories ({@code --core-dir}), or null
 */
public record JobSpec(int size, List<String> classpath, String mainClass, List<String> programArgs,
                      List<String> jvmOptions, Map<String, String> environment, boolean tagOutput,
                      String outputPattern, StdinTarget stdin, int timeoutSeconds, int graceMillis,
                      int wireupTimeoutSeconds, boolean verbose, Path workingDirectory, DebugSpec debug,
                      Path crashRoot) {
    public static final int GRACE_MILLIS_DEFAULT = 2000;
    public static final int WIREUP_TIMEOUT_SECONDS_DEFAULT = 60;

    public JobSpec {
        if (size < 1) {
            throw new IllegalArgumentException("size must be 1 or more: " + size);
        }
        classpath = List.copyOf(classpath);
        programArgs = List.copyOf(programArgs);
        jvmOptions = List.copyOf(jvmOptions);
        environment = Map.copyOf(environment);
        if (debug != null && debug.ranks().last() >= size) {
            throw new IllegalArgumentException("--debug names rank " + debug.ranks().last() + " in a job of " + size);
        }
    }

    /** A job without a debugger and without crash-file directories. */
    public JobSpec(int size, List<String> classpath, String mainClass, List<String> programArgs,
                   List<String> jvmOptions, Map<String, String> environment, boolean tagOutput,
                   String outputPattern, StdinTarget stdin, int timeoutSeconds, int graceMillis,
                   int wireupTimeoutSeconds, boolean verbose, Path workingDirectory) {
        this(size, classpath, mainClass, programArgs, jvmOptions, environment, tagOutput, outputPattern, stdin,
                timeoutSeconds, graceMillis, wireupTimeoutSeconds, verbose, workingDirectory, null, null);
    }
}

package io.cohort.launch;

import io.cohort.engine.Placement;
import io.cohort.wireup.JobEnvironment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * {@code cohort run --bind-to core}: the io-manager starts each peer's JVM under util-linux's
 * {@code taskset}, so that the JVM and every thread it ever starts may run on one processor only.
 * The peer with bind index {@code i} ({@code COHORT_BIND_INDEX}: its local rank, or its rank where
 * all hosts are this machine) gets the {@code i}-th of the processors the io-manager itself may use
 * (its affinity and cpuset, as {@code Cpus_allowed_list} lists them), in turn when the peers
 * outnumber them, as Open MPI's {@code --bind-to core} with overload allowed.
 *
 * <p>Why: two peers that poll and then sleep (the default idle strategy) are woken by each other,
 * and Linux tends to wake a task on its waker's processor. Once both share one, they take turns on
 * it while the other processor idles, and a stream between them moves at a seventh of its rate
 * until the scheduler parts them (docs/benchmarks.md, "Two peers on one core"). Bound peers cannot
 * meet on one processor. The JDK has no call for a process's affinity, hence {@code taskset}.
 *
 * <p>Threads: the io-manager's launch thread; stateless.
 */
final class CoreBinding {
    static final String TASKSET = "taskset";
    private static final Path PROC_SELF_STATUS = Path.of("/proc/self/status");

    private CoreBinding() {
    }

    /** Whether {@code env} (a peer's environment) asks for binding; refuses a value other than none or core. */
    static boolean wanted(Map<String, String> env) {
        String v = env.get(JobEnvironment.BIND_TO);
        if (v == null || v.isEmpty() || v.equals("none")) {
            return false;
        }
        if (v.equals("core")) {
            return true;
        }
        throw new IllegalArgumentException(JobEnvironment.BIND_TO + "=" + v + " is not one of " + JobEnvironment.BIND_TO_MODES);
    }

    /**
     * The processor for the peer of bind index {@code index}: the {@code index mod n}-th of the
     * {@code n} processors in {@code allowed} (a {@code Cpus_allowed_list}, e.g. {@code 0-3,6}).
     */
    static int cpuFor(int index, String allowed) {
        BitSet set = Placement.cpuSet(allowed);
        if (set == null || set.isEmpty()) {
            throw new IllegalArgumentException("cannot read the processors this host allows (\"" + allowed + "\")");
        }
        int k = Math.floorMod(index, set.cardinality());
        int cpu = set.nextSetBit(0);
        for (int i = 0; i < k; i++) {
            cpu = set.nextSetBit(cpu + 1);
        }
        return cpu;
    }

    /**
     * The words to put before a peer's command so it runs bound: {@code taskset -c N} (the form
     * util-linux and BusyBox both take), the processor chosen by its {@code COHORT_BIND_INDEX} among
     * those this process may use.
     *
     * @throws IOException with one sentence when this host cannot bind (no taskset, no /proc)
     */
    static List<String> prefix(Map<String, String> env) throws IOException {
        int index;
        try {
            index = Integer.parseInt(env.getOrDefault(JobEnvironment.BIND_INDEX, ""));
        } catch (NumberFormatException e) {
            throw new IOException("--bind-to core needs the peer's " + JobEnvironment.BIND_INDEX + ", which is not set");
        }
        String taskset = onPath(TASKSET);
        if (taskset == null) {
            throw new IOException("--bind-to core needs taskset (util-linux), which is not on this host's PATH");
        }
        try {
            return List.of(taskset, "-c", Integer.toString(cpuFor(index, allowedCpus())));
        } catch (IllegalArgumentException e) {
            throw new IOException("--bind-to core " + e.getMessage());
        }
    }

    /** This process's {@code Cpus_allowed_list}. */
    static String allowedCpus() throws IOException {
        for (String line : Files.readAllLines(PROC_SELF_STATUS, StandardCharsets.US_ASCII)) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return line.substring("Cpus_allowed_list:".length()).trim();
            }
        }
        throw new IOException("cannot tell the processors this host allows: " + PROC_SELF_STATUS + " has no Cpus_allowed_list");
    }

    /** The absolute path of program {@code name} on this process's PATH, or null. */
    static String onPath(String name) {
        return onPath(name, System.getenv("PATH"));
    }

    /**
     * The path of program {@code name} in the directories of {@code path} (the PATH's form; /usr/bin
     * and /bin if unset), or null. A peer's PATH may differ (-x PATH=...), so helpers that run before
     * it are named by this path, not looked up again.
     */
    static String onPath(String name, String path) {
        for (String dir : (path == null || path.isEmpty() ? "/usr/bin:/bin" : path).split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name).toAbsolutePath();
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}

package io.cohort.launch;

import io.cohort.engine.MachineMap;
import io.cohort.wireup.JobEnvironment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * Binding peers to processors: the io-manager starts each peer's JVM under util-linux's
 * {@code taskset}, so that the JVM and every thread it ever starts may run on the processors given
 * only. Three modes ({@code cohort run --bind-to}, {@code COHORT_BIND_TO} in the peer's environment):
 * <ul>
 *   <li>{@code auto}, the default: the io-manager claims the processors it may use (its affinity
 *       and cpuset, as {@code Cpus_allowed_list} lists them) that no other job on the machine has
 *       claimed ({@link CpuClaims}) and splits them among its peers: blocks of equal size where
 *       there are at least as many as peers, one each in turn where the peers outnumber them. With
 *       fewer left than the peers could have (other jobs hold the rest), no taskset, or several of
 *       the job's hosts on this machine (the controller then sends {@code none}), the peers run
 *       unbound: auto never fails a job. Only processors Linux has online count.</li>
 *   <li>{@code core}: the peer with bind index {@code i} ({@code COHORT_BIND_INDEX}: its local rank,
 *       or its rank where all hosts are this machine) gets the {@code i}-th allowed processor, in
 *       turn when the peers outnumber them, as Open MPI's {@code --bind-to core} with overload
 *       allowed; offline processors are skipped, other jobs are not looked at, and a host that
 *       cannot bind fails the peer.</li>
 *   <li>{@code none}: the peers may run wherever the io-manager may.</li>
 * </ul>
 *
 * <p>Why: two peers that poll and then sleep (the default idle strategy) are woken by each other,
 * and Linux tends to wake a task on its waker's processor. Once both share one, they take turns on
 * it while the other processor idles, and a stream between them moves at a seventh of its rate
 * until the scheduler parts them (docs/notes/benchmark-history.md, "Two peers on one core"). Peers bound apart
 * cannot meet on one processor. The JDK has no call for a process's affinity, hence {@code taskset}.
 *
 * <p>Threads: the io-manager's launch thread; stateless.
 */
final class CoreBinding {
    static final String TASKSET = "taskset";
    private static final Path PROC_SELF_STATUS = Path.of("/proc/self/status");
    private static final Path ONLINE = Path.of("/sys/devices/system/cpu/online");

    /** What {@code COHORT_BIND_TO} asks for. */
    enum Mode {
        NONE, CORE, AUTO
    }

    private CoreBinding() {
    }

    /**
     * The mode {@code env} (a peer's environment) asks for: unset is auto, the default (the
     * controller leaves it unset then, so that an io-manager of an older version, which knows no
     * {@code auto}, starts the peers unbound rather than failing them); refuses a value not in
     * {@link JobEnvironment#BIND_TO_MODES}.
     */
    static Mode mode(Map<String, String> env) {
        String v = env.get(JobEnvironment.BIND_TO);
        if (v == null || v.isEmpty()) {
            return Mode.AUTO;
        }
        if (v.equals("none")) {
            return Mode.NONE;
        }
        if (v.equals("core")) {
            return Mode.CORE;
        }
        if (v.equals("auto")) {
            return Mode.AUTO;
        }
        throw new IllegalArgumentException(JobEnvironment.BIND_TO + "=" + v + " is not one of " + JobEnvironment.BIND_TO_MODES);
    }

    /**
     * The processor for the peer of bind index {@code index}: the {@code index mod n}-th of the
     * {@code n} processors in {@code allowed} (a {@code Cpus_allowed_list}, e.g. {@code 0-3,6}).
     */
    static int cpuFor(int index, String allowed) {
        return cpuFor(index, allowed, null);
    }

    /**
     * As {@link #cpuFor(int, String)}, among those of {@code allowed} that are also in {@code online}
     * (the kernel's list of online processors; the mask may name possible but offline ones). A null
     * or disjoint {@code online} is not looked at.
     */
    static int cpuFor(int index, String allowed, BitSet online) {
        BitSet set = usable(allowed, online);
        int k = Math.floorMod(index, set.cardinality());
        int cpu = set.nextSetBit(0);
        for (int i = 0; i < k; i++) {
            cpu = set.nextSetBit(cpu + 1);
        }
        return cpu;
    }

    /** The processors of {@code allowed} that {@code online} has (all of them where it is null or disjoint). */
    private static BitSet usable(String allowed, BitSet online) {
        BitSet set = MachineMap.cpuSet(allowed);
        if (set == null || set.isEmpty()) {
            throw new IllegalArgumentException("cannot read the processors this host allows (\"" + allowed + "\")");
        }
        if (online != null && set.intersects(online)) {
            set.and(online);
        }
        return set;
    }

    /**
     * The words to put before a peer's command so it runs bound: {@code taskset -c N} (the form
     * util-linux and BusyBox both take), the processor chosen by its {@code COHORT_BIND_INDEX} among
     * those this process may use.
     *
     * @throws IOException with one sentence when this host cannot bind (no taskset, no /proc)
     */
    static List<String> prefix(Map<String, String> env) throws IOException {
        int index = bindIndex(env, "core");
        String taskset = onPath(TASKSET);
        if (taskset == null) {
            throw new IOException("--bind-to core needs taskset (util-linux), which is not on this host's PATH");
        }
        try {
            return List.of(taskset, "-c", Integer.toString(cpuFor(index, allowedCpus(), online())));
        } catch (IllegalArgumentException e) {
            throw new IOException("--bind-to core " + e.getMessage());
        }
    }

    /**
     * Whether {@code --bind-to core} puts the peer with {@code env}'s bind index on the processor of
     * another of {@code indices} (the bind indices of the peers this io-manager starts bound).
     */
    static boolean shared(Map<String, String> env, java.util.Collection<Integer> indices) throws IOException {
        int index = bindIndex(env, "core");
        int n = usable(allowedCpus(), online()).cardinality(); // index i binds to the (i mod n)-th
        for (int other : indices) {
            if (other != index && Math.floorMod(other, n) == Math.floorMod(index, n)) {
                return true;
            }
        }
        return false;
    }

    private static int bindIndex(Map<String, String> env, String mode) throws IOException {
        try {
            return Integer.parseInt(env.getOrDefault(JobEnvironment.BIND_INDEX, ""));
        } catch (NumberFormatException e) {
            throw new IOException("--bind-to " + mode + " needs the peer's " + JobEnvironment.BIND_INDEX + ", which is not set");
        }
    }

    /**
     * Each of {@code peers} peers' processors, by bind index, among {@code cpus}: where there are at
     * least as many processors as peers, consecutive blocks of equal size (the first ones one larger
     * where they do not divide evenly); otherwise one each, in turn. Null if {@code cpus} is empty.
     */
    static BitSet[] split(int peers, BitSet cpus) {
        int n = cpus.cardinality();
        if (n == 0 || peers <= 0) {
            return null;
        }
        int[] order = cpus.stream().toArray();
        BitSet[] plan = new BitSet[peers];
        int next = 0;
        for (int i = 0; i < peers; i++) {
            plan[i] = new BitSet();
            if (peers > n) {
                plan[i].set(order[i % n]);
                continue;
            }
            int size = n / peers + (i < n % peers ? 1 : 0);
            for (int k = 0; k < size; k++) {
                plan[i].set(order[next++]);
            }
        }
        return plan;
    }

    /**
     * {@code --bind-to auto} for one io-manager's launch: the processors it claimed and how they are
     * split among its peers, or nothing (every peer unbound). Closing it gives the claims up.
     */
    static final class Auto implements AutoCloseable {
        private final String taskset;
        private final CpuClaims claims;
        private final BitSet[] plan;

        private Auto(String taskset, CpuClaims claims, BitSet[] plan) {
            this.taskset = taskset;
            this.claims = claims;
            this.plan = plan;
        }

        /**
         * Claims this process's allowed processors that other jobs have not (in {@code directory})
         * and splits them among {@code peers} peers. Unbound where taskset or /proc is missing or
         * nothing could be claimed.
         */
        static Auto claim(int peers, Path directory) {
            String taskset = onPath(TASKSET);
            BitSet allowed;
            try {
                allowed = taskset == null ? null : MachineMap.cpuSet(allowedCpus());
            } catch (IOException e) {
                allowed = null;
            }
            if (allowed != null) {
                BitSet online = online();
                if (online != null) {
                    allowed.and(online); // the mask may name processors that are possible but offline
                }
            }
            if (allowed == null || allowed.isEmpty()) {
                return new Auto(null, null, null);
            }
            CpuClaims claims = CpuClaims.claim(allowed, directory);
            // Fewer than the peers could have (other jobs hold the rest): crowding them onto those
            // would be worse than letting the scheduler spread them.
            BitSet[] plan = claims.cpus().cardinality() < Math.min(peers, allowed.cardinality()) ? null
                    : split(peers, claims.cpus());
            if (plan == null) {
                claims.close();
                return new Auto(null, null, null);
            }
            return new Auto(taskset, claims, plan);
        }

        /** The words before the command of the peer with {@code env}'s bind index; empty if unbound. */
        List<String> prefix(Map<String, String> env) throws IOException {
            if (plan == null) {
                return List.of();
            }
            int index = bindIndex(env, "auto");
            return List.of(taskset, "-c", MachineMap.cpuList(plan[Math.floorMod(index, plan.length)]));
        }

        /** Whether the peer with {@code env}'s bind index shares a processor with another of these peers. */
        boolean shared(Map<String, String> env) throws IOException {
            if (plan == null) {
                return false;
            }
            int own = Math.floorMod(bindIndex(env, "auto"), plan.length);
            for (int i = 0; i < plan.length; i++) {
                if (i != own && plan[i].intersects(plan[own])) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void close() {
            if (claims != null) {
                claims.close();
            }
        }
    }

    /** The processors Linux has online, or null if it does not say. */
    private static BitSet online() {
        try {
            return MachineMap.cpuSet(Files.readString(ONLINE, StandardCharsets.US_ASCII).trim());
        } catch (IOException | RuntimeException e) {
            return null;
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

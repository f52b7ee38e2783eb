package io.cohort.systest;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A cluster in a box for a test: {@code scripts/cluster-in-a-box} driven from Java. N hosts
 * (network namespaces on one bridge), each with a name and an address; commands run inside a host;
 * inbound loss set and changed per host. Always removed again: by {@link #close} (try-with-resources,
 * or the {@link Extension}'s after-all, which JUnit runs after failed tests too), by a JVM shutdown
 * hook if the tests never got there, and, if this JVM was killed outright, by the next box's
 * {@code reap}, which removes boxes whose owner process is gone.
 *
 * <pre>
 *  &#64;RegisterExtension
 *  static final ClusterInABox.Extension BOX = new ClusterInABox.Extension(3);
 *  ... BOX.box().host(1).name() ...
 * </pre>
 *
 * Where the machine cannot make a box (not root, no {@code ip netns}, no nft), tests that need one
 * are skipped with one line saying why ({@link #assumeAvailable}).
 */
final class ClusterInABox implements AutoCloseable {
    static final Path SCRIPT = CohortProcess.ROOT.resolve("scripts/cluster-in-a-box");
    /** Set to {@code off} to skip the box tests on a machine that could run them. */
    static final String SWITCH_ENV_NAME = "COHORT_CLUSTER_IN_A_BOX";
    private static final Duration SCRIPT_TIME_LIMIT = Duration.ofSeconds(60);
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz";
    private static volatile String unavailable;
    private static volatile boolean checked;

    /** One host of the box. */
    record Host(String name, String address) {
    }

    /** What a command printed and how it ended. */
    record Result(int code, String out, String err) {
        @Override
        public String toString() {
            return "exit " + code + "\nstdout: " + out + "\nstderr: " + err;
        }
    }

    private final String prefix;
    private final String bridgeAddress;
    private final List<Host> hosts;
    private final Thread hook;
    private boolean closed;

    private ClusterInABox(String prefix, String bridgeAddress, List<Host> hosts, Thread hook) {
        this.prefix = prefix;
        this.bridgeAddress = bridgeAddress;
        this.hosts = List.copyOf(hosts);
        this.hook = hook;
    }

    /**
     * Why this machine cannot make a box, or null if it can: the script's {@code check --loss}
     * (root, ip, nft, flock, a throwaway namespace and bridge), unless {@value #SWITCH_ENV_NAME}=off.
     */
    static synchronized String unavailableReason() {
        if (!checked) {
            checked = true;
            if ("off".equalsIgnoreCase(System.getenv(SWITCH_ENV_NAME))) {
                unavailable = "switched off by " + SWITCH_ENV_NAME + "=off";
            } else if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
                unavailable = "network namespaces need Linux";
            } else if (!Files.isExecutable(SCRIPT)) {
                unavailable = SCRIPT + " is missing or not executable";
            } else {
                try {
                    Result r = run(List.of(SCRIPT.toString(), "check", "--loss"));
                    if (r.code() != 0) {
                        String line = r.err().strip();
                        unavailable = line.isEmpty() ? "'cluster-in-a-box check' exited with " + r.code()
                                : line.replaceFirst("^cluster-in-a-box: ", "");
                    }
                } catch (IOException e) {
                    unavailable = "cannot run " + SCRIPT + ": " + e.getMessage();
                }
            }
            if (unavailable != null) {
                System.out.println("cluster-in-a-box tests skipped: " + unavailable);
            }
        }
        return unavailable;
    }

    /** Skips the calling test (or class) with one line when the machine cannot make a box. */
    static void assumeAvailable() {
        String why = unavailableReason();
        Assumptions.assumeTrue(why == null, () -> "cluster-in-a-box tests skipped: " + why);
    }

    /** Skips unless {@code command} is on the PATH; the line names the Debian package that has it. */
    static void assumeCommand(String command, String debianPackage) {
        boolean found = false;
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                found = true;
                break;
            }
        }
        if (!found) {
            System.out.println("cluster-in-a-box test skipped: '" + command + "' is missing (apt-get install " + debianPackage + ")");
        }
        Assumptions.assumeTrue(found, () -> "'" + command + "' is missing (apt-get install " + debianPackage + ")");
    }

    /** A fresh, unique box name: "cb" and seven random letters (the script allows 10 characters). */
    static String uniquePrefix() {
        SecureRandom random = new SecureRandom();
        StringBuilder b = new StringBuilder("cb");
        for (int i = 0; i < 7; i++) {
            b.append(LETTERS.charAt(random.nextInt(LETTERS.length())));
        }
        return b.toString();
    }

    /** Brings up {@code n} hosts with {@code lossPercent} inbound loss each (0: none). */
    static ClusterInABox up(int n, double lossPercent) throws IOException {
        return up(uniquePrefix(), n, lossPercent);
    }

    /** As above; {@code options} go to 'up' too (e.g. "--rate", "20mbit"). */
    static ClusterInABox up(String prefix, int n, double lossPercent, String... options) throws IOException {
        run(List.of(SCRIPT.toString(), "reap")); // boxes of test runs that were killed outright
        Thread hook = new Thread(() -> downQuietly(prefix), "cluster-in-a-box-down-" + prefix);
        Runtime.getRuntime().addShutdownHook(hook);
        Result r;
        try {
            List<String> command = new ArrayList<>(List.of(SCRIPT.toString(), "up", Integer.toString(n), "--name", prefix,
                    "--loss", percent(lossPercent), "--owner", Long.toString(ProcessHandle.current().pid())));
            command.addAll(List.of(options));
            r = run(command);
        } catch (IOException | RuntimeException e) {
            downQuietly(prefix);
            removeHook(hook);
            throw e;
        }
        if (r.code() != 0) {
            downQuietly(prefix);
            removeHook(hook);
            throw new IOException("cluster-in-a-box up " + n + " failed: " + r);
        }
        String bridge = null;
        List<Host> hosts = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            String[] w = line.trim().split("\\s+");
            if (w.length >= 5 && w[0].equals("box")) {
                bridge = w[4].replaceFirst("/.*", "");
            } else if (w.length >= 3 && w[0].equals("host")) {
                hosts.add(new Host(w[1], w[2]));
            }
        }
        if (bridge == null || hosts.size() != n) {
            downQuietly(prefix);
            removeHook(hook);
            throw new IOException("cluster-in-a-box up " + n + " printed an unexpected box: " + r.out());
        }
        return new ClusterInABox(prefix, bridge, hosts, hook);
    }

    String prefix() {
        return prefix;
    }

    /** The root namespace's address on the bridge: where a launcher here is reached from the hosts. */
    String bridgeAddress() {
        return bridgeAddress;
    }

    /** The subnet's broadcast address (the box is always a /24). */
    String broadcastAddress() {
        return bridgeAddress.substring(0, bridgeAddress.lastIndexOf('.')) + ".255";
    }

    List<Host> hosts() {
        return hosts;
    }

    /** Host {@code i}, counting from 1 as the names do. */
    Host host(int i) {
        return hosts.get(i - 1);
    }

    /** "h1,h2,h3" for --hosts, of the first {@code count} hosts. */
    String hostList(int count) {
        return String.join(",", hosts.subList(0, count).stream().map(Host::name).toList());
    }

    /** Runs a command inside a host and waits for it (at most a minute). */
    Result exec(Host host, String... command) throws IOException {
        return run(inHost(host, command));
    }

    /** Starts a command inside a host; the caller owns the process. */
    Process start(Host host, String... command) throws IOException {
        return new ProcessBuilder(inHost(host, command)).start();
    }

    private static List<String> inHost(Host host, String... command) {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", host.name()));
        c.addAll(List.of(command));
        return c;
    }

    /** Sets the inbound loss of the given hosts (all if none), in percent; 0 removes it. */
    void loss(double percent, Host... which) throws IOException {
        List<String> c = new ArrayList<>(List.of(SCRIPT.toString(), "loss", percent(percent), "--name", prefix));
        for (Host h : which) {
            c.add(h.name());
        }
        Result r = run(c);
        if (r.code() != 0) {
            throw new IOException("cluster-in-a-box loss failed: " + r);
        }
    }

    /** Packets the loss rule of {@code host} has dropped so far (0 without a loss rule). */
    long dropped(Host host) throws IOException {
        Result r = exec(host, "nft", "list", "table", "inet", "cohort_loss");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("counter packets (\\d+)").matcher(r.out());
        return r.code() == 0 && m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** The box's status lines from the script. */
    String status() throws IOException {
        return run(List.of(SCRIPT.toString(), "status", "--name", prefix)).out();
    }

    /** Process ids still running inside any host of the box. */
    List<Long> processesInHosts() throws IOException {
        List<Long> pids = new ArrayList<>();
        for (Host h : hosts) {
            Result r = run(List.of("ip", "netns", "pids", h.name()));
            for (String line : r.out().split("\n")) {
                if (!line.isBlank()) {
                    pids.add(Long.parseLong(line.trim()));
                }
            }
        }
        return pids;
    }

    /** Waits until no process runs in any host; true if none is left. */
    boolean awaitNoProcessesInHosts(Duration within) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!processesInHosts().isEmpty()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(50); // polling the process table: there is no event for "all gone"
        }
        return true;
    }

    /** What is left on this machine of box {@code prefix}: namespaces and links named after it. */
    static List<String> leftovers(String prefix) throws IOException {
        List<String> left = new ArrayList<>();
        for (String line : run(List.of("ip", "netns", "list")).out().split("\n")) {
            String name = line.trim().split("\\s+")[0];
            if (name.matches(java.util.regex.Pattern.quote(prefix) + "[0-9]+")) {
                left.add("namespace " + name);
            }
        }
        for (String line : run(List.of("ip", "-o", "link", "show")).out().split("\n")) {
            String[] w = line.split(":\\s+");
            if (w.length > 1 && w[1].startsWith(prefix + "-")) {
                left.add("link " + w[1].replaceFirst("@.*", ""));
            }
        }
        return left;
    }

    /** Removes the box (idempotent). */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Result r = run(List.of(SCRIPT.toString(), "down", "--name", prefix));
            if (r.code() != 0) {
                throw new IOException("cluster-in-a-box down failed: " + r);
            }
        } finally {
            removeHook(hook);
        }
    }

    private static void downQuietly(String prefix) {
        try {
            run(List.of(SCRIPT.toString(), "down", "--name", prefix));
        } catch (IOException | RuntimeException ignored) {
            // Last resort; the next box's reap takes what is left.
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
            // The JVM is shutting down: the hook is running or has run.
        }
    }

    private static String percent(double p) {
        return String.format(Locale.ROOT, "%.2f", p);
    }

    /** Runs a command to its end (at most a minute), collecting both streams. */
    static Result run(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        CompletableFuture<String> out = drain(p.getInputStream());
        CompletableFuture<String> err = drain(p.getErrorStream());
        try {
            if (!p.waitFor(SCRIPT_TIME_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within " + SCRIPT_TIME_LIMIT.toSeconds() + " s");
            }
            return new Result(p.exitValue(), out.get(), err.get());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + String.join(" ", command), e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException(e.getCause());
        }
    }

    /** Reads a stream to its end on a thread of its own (the common pool may have one thread on two cores). */
    private static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (in) {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                in.transferTo(b);
                f.complete(b.toString(StandardCharsets.UTF_8));
            } catch (IOException e) {
                f.complete("");
            }
        }, "cluster-in-a-box-drain");
        t.setDaemon(true);
        t.start();
        return f;
    }

    /**
     * One box per test class: up before the first test (skipping the class with one line where the
     * machine cannot), down after the last, whatever the tests did.
     */
    static final class Extension implements ExecutionCondition, BeforeAllCallback, AfterAllCallback {
        private final int hosts;
        private final double lossPercent;
        private ClusterInABox box;

        Extension(int hosts) {
            this(hosts, 0);
        }

        Extension(int hosts, double lossPercent) {
            this.hosts = hosts;
            this.lossPercent = lossPercent;
        }

        ClusterInABox box() {
            if (box == null) {
                throw new IllegalStateException("the box is not up (the extension must be a static @RegisterExtension field)");
            }
            return box;
        }

        /** The whole class is skipped, with the reason, where the machine cannot make a box. */
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            String why = unavailableReason();
            return why == null ? ConditionEvaluationResult.enabled("this machine can make a cluster in a box")
                    : ConditionEvaluationResult.disabled("cluster-in-a-box tests skipped: " + why);
        }

        @Override
        public void beforeAll(ExtensionContext context) throws IOException {
            assumeAvailable();
            box = up(hosts, lossPercent);
        }

        @Override
        public void afterAll(ExtensionContext context) throws IOException {
            if (box != null) {
                try {
                    box.close();
                } finally {
                    box = null;
                }
            }
        }
    }
}

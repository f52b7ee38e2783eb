package io.cohort.systest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real {@code cohort} command running as a child process (the dist's lib/* classpath, as the
 * ./cohort script runs it), with its stdout and stderr collected line by line. Tests wait on
 * lines and on exit, never on time.
 */
final class CohortProcess implements AutoCloseable {
    static final Path MODULE = Path.of("").toAbsolutePath();
    static final Path ROOT = MODULE.getParent();
    static final Path HOME = ROOT.resolve("cohort-dist/target/cohort");
    static final Path LIB = HOME.resolve("lib");
    static final String TEST_CLASSES = MODULE.resolve("target/test-classes").toString();

    private final Process process;
    private final List<String> out = new ArrayList<>();
    private final List<String> err = new ArrayList<>();
    private final Thread outReader;
    private final Thread errReader;

    private CohortProcess(Process process) {
        this.process = process;
        this.outReader = reader(process.getInputStream(), out);
        this.errReader = reader(process.getErrorStream(), err);
    }

    static void requireDist() {
        if (!Files.isRegularFile(LIB.resolve("cohort-cli.jar"))) {
            throw new IllegalStateException("the distribution is not built (" + LIB + "); run 'mvn verify' from the root");
        }
    }

    /** Starts {@code cohort ARGS...} with extra environment variables. */
    static CohortProcess start(Map<String, String> env, String... args) throws IOException {
        return startUnder(List.of(), env, args);
    }

    /** Starts {@code PREFIX... cohort ARGS...} (e.g. {@code taskset -c 0}) with extra environment variables. */
    static CohortProcess startUnder(List<String> prefix, Map<String, String> env, String... args) throws IOException {
        ProcessBuilder pb = builder(args);
        pb.command().addAll(0, prefix);
        pb.environment().putAll(env);
        return new CohortProcess(pb.start());
    }

    /**
     * The {@code cohort ARGS...} command, ready to start, for a test that must own the process's
     * streams (one nobody reads, say); the others start it through this class.
     */
    static ProcessBuilder builder(String... args) throws IOException {
        requireDist();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Dcohort.home=" + HOME,
                "-cp", LIB + "/*", "io.cohort.cli.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(MODULE.toFile());
        pb.environment().put("XDG_RUNTIME_DIR", testRuntimeDir().toString());
        return pb;
    }

    /** Starts any command (e.g. {@code ip netns exec HOST .../bin/cohortd ...}), collecting its output the same way. */
    static CohortProcess startCommand(List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(MODULE.toFile());
        pb.environment().put("XDG_RUNTIME_DIR", testRuntimeDir().toString());
        pb.environment().putAll(env);
        return new CohortProcess(pb.start());
    }

    static CohortProcess start(String... args) throws IOException {
        return start(Map.of(), args);
    }

    private static Path runtimeDir;

    /**
     * A private runtime directory for the launchers these tests start, so that the job registry of
     * {@code cohort stacks} never touches the user's real one: the tests SIGKILL launchers, whose
     * registry files would be left behind. Removed when the test JVM ends.
     */
    static synchronized Path testRuntimeDir() throws IOException {
        if (runtimeDir == null) {
            Path dir = Files.createTempDirectory("cohort-systest-run",
                    java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                            java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
                    all.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                } catch (IOException ignored) {
                    // Best effort at exit.
                }
            }));
            runtimeDir = dir;
        }
        return runtimeDir;
    }

    /** Runs to the end with an empty, closed stdin. */
    static CohortProcess run(String... args) throws IOException, InterruptedException {
        CohortProcess p = start(args);
        p.closeStdin();
        p.waitFor();
        return p;
    }

    private static Thread reader(InputStream in, List<String> lines) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String l;
                while ((l = r.readLine()) != null) {
                    synchronized (lines) {
                        lines.add(l);
                        lines.notifyAll();
                    }
                }
            } catch (IOException ignored) {
                // Process gone.
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    Process process() {
        return process;
    }

    OutputStream stdin() {
        return process.getOutputStream();
    }

    void closeStdin() throws IOException {
        process.getOutputStream().close();
    }

    /** Waits for exit and for both streams to be read to their end; returns the exit code. */
    int waitFor() throws InterruptedException {
        int code = process.waitFor();
        outReader.join();
        errReader.join();
        return code;
    }

    int exitCode() {
        return process.exitValue();
    }

    List<String> out() {
        synchronized (out) {
            return List.copyOf(out);
        }
    }

    List<String> err() {
        synchronized (err) {
            return List.copyOf(err);
        }
    }

    /** Blocks until {@code count} stdout lines match (true), or the process ended first (false). */
    boolean awaitOut(Predicate<String> match, int count) throws InterruptedException {
        return await(out, match, count);
    }

    boolean awaitErr(Predicate<String> match, int count) throws InterruptedException {
        return await(err, match, count);
    }

    private boolean await(List<String> lines, Predicate<String> match, int count) throws InterruptedException {
        synchronized (lines) {
            for (;;) {
                if (lines.stream().filter(match).count() >= count) {
                    return true;
                }
                if (!process.isAlive() && !(lines == out ? outReader : errReader).isAlive()) {
                    return false;
                }
                lines.wait(100); // woken by each new line; the timeout only notices the reader's end
            }
        }
    }

    /** Waits until no live process has a command line containing {@code marker}; true if none is left. */
    static boolean awaitNoProcessWith(String marker, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            if (processesWith(marker).isEmpty()) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(50); // polling the process table: there is no event for "all gone"
        }
        return processesWith(marker).isEmpty();
    }

    /**
     * The io-managers of the peers whose command lines carry {@code marker}: their parents. (An
     * io-manager started before the launcher parsed its command line gets its job on standard
     * input, so its own command line does not name the job.)
     */
    static List<ProcessHandle> ioManagersOf(String marker) {
        return processesWith(marker).stream()
                .filter(h -> h.info().commandLine().orElse("").contains("PeerMain"))
                .map(h -> h.parent().orElse(null))
                .filter(h -> h != null && h.info().commandLine().orElse("").contains("IoManagerMain"))
                .distinct()
                .toList();
    }

    static boolean awaitGone(List<ProcessHandle> processes, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            if (processes.stream().noneMatch(ProcessHandle::isAlive)) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(50); // polling the process table: there is no event for "all gone"
        }
        return processes.stream().noneMatch(ProcessHandle::isAlive);
    }

    static List<ProcessHandle> processesWith(String marker) {
        long self = ProcessHandle.current().pid();
        return ProcessHandle.allProcesses()
                .filter(p -> p.pid() != self && p.isAlive())
                .filter(p -> p.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .toList();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    @Override
    public String toString() {
        return "exit " + (process.isAlive() ? "(running)" : process.exitValue()) + "\nstdout: " + out() + "\nstderr: " + err();
    }
}

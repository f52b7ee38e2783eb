package io.cohort.daemon;

import io.cohort.cluster.SchedulingPolicy;
import io.cohort.cluster.SchedulingRequest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Applies a {@link SchedulingRequest} to a process on this machine: every thread (task) of it gets the
 * policy and nice value or real-time priority, so that threads the JVM creates later inherit it from
 * their creators. Linux keeps these per thread, which is why all of {@code /proc/PID/task} is changed,
 * not only the main thread.
 *
 * <p>The daemon runs it because lowering a nice value or granting {@code SCHED_FIFO} needs privilege
 * (CAP_SYS_NICE) the user's peers do not have (PSE: "to allow nonroot UID processes to elevate scheduling
 * priorities ... farmd modifies the user process's scheduling priority or policy"). The work is done by
 * util-linux's {@code chrt} and {@code renice}, as the JDK has no call for it. Called by the daemon's
 * request threads; stateless.
 */
public final class ProcessScheduler {
    private ProcessScheduler() {
    }

    /** What /proc says about one thread: its policy ({@code 0} other, {@code 1} fifo), nice and real-time priority. */
    public record ThreadScheduling(int policy, int nice, int rtPriority) {
    }

    /**
     * Applies {@code request} to every thread of process {@code pid}.
     *
     * @throws IOException with one sentence when the process is gone or the change was refused
     */
    public static void apply(long pid, SchedulingRequest request) throws IOException {
        List<String> tids = tasks(pid);
        if (request.policy() == SchedulingPolicy.FIFO) {
            run(List.of("chrt", "--all-tasks", "--fifo", "--pid", Integer.toString(request.rtPriority()), Long.toString(pid)));
            return;
        }
        // Back to the time-sharing policy first (a no-op when it already is), then the nice value per thread.
        run(List.of("chrt", "--all-tasks", "--other", "--pid", "0", Long.toString(pid)));
        for (int attempt = 1; ; attempt++) {
            List<String> cmd = new ArrayList<>(List.of("renice", "-n", Integer.toString(request.nice()), "-p"));
            cmd.addAll(tids);
            try {
                run(cmd);
                return;
            } catch (IOException e) {
                // A thread that ended between the listing and renice fails the call; list again.
                if (attempt == 3 || !e.getMessage().contains("No such process")) {
                    throw e;
                }
                tids = tasks(pid);
            }
        }
    }

    /** The thread ids of {@code pid}. */
    static List<String> tasks(long pid) throws IOException {
        List<String> tids = new ArrayList<>();
        try (DirectoryStream<Path> d = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : d) {
                tids.add(t.getFileName().toString());
            }
        } catch (NoSuchFileException e) {
            throw new IOException("process " + pid + " does not exist");
        }
        if (tids.isEmpty()) {
            throw new IOException("process " + pid + " has no threads left");
        }
        return tids;
    }

    /** Reads one thread's scheduling from {@code /proc/PID/task/TID/stat} (fields 19, 40 and 41). */
    public static ThreadScheduling read(long pid, String tid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "task", tid, "stat"), StandardCharsets.US_ASCII);
        // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return new ThreadScheduling(Integer.parseInt(f[41 - 3]), Integer.parseInt(f[19 - 3]), Integer.parseInt(f[40 - 3]));
    }

    /** Every thread's scheduling of {@code pid}. */
    public static List<ThreadScheduling> readAll(long pid) throws IOException {
        List<ThreadScheduling> out = new ArrayList<>();
        for (String tid : tasks(pid)) {
            try {
                out.add(read(pid, tid));
            } catch (NoSuchFileException e) {
                // The thread ended meanwhile.
            }
        }
        return out;
    }

    private static void run(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(command.get(0) + " did not finish in 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command.get(0));
        }
        if (p.exitValue() != 0) {
            String first = out.isEmpty() ? "exit " + p.exitValue() : out.lines().findFirst().orElse("");
            throw new IOException(command.get(0) + " refused: " + first);
        }
    }
}

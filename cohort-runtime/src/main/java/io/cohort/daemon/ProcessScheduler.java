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
        apply(pid, startTime(pid), request);
    }

    /**
     * As {@link #apply(long, SchedulingRequest)}, for the process that started at {@code startTime}
     * ({@link #startTime}): if {@code pid} now names another process (the one checked ended and its pid
     * was reused), nothing is changed.
     */
    public static void apply(long pid, String startTime, SchedulingRequest request) throws IOException {
        // A JVM starts threads all the time early on; a thread started between listing the tasks and
        // changing them inherits the old setting from its creator. So: change, read back, repeat for
        // the threads that still differ, until none does.
        ThreadScheduling target = request.policy() == SchedulingPolicy.FIFO
                ? new ThreadScheduling(1, -1, request.rtPriority()) : new ThreadScheduling(0, request.nice(), 0);
        for (int round = 1; ; round++) {
            if (!startTime.equals(startTime(pid))) {
                throw new IOException("process " + pid + " is no longer the one that was checked");
            }
            List<String> stale = new ArrayList<>();
            for (String tid : tasks(pid)) {
                try {
                    ThreadScheduling now = read(pid, tid);
                    boolean matches = now.policy() == target.policy() && now.rtPriority() == target.rtPriority()
                            && (target.policy() == 1 || now.nice() == target.nice());
                    if (!matches) {
                        stale.add(tid);
                    }
                } catch (NoSuchFileException e) {
                    // The thread ended meanwhile.
                }
            }
            if (stale.isEmpty()) {
                return;
            }
            if (round == 5) {
                throw new IOException(stale.size() + " of its threads kept their scheduling after 4 attempts");
            }
            change(pid, stale, request);
        }
    }

    private static void change(long pid, List<String> tids, SchedulingRequest request) throws IOException {
        if (request.policy() == SchedulingPolicy.FIFO) {
            run(List.of("chrt", "--all-tasks", "--fifo", "--pid", Integer.toString(request.rtPriority()), Long.toString(pid)), true);
            return;
        }
        // Back to the time-sharing policy first (a no-op when it already is), then the nice value per thread.
        run(List.of("chrt", "--all-tasks", "--other", "--pid", "0", Long.toString(pid)), true);
        List<String> cmd = new ArrayList<>(List.of("renice", "--priority", Integer.toString(request.nice()), "--pid"));
        cmd.addAll(tids);
        run(cmd, true);
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

    /** The start time of process {@code pid} (field 22 of /proc/PID/stat, in clock ticks since boot). */
    public static String startTime(long pid) throws IOException {
        try {
            return statField(Path.of("/proc", Long.toString(pid), "stat"), 22);
        } catch (NoSuchFileException e) {
            throw new IOException("process " + pid + " does not exist");
        }
    }

    /** Reads one thread's scheduling from {@code /proc/PID/task/TID/stat} (fields 19, 40 and 41). */
    public static ThreadScheduling read(long pid, String tid) throws IOException {
        String[] f = statFields(Path.of("/proc", Long.toString(pid), "task", tid, "stat"));
        return new ThreadScheduling(Integer.parseInt(f[41 - 3]), Integer.parseInt(f[19 - 3]), Integer.parseInt(f[40 - 3]));
    }

    private static String statField(Path stat, int field) throws IOException {
        return statFields(stat)[field - 3];
    }

    /** The fields of a {@code stat} file from field 3 on (index 0 is field 3). */
    private static String[] statFields(Path stat) throws IOException {
        String s = Files.readString(stat, StandardCharsets.US_ASCII);
        // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
        return s.substring(s.lastIndexOf(')') + 2).trim().split(" ");
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

    /** Runs a command; with {@code vanishingOk}, a thread that ended meanwhile ("No such process") is no error. */
    private static void run(List<String> command, boolean vanishingOk) throws IOException {
        try {
            io.cohort.cluster.Commands.output(command);
        } catch (IOException e) {
            // The read-back loop checks the threads that are still there.
            if (!(vanishingOk && e.getMessage().contains("No such process"))) {
                throw e;
            }
        }
    }
}

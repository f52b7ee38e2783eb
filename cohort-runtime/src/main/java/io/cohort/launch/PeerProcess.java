package io.cohort.launch;

import io.cohort.wireup.JobEnvironment;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One peer JVM started by the io-manager, in its own session and process group ({@code setsid}
 * without forking, so its pid is its process-group id and a TERM to the group reaches anything it
 * started too), continued by the kernel should the io-manager die ({@link ParentDeath}). Two pump
 * threads split its stdout and stderr into lines; a third writes its stdin
 * so that a peer that does not read cannot block the io-manager.
 */
final class PeerProcess {
    /** Receives the peer's output lines and, after both streams ended, its exit. Called from pump threads. */
    interface Listener {
        void output(int rank, int stream, byte[] line);

        void exited(int rank, int status, boolean stoppedByManager);

        /** {@code bytes} given to {@link #writeStdin} have left: written to the peer, or dropped since it stopped reading. */
        void stdinTaken(int rank, int bytes);
    }

    static final int STDOUT = 1;
    static final int STDERR = 2;
    /** How long what a peer left running in its process group has, after a TERM, before a KILL. */
    static final long LEFTOVER_GRACE_MILLIS = 2000;
    private static final byte[] CLOSE = new byte[0];

    final int rank;
    private final Process process;
    private final BlockingQueue<byte[]> stdin = new LinkedBlockingQueue<>();
    private volatile boolean stoppedByManager;
    private volatile Listener listener;
    private Thread stdinWriter;

    private PeerProcess(int rank, Process process) {
        this.rank = rank;
        this.process = process;
    }

    static PeerProcess start(int rank, List<String> command, Map<String, String> env, File cwd) throws IOException {
        List<String> argv = new ArrayList<>(command.size() + 5);
        argv.add(LocalLaunchAgent.SETSID);
        argv.addAll(ParentDeath.prefix());
        argv.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd);
        pb.environment().keySet().removeAll(JobEnvironment.SET_BY_LAUNCHER);
        pb.environment().putAll(env);
        return new PeerProcess(rank, pb.start());
    }

    long pid() {
        return process.pid();
    }

    /**
     * What makes the kernel continue a peer when its io-manager dies: {@code setpriv --pdeathsig CONT}.
     * A peer stopped with its job (Ctrl-Z) cannot notice that its io-manager is gone; continued, its
     * parent watch sees that and ends it. A spurious SIGCONT to a running peer does nothing. The
     * signal is tied to the thread that starts the peer: the io-manager's control thread, which
     * ends only when the controller is lost and the peers are being ended anyway. Empty where setpriv
     * is missing or too old (before util-linux 2.33): such a host keeps the old behaviour.
     */
    static final class ParentDeath {
        private static final List<String> PREFIX = probe(System.getenv("PATH"));

        private ParentDeath() {
        }

        /** The prefix; the first call (class initialisation) runs the probe, any others wait for it. */
        static List<String> prefix() {
            return PREFIX;
        }

        /** The prefix with the setpriv found on {@code path}, if that one takes --pdeathsig; else empty. */
        static List<String> probe(String path) {
            String setpriv = CoreBinding.onPath("setpriv", path);
            if (setpriv == null) {
                return List.of();
            }
            try {
                // Options are checked as they are read: an old setpriv refuses --pdeathsig before --version.
                Process p = new ProcessBuilder(setpriv, "--pdeathsig", "CONT", "--version").redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return List.of(setpriv, "--pdeathsig", "CONT", "--");
                }
                p.destroyForcibly();
            } catch (IOException e) {
                // Not runnable after all.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return List.of();
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Starts the pumps; {@code listener.exited} follows the last output line. */
    void pump(Listener listener) {
        this.listener = listener;
        Thread out = pumpThread(process.getInputStream(), STDOUT, listener);
        Thread err = pumpThread(process.getErrorStream(), STDERR, listener);
        Thread reaper = new Thread(() -> {
            int status = awaitExit();
            endLeftovers(out, err);
            join(out);
            join(err);
            listener.exited(rank, status, stoppedByManager);
        }, "cohort-iom-exit-" + rank);
        reaper.setDaemon(true);
        out.start();
        err.start();
        reaper.start();
    }

    private Thread pumpThread(InputStream in, int stream, Listener listener) {
        Pump pump = new Pump(new LineSplitter(line -> listener.output(rank, stream, line)));
        Thread t = new Thread(() -> {
            pump.tid = ownTid();
            byte[] buf = new byte[64 * 1024];
            try (in) {
                int n;
                for (;;) {
                    pump.reading(true);
                    n = in.read(buf);
                    pump.reading(false);
                    if (n <= 0) {
                        break;
                    }
                    pump.feed(buf, n);
                }
            } catch (IOException e) {
                // The pipe broke: the peer is gone; what we have is flushed below.
            }
            pump.finish();
        }, "cohort-iom-" + (stream == STDOUT ? "out-" : "err-") + rank);
        t.setDaemon(true);
        return t;
    }

    /** The calling thread's Linux thread id (from /proc/thread-self), or -1 where there is none. */
    static int ownTid() {
        try {
            return Integer.parseInt(java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/thread-self")).getFileName().toString());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Whether thread {@code tid} of this process sleeps in the kernel (state S or D: waiting in a read,
     * not runnable); true where /proc cannot tell, which keeps the time alone as the test.
     */
    static boolean sleepsInKernel(int tid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/task/" + tid + "/stat"));
            int end = stat.lastIndexOf(')'); // after the command name, which may hold spaces and parentheses
            char state = end >= 0 && end + 2 < stat.length() ? stat.charAt(end + 2) : 'S';
            return state == 'S' || state == 'D';
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /**
     * How long a peer's unfinished line waits for its end before it is forwarded as it stands: a prompt
     * ("Enter a number: ") reaches the user although no newline follows it.
     */
    static final long UNFINISHED_LINE_MILLIS = 50;

    /** Runs the checks of unfinished lines for all the peers of this io-manager. */
    private static final java.util.concurrent.ScheduledExecutorService UNFINISHED_LINES =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "cohort-iom-unfinished-lines");
                t.setDaemon(true);
                return t;
            });

    /**
     * One stream's splitter, fed by its pump thread; an unfinished line that nothing followed for
     * {@link #UNFINISHED_LINE_MILLIS} is forwarded by the scheduler thread. The splitter is used
     * under this object's lock, so the pieces of a stream stay in order.
     */
    private static final class Pump {
        private final LineSplitter splitter;
        private boolean checkScheduled;
        /**
         * Whether the pump thread waits in the pipe's read, and since when. A line counts as
         * unfinished only once the pipe has been empty that long: a pump thread that has not got
         * back to its read (a busy machine, a 64 KiB read that ended mid-line) may have the line's
         * end waiting in the pipe.
         */
        private volatile boolean reading;
        private volatile long readingSinceNanos;
        /** The pump thread's Linux thread id, or -1: whether it truly sleeps in its read can be looked up. */
        volatile int tid = -1;

        Pump(LineSplitter splitter) {
            this.splitter = splitter;
        }

        synchronized void feed(byte[] buf, int n) {
            try {
                splitter.feed(buf, 0, n);
            } catch (IOException ignored) {
                // The listener does not throw; the splitter's signature allows it.
            }
            if (splitter.pending() && !checkScheduled) {
                checkScheduled = true;
                UNFINISHED_LINES.schedule(this::check, UNFINISHED_LINE_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
            }
        }

        /** Called by the pump thread around each read of the pipe. */
        void reading(boolean now) {
            if (now) {
                readingSinceNanos = System.nanoTime();
            }
            reading = now;
        }

        private synchronized void check() {
            checkScheduled = false;
            if (!splitter.pending()) {
                return;
            }
            long now = System.nanoTime();
            long quietSince = reading ? readingSinceNanos : now;
            long wait = quietSince + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(UNFINISHED_LINE_MILLIS) - now;
            if (wait <= 0 && reading && tid > 0 && !sleepsInKernel(tid)) {
                // Said it would read, but is runnable, not asleep in the read: descheduled on a busy
                // machine before its read, the line's end may be in the pipe. Look again shortly.
                wait = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(10);
            }
            if (wait > 0) {
                checkScheduled = true; // the pipe has not been empty that long: the line may yet end
                UNFINISHED_LINES.schedule(this::check, wait, java.util.concurrent.TimeUnit.NANOSECONDS);
            } else {
                finish();
            }
        }

        synchronized void finish() {
            try {
                splitter.finish();
            } catch (IOException ignored) {
                // As above.
            }
        }
    }

    private int awaitExit() {
        for (;;) {
            try {
                return process.waitFor();
            } catch (InterruptedException e) {
                // Only exit matters here; keep waiting.
            }
        }
    }

    private static void join(Thread t) {
        for (;;) {
            try {
                t.join();
                return;
            } catch (InterruptedException e) {
                // Keep waiting: EXITED must follow the last line.
            }
        }
    }

    synchronized void writeStdin(byte[] bytes) {
        if (bytes.length > 0) {
            startStdinWriter();
            stdin.add(bytes);
        }
    }

    synchronized void closeStdin() {
        startStdinWriter();
        stdin.add(CLOSE);
    }

    private void startStdinWriter() {
        if (stdinWriter != null) {
            return;
        }
        stdinWriter = new Thread(() -> {
            OutputStream os = process.getOutputStream();
            boolean broken = false;
            for (;;) {
                byte[] b;
                try {
                    b = stdin.take();
                } catch (InterruptedException e) {
                    continue;
                }
                if (b == CLOSE) {
                    try {
                        os.close();
                    } catch (IOException ignored) {
                        // The peer is gone or closed its stdin.
                    }
                    return;
                }
                if (!broken) {
                    try {
                        os.write(b);
                        os.flush();
                    } catch (IOException e) {
                        broken = true; // the peer stopped reading; drop the rest
                    }
                }
                Listener l = listener;
                if (l != null) {
                    l.stdinTaken(rank, b.length);
                }
            }
        }, "cohort-iom-stdin-" + rank);
        stdinWriter.setDaemon(true);
        stdinWriter.start();
    }

    /** SIGTERM to the peer's process group. */
    void terminate() {
        if (process.isAlive()) {
            stoppedByManager = true;
        }
        signalGroup("TERM");
    }

    /** SIGKILL to the peer's process group. */
    void kill() {
        if (process.isAlive()) {
            stoppedByManager = true;
        }
        signalGroup("KILL");
    }

    /**
     * SIGKILL to the peer's JVM at once, a signal from this process (starting kill(1) for the group
     * would take milliseconds), and not counted as the io-manager's stop: the exit is reported as the
     * peer's own end. What it started in its group is ended after its exit, as after any exit.
     */
    void killNow() {
        process.destroyForcibly();
    }

    /**
     * Job control: sends {@code name} ({@code STOP} or {@code CONT}) to the process groups of the
     * peers still running, with one kill(1) for all of them. Without kill(1) nothing happens: the JDK
     * can only end processes.
     */
    static void signalAll(String name, java.util.Collection<PeerProcess> peers) {
        List<String> command = new ArrayList<>(List.of("kill", "-" + name, "--"));
        for (PeerProcess p : peers) {
            if (p.process.isAlive()) {
                // Its group, once setsid(1) has made it; a peer started a moment ago may not have one yet.
                command.add(leadsItsGroup(p.process.pid()) ? "-" + p.process.pid() : Long.toString(p.process.pid()));
            }
        }
        if (command.size() == 3) {
            return;
        }
        try {
            // A group that ended meanwhile makes kill(1) fail for it alone; the others are signalled.
            new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start().waitFor();
        } catch (IOException e) {
            // No kill(1) on this host: the peers run on.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether process {@code pid} is the leader of its process group (field 5 of /proc/PID/stat); true where /proc cannot tell. */
    static boolean leadsItsGroup(long pid) {
        String[] f = ProcStat.of(Long.toString(pid));
        try {
            return f == null || Long.parseLong(f[ProcStat.PGRP]) == pid;
        } catch (RuntimeException e) {
            return true;
        }
    }

    /**
     * Ends what the peer started in its process group once the peer itself has ended: TERM, then KILL
     * after {@link #LEFTOVER_GRACE_MILLIS}. A child that held the peer's stdout kept its output pumps,
     * so the job, running after the program was done; and one that did not was left behind on the host.
     */
    private void endLeftovers(Thread out, Thread err) {
        if (!signalGroup("TERM")) {
            return; // nothing left in the group
        }
        long deadline = System.nanoTime() + LEFTOVER_GRACE_MILLIS * 1_000_000L;
        if (!joinUntil(out, deadline) || !joinUntil(err, deadline)) {
            signalGroup("KILL");
        }
    }

    /**
     * Signals the peer's process group, which outlives the peer while anything it started runs (its
     * number is not reused meanwhile, so the signal cannot reach a stranger). True if the group existed.
     */
    private boolean signalGroup(String name) {
        try {
            Process k = new ProcessBuilder("kill", "-" + name, "--", "-" + process.pid())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (k.waitFor() == 0) {
                return true;
            }
        } catch (IOException e) {
            // No kill(1): the JDK can reach the peer and its descendants while it lives.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        if (!process.isAlive()) {
            return false;
        }
        process.descendants().forEach(name.equals("KILL") ? ProcessHandle::destroyForcibly : ProcessHandle::destroy);
        if (name.equals("KILL")) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        return true;
    }

    private static boolean joinUntil(Thread t, long deadlineNanos) {
        while (t.isAlive()) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            try {
                t.join(Math.max(1, left / 1_000_000L));
            } catch (InterruptedException e) {
                // Keep waiting until the deadline.
            }
        }
        return true;
    }
}

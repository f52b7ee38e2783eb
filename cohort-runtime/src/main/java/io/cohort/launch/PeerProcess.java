package io.cohort.launch;

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
 * started too). Two pump threads split its stdout and stderr into lines; a third writes its stdin
 * so that a peer that does not read cannot block the io-manager.
 */
final class PeerProcess {
    /** Receives the peer's output lines and, after both streams ended, its exit. Called from pump threads. */
    interface Listener {
        void output(int rank, int stream, byte[] line);

        void exited(int rank, int status, boolean stoppedByManager);
    }

    static final int STDOUT = 1;
    static final int STDERR = 2;
    private static final byte[] CLOSE = new byte[0];

    final int rank;
    private final Process process;
    private final BlockingQueue<byte[]> stdin = new LinkedBlockingQueue<>();
    private volatile boolean stoppedByManager;
    private Thread stdinWriter;

    private PeerProcess(int rank, Process process) {
        this.rank = rank;
        this.process = process;
    }

    static PeerProcess start(int rank, List<String> command, Map<String, String> env, File cwd) throws IOException {
        List<String> argv = new ArrayList<>(command.size() + 1);
        argv.add(LocalLaunchAgent.SETSID);
        argv.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd);
        pb.environment().putAll(env);
        return new PeerProcess(rank, pb.start());
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Starts the pumps; {@code listener.exited} follows the last output line. */
    void pump(Listener listener) {
        Thread out = pumpThread(process.getInputStream(), STDOUT, listener);
        Thread err = pumpThread(process.getErrorStream(), STDERR, listener);
        Thread reaper = new Thread(() -> {
            int status = awaitExit();
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
        Thread t = new Thread(() -> {
            LineSplitter splitter = new LineSplitter(line -> listener.output(rank, stream, line));
            byte[] buf = new byte[64 * 1024];
            try (in) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    splitter.feed(buf, 0, n);
                }
            } catch (IOException e) {
                // The pipe broke: the peer is gone; what we have is flushed below.
            }
            try {
                splitter.finish();
            } catch (IOException ignored) {
                // The listener does not throw; the splitter's signature allows it.
            }
        }, "cohort-iom-" + (stream == STDOUT ? "out-" : "err-") + rank);
        t.setDaemon(true);
        return t;
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
            }
        }, "cohort-iom-stdin-" + rank);
        stdinWriter.setDaemon(true);
        stdinWriter.start();
    }

    /** SIGTERM to the peer's process group. */
    void terminate() {
        signal("TERM");
    }

    /** SIGKILL to the peer's process group. */
    void kill() {
        signal("KILL");
    }

    private void signal(String name) {
        if (!process.isAlive()) {
            return;
        }
        stoppedByManager = true;
        try {
            Process k = new ProcessBuilder("kill", "-" + name, "--", "-" + process.pid())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (k.waitFor() == 0) {
                return;
            }
        } catch (IOException e) {
            // No kill(1): fall back to the JDK below.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.descendants().forEach(name.equals("KILL") ? ProcessHandle::destroyForcibly : ProcessHandle::destroy);
        if (name.equals("KILL")) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
    }
}

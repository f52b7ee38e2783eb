package io.cohort.launch;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * PSE's "dbx in n windows" for JVMs: once every debugged peer listens for its debugger, a detached
 * tmux session {@code cohort-<jobid>} gets one window per peer, {@code rank-R}, running
 * {@code jdb -attach HOST:PORT}. Without tmux (or with {@code --no-tmux}) the launcher only prints the
 * commands. The session is killed when the job ends, so none is left behind.
 *
 * <pre>
 *  peer (suspend=y) ── "Listening for transport dt_socket at address: P" ─► io-manager ─► controller
 *  controller, all ports in ─► tmux new-session -d -s cohort-J -n rank-0 'jdb -attach H:P' ; new-window ...
 *  job ends ─► tmux kill-session -t =cohort-J
 * </pre>
 *
 * {@link #open} runs on a thread of its own (tmux may take a moment), {@link #close} on the
 * controller's; they are serialised, and a close before the open means the session is never made.
 */
final class DebuggerWindows implements AutoCloseable {
    /** How long one tmux command may take before the launcher gives up on it. */
    private static final long TMUX_MILLIS = 10_000;

    private final String session;
    private final Path tmux;
    private final Path workingDirectory;
    private final Consumer<String> say;
    private boolean created;
    private boolean closed;

    /**
     * @param tmux the tmux executable, or null to print the commands only
     * @param say  prints one line of the launcher's on its stderr
     */
    DebuggerWindows(String jobId, Path tmux, Path workingDirectory, Consumer<String> say) {
        this.session = sessionName(jobId);
        this.tmux = tmux;
        this.workingDirectory = workingDirectory;
        this.say = say;
    }

    static String sessionName(String jobId) {
        return "cohort-" + jobId;
    }

    /** tmux on the PATH, or null. */
    static Path findTmux() {
        return onPath("tmux");
    }

    /** The jdb of the JDK the launcher runs on, else the one on the PATH, else null. */
    static Path findJdb() {
        Path own = Path.of(System.getProperty("java.home"), "bin", "jdb");
        return Files.isExecutable(own) ? own : onPath("jdb");
    }

    static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path p = Path.of(dir, name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    /** The command that attaches jdb to one peer, as the user would type it. */
    static String attachCommand(String address) {
        return "jdb -attach " + address;
    }

    /**
     * Every debugged peer is listening: opens the tmux session (one window per rank, in rank order)
     * and says how to reach it, or says how to attach without it.
     *
     * @param addresses rank → the HOST:PORT its JDWP agent listens on
     */
    synchronized void open(SortedMap<Integer, String> addresses) {
        if (closed) {
            return;
        }
        if (tmux == null) {
            say.accept("cohort: " + (addresses.size() == 1 ? "the peer waits suspended until a debugger lets it go"
                    : addresses.size() + " peers wait suspended until a debugger lets them go")
                    + ": run the jdb commands above, or attach an IDE's remote JVM debugger (socket attach) to "
                    + (addresses.size() == 1 ? "that address" : "those addresses"));
            return;
        }
        Path jdb = findJdb();
        List<String> command = new ArrayList<>(List.of(tmux.toString()));
        boolean first = true;
        for (Map.Entry<Integer, String> e : addresses.entrySet()) {
            String window = "rank-" + e.getKey();
            if (first) {
                command.addAll(List.of("new-session", "-d", "-s", session, "-n", window, "-c", workingDirectory.toString()));
            } else {
                command.addAll(List.of(";", "new-window", "-d", "-t", "=" + session + ":", "-n", window,
                        "-c", workingDirectory.toString()));
            }
            if (jdb != null) {
                command.add("exec " + shellQuote(jdb.toString()) + " -attach " + e.getValue());
            }
            // Keep a window whose jdb ended (its peer exited) until the job ends: its last words stay readable.
            command.addAll(List.of(";", "set-window-option", "-t", "=" + session + ":" + window, "remain-on-exit", "on"));
            first = false;
        }
        String failure = run(command);
        if (failure != null) {
            say.accept("cohort: could not open tmux session " + session + " (" + failure + "); attach with the commands above");
            return;
        }
        created = true;
        String line = "cohort: a jdb window per debugged rank is in tmux session " + session + ": tmux attach -t " + session;
        if (System.getenv("TMUX") != null && !System.getenv("TMUX").isEmpty()) {
            line += " (or, from this tmux, tmux switch-client -t " + session + ")";
        }
        say.accept(line);
        if (jdb == null) {
            say.accept("cohort: no jdb in " + Path.of(System.getProperty("java.home"), "bin") + " or on the PATH: the windows"
                    + " have a shell; attach a JDWP debugger to the addresses above");
        }
    }

    /** Kills the session if it was made; later {@link #open}s do nothing. */
    @Override
    public synchronized void close() {
        closed = true;
        if (created) {
            created = false;
            run(List.of(tmux.toString(), "kill-session", "-t", "=" + session));
        }
    }

    /** Runs a tmux command; null on success, else what went wrong. */
    private static String run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.PIPE).start();
            p.getOutputStream().close();
            if (!p.waitFor(TMUX_MILLIS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return "tmux did not answer within " + TMUX_MILLIS / 1000 + " s";
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.exitValue() == 0 ? null : "tmux exited with status " + p.exitValue() + (out.isEmpty() ? "" : ": " + out);
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** 'word' for sh, with embedded single quotes escaped. */
    static String shellQuote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}

package io.cohort.cli;

import io.cohort.launch.Controller;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Job control for {@code cohort run}, as a shell user expects of any command: Ctrl-Z (SIGTSTP)
 * suspends the whole job, on every host, and then the launcher; {@code fg}, {@code bg} or SIGCONT
 * continue the launcher, which continues the job. Without this the launcher stopped alone and its
 * peers computed on until their output filled the pipes.
 *
 * <p>The launcher asks its controller to stop the peers (each io-manager sends SIGSTOP to its peers'
 * process groups), waits until the io-managers have been told, and then stops itself with SIGSTOP,
 * which is what SIGTSTP would have done by default. The {@code ./cohort} script that runs the
 * launcher stops itself once the launcher has, so the shell sees the whole command stopped. A SIGTSTP
 * that this process ignored when it started stays ignored (a batch system may want that).
 *
 * <p>A job in the background ({@code bg}, or started with {@code &}) runs on: the launcher ignores
 * SIGTTIN, so a read of its terminal from the background fails instead of stopping it, and it reads
 * its terminal again once it is in the foreground ({@code io.cohort.launch.Foreground}). The handlers
 * are {@code sun.misc.Signal}'s, as in {@link StacksSignal}.
 */
final class JobControl {
    /** How long the launcher waits for its controller to reach the io-managers before it stops itself. */
    static final long TELL_MILLIS = 2000;
    /** SIGTSTP's number on Linux: its bit in /proc/self/status' SigIgn mask. */
    private static final int SIGTSTP = 20;

    private final Controller controller;
    private final AtomicBoolean suspending = new AtomicBoolean();

    private JobControl(Controller controller) {
        this.controller = controller;
    }

    /** Handles SIGTSTP and SIGCONT for {@code controller}'s job from now on; false if not (the signal is ignored, or this JVM refuses). */
    static boolean install(Controller controller) {
        if (ignored(SIGTSTP)) {
            return false;
        }
        JobControl control = new JobControl(controller);
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("TSTP"), signal -> control.suspend());
            sun.misc.Signal.handle(new sun.misc.Signal("CONT"), signal -> controller.resume());
            // A terminal read from the background then fails instead of stopping the launcher, which
            // would hold the job too (its output waits); the stdin pump reads again in the foreground.
            sun.misc.Signal.handle(new sun.misc.Signal("TTIN"), sun.misc.SignalHandler.SIG_IGN);
            return true;
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            return false; // the launcher then stops alone on SIGTSTP, as any program does
        }
    }

    /** Runs on the signal's own thread: stops the job, then this process. A second SIGTSTP meanwhile is the same request. */
    private void suspend() {
        if (!suspending.compareAndSet(false, true)) {
            return;
        }
        try {
            controller.suspend().get(TELL_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // Stop anyway: the user asked for the terminal back.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            stopSelf();
        } finally {
            suspending.set(false);
        }
    }

    /** SIGSTOP to this JVM; returns once something has continued it. Java cannot raise a signal itself. */
    private static void stopSelf() {
        try {
            new ProcessBuilder("kill", "-STOP", Long.toString(ProcessHandle.current().pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        } catch (IOException e) {
            // No kill(1): the peers are stopped, the launcher waits for SIGCONT running.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether this process ignores {@code signal} (inherited from its parent); false where /proc cannot tell. */
    static boolean ignored(int signal) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << (signal - 1))) != 0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // No /proc: assume the default disposition.
        }
        return false;
    }
}

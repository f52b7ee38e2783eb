package io.cohort.cli;

import io.cohort.launch.Controller;
import io.cohort.launch.JobOutcome;
import io.cohort.launch.JobRegistry;
import io.cohort.launch.JobSpec;
import io.cohort.launch.LaunchException;
import io.cohort.profile.ProfileRecording;
import io.cohort.stacks.JobStacks;
import io.cohort.tools.stacks.StackTree;
import io.cohort.tools.stacks.StackTreeFormatter;
import io.cohort.tools.stacks.ThreadFilter;
import io.cohort.wireup.JobEnvironment;
import io.cohort.wireup.ParentWatch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs one job of {@code cohort run} in this JVM as its controller: registers it for
 * {@code cohort stacks} ({@link JobRegistry}), installs SIGUSR1 ({@link StacksSignal}; the
 * {@code ./cohort} script turns SIGQUIT into it) to print its merged stacks, SIGTSTP and SIGCONT
 * ({@link JobControl}), --stacks-on-timeout, the watch on the {@code ./cohort} script and the
 * shutdown hook that stops the job in order on SIGINT/SIGTERM; runs it; and after a profiled job
 * says where the profile is.
 */
final class JobRunner {
    private final Map<String, String> environment;
    private final boolean stacksOnTimeout;
    /** --profile's value, or null. */
    private final String profile;
    /** Whether the peers' files land in this machine's file system. */
    private final boolean filesAreHere;

    JobRunner(Map<String, String> environment, boolean stacksOnTimeout, String profile, boolean filesAreHere) {
        this.environment = environment;
        this.stacksOnTimeout = stacksOnTimeout;
        this.profile = profile;
        this.filesAreHere = filesAreHere;
    }

    /**
     * Set by the shutdown hook, before it stops the job: the JVM is exiting on SIGINT or SIGTERM with
     * the signal's status (130 or 143), which {@link Main} must not race with an exit of its own.
     */
    static volatile boolean stoppedBySignal;

    /** Runs the job to its end; its exit code. */
    Integer run(JobSpec job, Controller controller) throws LaunchException, IOException {
        controller.register(JobRegistry.forCurrentUser(environment));
        StacksSignal.install(new StacksOnSignal(controller));
        JobControl.install(controller);
        if (stacksOnTimeout) {
            controller.onTimeoutStacks(Duration.ofMillis(Math.round(StacksCommand.TIMEOUT_SECONDS_DEFAULT * 1000)),
                    stacks -> controller.printOnStderr(StackTreeFormatter.format(stacks, StackTree.merge(stacks, ThreadFilter.PROGRAM))));
        }
        watchScript(controller);
        Thread hook = new Thread(() -> {
            // SIGINT/SIGTERM: stop the peers in order; the JVM then exits with 130/143 by itself.
            stoppedBySignal = true;
            controller.interrupt();
            try {
                controller.awaitFinished(job.graceMillis() + 15_000L);
            } catch (InterruptedException ignored) {
                // Exiting anyway.
            }
        }, "cohort-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        JobOutcome outcome;
        long startMillis = System.currentTimeMillis();
        try {
            outcome = controller.run();
        } finally {
            // Ended, or failed before it started the job: nothing left for the hook to wait for (it
            // would wait for the grace period and 15 s after a launch error).
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException exiting) {
                // A signal came first: the hook runs and finds the job finished.
            }
        }
        if (profile != null) {
            String dir = ProfileRecording.directory(profile.trim(), controller.jobId());
            System.err.println(filesAreHere
                    ? profileLine(job, job.workingDirectory().resolve(dir), dir, startMillis)
                    : profileLine(job.size(), dir));
        }
        return outcome.exitCode();
    }

    /** SIGUSR1: the merged stacks of the job on the launcher's stderr, one dump at a time; the job goes on. */
    static final class StacksOnSignal implements Runnable {
        private final Controller controller;
        private final java.util.concurrent.atomic.AtomicBoolean busy = new java.util.concurrent.atomic.AtomicBoolean();

        StacksOnSignal(Controller controller) {
            this.controller = controller;
        }

        @Override
        public void run() {
            if (!busy.compareAndSet(false, true)) {
                return; // a dump is on its way; a second one right behind it would say the same
            }
            try {
                Duration timeout = Duration.ofMillis(Math.round(StacksCommand.TIMEOUT_SECONDS_DEFAULT * 1000));
                JobStacks stacks = controller.collectStacks(timeout).get();
                controller.printOnStderr(StackTreeFormatter.format(stacks, StackTree.merge(stacks, ThreadFilter.PROGRAM)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.util.concurrent.ExecutionException | RuntimeException e) {
                controller.printOnStderr("cohort: the stacks could not be collected: " + e + "\n");
            } finally {
                busy.set(false);
            }
        }
    }

    /**
     * Set by {@code ./cohort run} to its own pid; the launcher is its child (so that SIGQUIT can show
     * stacks). When the script is gone (kill -9 of the pid the user knows), even before the launcher
     * looked, the job is stopped as on SIGINT rather than left running under init.
     */
    static final String WATCH_PARENT_PROP_NAME = "cohort.watchParent";

    private static void watchScript(Controller controller) {
        String script = System.getProperty(WATCH_PARENT_PROP_NAME, "");
        if (script.matches("\\d{1,18}")) {
            // The script's pid, not whatever our parent is now: a script killed in the launcher's first
            // tenths of a second left it under init, where watching "the parent" watched nothing.
            ParentWatch.watch("cohort-script-watch", Long.parseLong(script), parent -> controller.interrupt());
        } else if (Boolean.parseBoolean(script)) {
            ParentWatch.start("cohort-script-watch", parent -> controller.interrupt());
        }
    }

    /** The launcher's last word after a profiled job: where the files are and how to read them. */
    static String profileLine(int peers, String directory) {
        return "cohort: profile of " + peers + (peers == 1 ? " peer" : " peers") + " in " + directory
                + "; read it with: cohort prof " + directory;
    }

    /**
     * As {@link #profileLine(int, String)}, for peers whose files this machine sees: only the ranks
     * whose file was written during the job count, so that a directory no peer could write in (each
     * peer said so when it started) is not announced as a profile.
     */
    static String profileLine(JobSpec job, Path dir, String shown, long sinceMillis) {
        ProfileRecording.Mode mode = ProfileRecording.Mode.of(job.environment().getOrDefault(JobEnvironment.PROFILE_MODE,
                ProfileRecording.Mode.SUMMARY.label()));
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < job.size(); r++) {
            Path f = dir.resolve(ProfileRecording.fileName(job.mainClass(), r, mode == null ? ProfileRecording.Mode.SUMMARY : mode));
            try {
                // a second's slack: some file systems keep whole seconds
                if (Files.getLastModifiedTime(f).toMillis() >= sinceMillis - 1000) {
                    continue;
                }
            } catch (IOException e) {
                // no file: missing
            }
            missing.add(r);
        }
        if (missing.isEmpty()) {
            return profileLine(job.size(), shown);
        }
        if (missing.size() == job.size()) {
            return "cohort: no profile was written to " + shown + " (a peer that cannot write there says why when it starts;"
                    + " one killed outright writes none)";
        }
        int written = job.size() - missing.size();
        return "cohort: profile of " + written + " of " + job.size() + " peers in " + shown + " (" + (missing.size() == 1
                ? "rank " : "ranks ") + io.cohort.launch.ExitTracker.rankList(missing) + " wrote none); read it with: cohort prof " + shown;
    }
}

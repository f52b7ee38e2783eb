package io.cohort.launch;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The job's output as the launcher writes it: the peers' lines through one {@link OutputRouter}
 * (written by the io-managers' connection threads), the launcher's own lines in order between
 * them, or straight to its log before that output is set up and once it is closing, and at the end
 * the drain, the closing lines (crash files, what a stalled reader did not take, the summary) and
 * the close.
 *
 * <p>Threads: {@link #print}, {@link #limitStall} and {@link #closing} any thread (the router is
 * published through a volatile field); {@link #open}, {@link #finish} and {@link #close} the
 * caller of {@link Controller#run}.
 */
final class JobOutput {
    /**
     * How long the reader of the launcher's stdout or stderr may take nothing before a job that was
     * stopped (SIGINT, SIGTERM, --timeout) gives up the rest of its output and ends.
     */
    static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final JobSpec spec;
    private final String jobId;
    private final OutputStream stdout;
    private final OutputStream stderr;
    private final PrintStream log;
    /** The job has ended (the controller's done flag). */
    private final BooleanSupplier done;
    private volatile OutputRouter router;
    /** The job's output is being closed: a late block of the launcher's own goes straight to the log. */
    private volatile boolean closing;

    JobOutput(JobSpec spec, String jobId, OutputStream stdout, OutputStream stderr, PrintStream log,
              BooleanSupplier done) {
        this.spec = spec;
        this.jobId = jobId;
        this.stdout = stdout;
        this.stderr = stderr;
        this.log = log;
        this.done = done;
    }

    /**
     * Sets up the job's output (opening its --output files); {@code onFailure} runs when it cannot be
     * written.
     *
     * @throws LaunchException if an output file cannot be created
     */
    OutputRouter open(Runnable onFailure) throws LaunchException {
        OutputRouter r;
        try {
            r = new OutputRouter(spec.size(), spec.tagOutput(), spec.outputPattern(), jobId, stdout, stderr);
        } catch (IOException e) {
            throw new LaunchException(e.getMessage(), e);
        }
        r.onFailure(onFailure);
        router = r;
        return r;
    }

    /** The first failure to write the job's output, or null (also before it is set up). */
    OutputRouter.WriteFailure failure() {
        OutputRouter r = router;
        return r == null ? null : r.failure();
    }

    /** The reading of exit reports must not wait for a reader of the output: the job is being stopped. */
    void release() {
        router.release();
    }

    /** Whether the output is being closed (the job has ended). */
    boolean closing() {
        return closing;
    }

    /**
     * Writes a block of the launcher's own lines to its stderr between the peers' lines; before the
     * job's output is set up, or after it is closed, straight to the log. Never waits for the reader
     * of stderr.
     */
    void print(String block) {
        OutputRouter r = router;
        if (r != null && !done.getAsBoolean() && !closing) {
            r.writeLauncherBlock(block.getBytes(StandardCharsets.UTF_8));
        } else {
            log.print(block);
            log.flush();
        }
    }

    /** SIGINT/SIGTERM: the job may have ended and wait for a reader that takes nothing; it waits no longer than the stall. */
    void limitStall() {
        OutputRouter r = router;
        if (r != null) {
            r.limitStall(STALL_NANOS);
        }
    }

    /**
     * The job's event loop has returned with {@code outcome}: drains the output (a job that ends by
     * itself waits for its reader, as any program writing to a pipe does; one the user or --timeout
     * stopped gives up the output a stalled reader does not take), writes the closing lines and
     * closes it. Returns the outcome, which a failure found by the last flush turns into that failure.
     */
    JobOutcome finish(JobOutcome outcome, JobVerdict verdict, ExitTracker tracker) {
        OutputRouter router = this.router;
        long stall = verdict.stoppedByUser() ? STALL_NANOS : Long.MAX_VALUE;
        OutputRouter.Unwritten unwritten = router.drain(stall);
        if (outcome.exitCode() == ExitCodes.SUCCESS && router.failure() != null) {
            outcome = verdict.outputFailedOutcome(router.failure(), false); // found by the last flush
        }
        if (spec.verbose()) {
            for (String line : tracker.otherCrashFiles(outcome.rootCauseRank())) {
                router.launcherLine(line);
            }
        }
        if (unwritten.total() > 0) {
            router.launcherLine(unwrittenLine(unwritten));
        }
        if (outcome.summary() != null) {
            router.launcherLine(outcome.summary());
        }
        closing = true; // from now on stacks blocks go straight to the log
        router.close(stall);
        log.flush();
        return outcome;
    }

    /** At the very end: closes the output if {@link #finish} did not (written already, unless the job failed to start). */
    void close() {
        OutputRouter r = router;
        if (r != null) {
            r.close(STALL_NANOS);
        }
    }

    /** The line that says how much output a stalled reader did not take, or that was dropped while the job was stopped. */
    static String unwrittenLine(OutputRouter.Unwritten u) {
        String where = u.stdout() > 0 && u.stderr() > 0 ? "its standard output and error"
                : u.stdout() > 0 ? "its standard output" : "its standard error";
        return "cohort: " + u.total() + " bytes of the job's output were not written: " + where
                + " took nothing while the job was being stopped";
    }
}

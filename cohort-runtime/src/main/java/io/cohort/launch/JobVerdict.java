package io.cohort.launch;

/**
 * Why the launcher ended the job, where it did, and so the job's outcome: a launch failure, an
 * interrupt (SIGINT/SIGTERM), output that cannot be written, --timeout, or a lost io-manager, in
 * that order of precedence; where none applies, the peers' own exits decide
 * ({@link ExitTracker#outcome}). Each cause keeps the first reason given for it.
 *
 * <p>Owned by the controller's event thread (the caller of {@link Controller#run}, which also reads
 * it after the event loop has returned).
 */
final class JobVerdict {
    private final String jobId;
    private final JobSpec spec;
    private final ExitTracker tracker;
    private String launchFailure;
    private String ioManagerLost;
    private boolean timedOut;
    private boolean interrupted;
    private boolean outputFailed;

    JobVerdict(String jobId, JobSpec spec, ExitTracker tracker) {
        this.jobId = jobId;
        this.spec = spec;
        this.tracker = tracker;
    }

    /** The job could not start: {@code why}, unless an earlier reason was given. */
    void launchFailed(String why) {
        if (launchFailure == null) {
            launchFailure = why;
        }
    }

    /**
     * An io-manager was lost: {@code why} (null: none was), unless an earlier loss was recorded or the
     * job had failed to start, which is then the outcome.
     */
    void ioManagerLost(String why) {
        if (ioManagerLost == null && launchFailure == null) {
            ioManagerLost = why;
        }
    }

    /** SIGINT/SIGTERM: true the first time, when the job is to be stopped. */
    boolean interrupt() {
        if (interrupted) {
            return false;
        }
        interrupted = true;
        return true;
    }

    /** The job's output cannot be written: true the first time, when the job is to be stopped. */
    boolean outputFails() {
        if (outputFailed) {
            return false;
        }
        outputFailed = true;
        return true;
    }

    /** The job exceeded --timeout (with no failure under way, which would be what ends it). */
    void timedOut() {
        timedOut = true;
    }

    /** Whether the user (SIGINT, SIGTERM) or --timeout stopped the job: its output then gives up on a stalled reader. */
    boolean stoppedByUser() {
        return interrupted || timedOut;
    }

    /**
     * The job's outcome once it has ended.
     *
     * @param outputFailure   the output's first write failure, or null
     * @param stacksOnTimeout whether --stacks-on-timeout was given (else the time-out's line suggests it)
     */
    JobOutcome outcome(OutputRouter.WriteFailure outputFailure, boolean stacksOnTimeout) {
        String job = "cohort: job " + jobId;
        if (launchFailure != null) {
            return new JobOutcome(ExitCodes.LAUNCH_FAILURE, job + " could not start: " + launchFailure, JobOutcome.NO_RANK);
        }
        if (interrupted) {
            return new JobOutcome(ExitCodes.INTERRUPTED, job + " was interrupted; its peers were stopped", JobOutcome.NO_RANK);
        }
        if (outputFailed && outputFailure != null) {
            return outputFailedOutcome(outputFailure, true);
        }
        if (timedOut) {
            return new JobOutcome(ExitCodes.TIMEOUT, job + " exceeded the time limit of " + spec.timeoutSeconds()
                    + " s (--timeout) and was stopped" + (!stacksOnTimeout
                    ? "; --stacks-on-timeout shows where its peers were" : ""), JobOutcome.NO_RANK);
        }
        if (ioManagerLost != null) {
            return new JobOutcome(ExitCodes.INTERNAL_ERROR, job + " failed: " + ioManagerLost, JobOutcome.NO_RANK);
        }
        return tracker.outcome();
    }

    /**
     * The reader went away (a pipe into head): 141 and no line, as a Unix tool killed by SIGPIPE ends.
     * Anything else: one line and 74.
     */
    JobOutcome outputFailedOutcome(OutputRouter.WriteFailure f, boolean stopped) {
        if (f.brokenPipe()) {
            return new JobOutcome(ExitCodes.OUTPUT_CLOSED, null, JobOutcome.NO_RANK);
        }
        return new JobOutcome(ExitCodes.OUTPUT_FAILED, "cohort: job " + jobId + " failed: " + f.where()
                + " cannot be written (" + f.reason() + ")" + (stopped ? "; its peers were stopped" : ""), JobOutcome.NO_RANK);
    }
}

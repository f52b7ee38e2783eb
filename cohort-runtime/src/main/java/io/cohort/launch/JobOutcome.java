package io.cohort.launch;

/**
 * How a job ended: the launcher's exit code and, for an abnormal end, the one summary line the
 * launcher prints to its standard error (null on success).
 */
public record JobOutcome(int exitCode, String summary, int rootCauseRank) {
    public static final int NO_RANK = -1;

    public static JobOutcome success() {
        return new JobOutcome(ExitCodes.SUCCESS, null, NO_RANK);
    }

    public boolean failed() {
        return exitCode != ExitCodes.SUCCESS;
    }
}

package io.cohort.profile;

/**
 * The program's time with the world, from init to close, for the profile (see {@link SendSpan}):
 * the application time a peer's communication time is a share of.
 */
public final class JobSpan {
    private final JobEvent event;

    private JobSpan(JobEvent event) {
        this.event = event;
    }

    static JobSpan start(boolean summary, int rank) {
        if (summary) {
            Summary.jobStarted();
            return new JobSpan(null);
        }
        JobEvent e = JobEvent.startIfEnabled(rank);
        return e == null ? null : new JobSpan(e);
    }

    /** Once, whoever comes first: the world's close, or {@link Profiling#finishJobs}. */
    public void finish() {
        if (event != null) {
            event.finish();
        } else {
            Summary.jobFinished();
        }
    }
}

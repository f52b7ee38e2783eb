package io.cohort.wireup;

import io.cohort.CohortException;

/**
 * This peer could not join its job: the wire-up, a transport's start-up or a setting it reads (a bad
 * {@code -Dcohort.shm.doorbell}, say) failed. The message names the rank, the job and the reason. A
 * program that lets it escape from {@code main} gets one line for it from {@code PeerMain}, not a
 * stack trace: the fault is in the job's set-up, not in the program (set {@code --verbose} for the
 * trace).
 */
public final class StartupFailedException extends CohortException {
    public StartupFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}

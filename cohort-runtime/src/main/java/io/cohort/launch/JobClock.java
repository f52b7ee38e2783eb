package io.cohort.launch;

/**
 * Job control's state (SIGTSTP and SIGCONT to the launcher) and the job's own clock, which stands
 * still while the job is suspended: {@link System#nanoTime} less the time it spent suspended. Launch,
 * first hello and the time-outs are measured on it, so that a job suspended for an hour is not
 * stopped by --timeout or the wire-up time-out the moment it continues.
 *
 * <p>Owned by the controller's event thread: only it calls these methods. Telling the io-managers
 * (SUSPEND, RESUME) is the caller's part; this says when to.
 */
final class JobClock {
    /** Suspended by job control (SIGTSTP): the peers are stopped, the time-outs wait. */
    private boolean suspended;
    /** SUSPEND went to the io-managers, and no RESUME or STOP since. */
    private boolean peersSuspended;
    /** How many times the peers were suspended: a stacks request during which that happened blames no rank for the stop. */
    private int suspensions;
    private long suspendedSinceNanos;
    /** Time the job spent suspended, which --timeout and the wire-up time-out do not count. */
    private long suspendedNanos;

    /** The job's clock, in nanoseconds (as {@link System#nanoTime}, only differences mean anything). */
    long now() {
        return (suspended ? suspendedSinceNanos : System.nanoTime()) - suspendedNanos;
    }

    /** Suspended by job control: no peer can connect, answer or end meanwhile. */
    boolean suspended() {
        return suspended;
    }

    /** SUSPEND went to the io-managers, and no RESUME or STOP since. */
    boolean peersSuspended() {
        return peersSuspended;
    }

    /** How many times the peers were suspended so far. */
    int suspensions() {
        return suspensions;
    }

    /**
     * SIGTSTP: the clock stands still. True if the peers are to be suspended now (SUSPEND to the
     * io-managers); false if the job is suspended already, or being stopped.
     */
    boolean suspend(boolean stopping) {
        if (suspended) {
            return false;
        }
        // The launcher stops itself next, so the clock stands still in any case; a job being stopped
        // keeps its peers running, since they are ending (the io-managers continue stopped ones).
        suspended = true;
        suspendedSinceNanos = System.nanoTime();
        if (stopping) {
            return false;
        }
        peersSuspended = true;
        suspensions++;
        return true;
    }

    /** SIGCONT: the clock runs again. True if the peers are to be continued now (RESUME to the io-managers). */
    boolean resume() {
        if (!suspended) {
            return false;
        }
        endSuspension();
        if (!peersSuspended) {
            return false;
        }
        peersSuspended = false;
        return true;
    }

    /** The job is being stopped: the io-managers continue stopped peers after their TERM, so that they can end. */
    void stopping() {
        peersSuspended = false;
    }

    private void endSuspension() {
        suspended = false;
        suspendedNanos += System.nanoTime() - suspendedSinceNanos;
    }
}

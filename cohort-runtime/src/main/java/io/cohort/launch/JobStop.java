package io.cohort.launch;

import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlMessageType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Stopping the job: STOP with the grace period to every connected io-manager (one not connected yet
 * is written off, having started nothing), after an abnormal exit only once what decides the root
 * cause is in, and, past the grace period and a slack, giving up on the io-managers that did not
 * report all their stopped ranks. The controller decides why the job stops; this class says when,
 * and does it.
 *
 * <p>Owned by the controller's event thread: only it calls these methods, and this class alone
 * writes whether the job is stopping.
 */
final class JobStop {
    /** After STOP, how much longer than the grace period to wait for exits before giving up on an io-manager. */
    static final long STOP_SLACK_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** How long an abnormal exit's stop waits for the peer's last control frames after its exit. */
    static final long REPORTS_WAIT_MILLIS = 500;

    private final JobSpec spec;
    private final ExitTracker tracker;
    private final JobClock clock;
    private final JobRendezvous rendezvous;
    /** Lets the output go without waiting for its reader ({@link OutputRouter#release}). */
    private final Runnable releaseOutput;
    private boolean stopping;
    private long stopNanos;
    /** Abnormal exits not yet acted on, by rank: the job clock of each exit ({@link #settlePending}). */
    private final Map<Integer, Long> stopPending = new java.util.TreeMap<>();

    JobStop(JobSpec spec, ExitTracker tracker, JobClock clock, JobRendezvous rendezvous, Runnable releaseOutput) {
        this.spec = spec;
        this.tracker = tracker;
        this.clock = clock;
        this.rendezvous = rendezvous;
        this.releaseOutput = releaseOutput;
    }

    /** Whether the job is being stopped (STOP went out). */
    boolean stopping() {
        return stopping;
    }

    /** {@code rank} exited abnormally: the job is to be stopped once that exit settles ({@link #settlePending}). */
    void abnormalExit(int rank) {
        if (!stopping) {
            stopPending.putIfAbsent(rank, clock.now());
        }
    }

    /** Whether an abnormal exit waits to stop the job: a failure under way, which then ends the job. */
    boolean failurePending() {
        return !stopPending.isEmpty();
    }

    /**
     * Stops the job for an abnormal exit once what decides its root cause is in: the peer's last
     * reports (its control connection ended, or {@value #REPORTS_WAIT_MILLIS} ms passed), and, if it
     * failed waiting for a peer that had closed its world, that peer's own exit (or the grace period):
     * a program that fails inside try-with-resources closes its world before it exits, and stopping
     * it then would hide which rank failed first.
     */
    void settlePending() {
        if (stopping) {
            stopPending.clear();
            return;
        }
        if (stopPending.isEmpty()) {
            return;
        }
        // A failure of its own (one that waited for no closed peer) stops the job once its reports are
        // in. Failures that followed a closed peer stop it once none of them waits any longer, so that
        // in a chain (rank 2 waited for rank 1, rank 3 for rank 2) the first closed peer's exit decides.
        long now = clock.now();
        boolean ownFailureIn = false;
        boolean allSettled = true;
        for (Map.Entry<Integer, Long> e : stopPending.entrySet()) {
            int rank = e.getKey();
            long waited = now - e.getValue();
            boolean reportsIn = tracker.settled(rank) || waited >= TimeUnit.MILLISECONDS.toNanos(REPORTS_WAIT_MILLIS);
            boolean followed = tracker.awaitedClosedPeer(rank);
            boolean causeRuns = followed && tracker.awaitsRunningPeer(rank)
                    && waited < TimeUnit.MILLISECONDS.toNanos(spec.graceMillis());
            ownFailureIn |= reportsIn && !followed;
            allSettled &= reportsIn && !causeRuns;
        }
        if (ownFailureIn || allSettled) {
            stopPending.clear();
            stop();
        }
    }

    /** First abnormal exit, time-out, interrupt or a lost io-manager: TERM the peers, KILL them after the grace period. */
    void stop() {
        if (stopping) {
            return;
        }
        clock.stopping(); // the io-managers continue stopped peers after their TERM, so that they can end
        stopping = true;
        stopNanos = clock.now();
        tracker.stopping();
        releaseOutput.run(); // the reading of exit reports must not wait for a reader of the output
        ControlFrame frame = ControlFrame.build(ControlMessageType.STOP).putInt(spec.graceMillis()).frame();
        for (IoManagerLink link : rendezvous.links()) {
            if (link.gone) {
                continue;
            }
            if (link.conn != null) {
                link.conn.trySend(frame);
            } else {
                rendezvous.writeOff(link); // not connected yet: nothing started there
            }
        }
    }

    /**
     * Whether the job was stopped longer ago than the grace period and {@link #STOP_SLACK_NANOS}
     * (not counting a suspension): its io-managers have had time to report every exit.
     */
    boolean overdue() {
        return stopping && !clock.suspended()
                && clock.now() - stopNanos > TimeUnit.MILLISECONDS.toNanos(spec.graceMillis()) + STOP_SLACK_NANOS;
    }

    /**
     * Once {@link #overdue}: every io-manager that has not reported all its ranks is written off.
     * Returns what to say of the first (its unreported ranks), or null if every one has reported.
     */
    String giveUp() {
        String lost = null;
        for (IoManagerLink link : rendezvous.links()) {
            if (!link.gone && !rendezvous.allReported(link)) {
                if (lost == null) {
                    List<Integer> silent = new ArrayList<>();
                    for (int r : link.ranks) {
                        if (!tracker.hasExited(r)) {
                            silent.add(r);
                        }
                    }
                    lost = "the io-manager on " + link.host + " did not report "
                            + (silent.size() == 1 ? "rank " : "ranks ") + JobRendezvous.join(silent) + " after they were stopped";
                }
                rendezvous.writeOff(link);
            }
        }
        return lost;
    }
}

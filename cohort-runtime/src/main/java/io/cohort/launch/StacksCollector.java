package io.cohort.launch;

import io.cohort.launch.ControllerEvent.CollectStacks;
import io.cohort.launch.ControllerEvent.StacksAnswer;
import io.cohort.launch.ControllerEvent.TimeoutStacksShown;
import io.cohort.stacks.JobStacks;
import io.cohort.stacks.RankStacks;
import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlMessageType;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The job's stacks collections ({@link Controller#collectStacks}, a {@code STACKS_QUERY}, SIGQUIT,
 * --stacks-on-timeout): each sends {@code STACKS_REQUEST} to every connected peer and completes when
 * all have answered, or at its deadline, or when the job ends; ranks that are not connected, have
 * exited, left, are suspended or stay silent are reported as such.
 *
 * <p>Threads: the collections are the event thread's, as are the rendezvous, tracker and clock it
 * reads; {@link #collect} may be called from any thread and queues the collection for the event
 * thread while the loop runs. Once {@link #end} has run, the event thread is gone and its state final
 * (published by {@link #endLock}), and a collection is answered on the caller's thread.
 */
final class StacksCollector {
    /** The shortest and longest time the peers may be given to answer a stacks query. */
    static final Duration TIMEOUT_MIN = Duration.ofMillis(50);
    static final Duration TIMEOUT_MAX = Duration.ofSeconds(60);

    private final JobSpec spec;
    private final Placement placement;
    private final String jobId;
    private final ExitTracker tracker;
    private final JobRendezvous rendezvous;
    private final JobClock clock;
    /** Every peer runs on this machine, so /proc and pids here are theirs. */
    private final boolean peersOnThisMachine;
    /** The job has ended (the controller's done flag, any thread). */
    private final BooleanSupplier done;
    private final Consumer<ControllerEvent> events;
    /** Guards {@link #ended}: a stacks collection is either queued before the end or answered at once. */
    private final Object endLock = new Object();
    private boolean ended;
    private final Map<Integer, StacksCollection> collections = new HashMap<>();
    private int nextStacksRequest;

    StacksCollector(JobSpec spec, Placement placement, String jobId, ExitTracker tracker, JobRendezvous rendezvous,
                    JobClock clock, boolean peersOnThisMachine, BooleanSupplier done, Consumer<ControllerEvent> events) {
        this.spec = spec;
        this.placement = placement;
        this.jobId = jobId;
        this.tracker = tracker;
        this.rendezvous = rendezvous;
        this.clock = clock;
        this.peersOnThisMachine = peersOnThisMachine;
        this.done = done;
        this.events = events;
    }

    /** One stacks collection in progress: a slot per rank, filled by answers, silences or the deadline. */
    private static final class StacksCollection {
        final int requestId;
        final long timeoutMillis;
        final long deadlineNanos;
        final RankStacks[] ranks;
        final CompletableFuture<JobStacks> future;
        /** {@link JobClock#suspensions} when the request went out. */
        final int suspensionsAtStart;
        int outstanding;

        StacksCollection(int requestId, long timeoutMillis, int size, CompletableFuture<JobStacks> future,
                         int suspensionsAtStart) {
            this.requestId = requestId;
            this.suspensionsAtStart = suspensionsAtStart;
            this.timeoutMillis = timeoutMillis;
            this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            this.ranks = new RankStacks[size];
            this.future = future;
        }
    }

    /**
     * Collects the stacks of every peer, each given {@code timeout} (clamped) to answer. Any thread:
     * while the event loop runs, the collection is queued for the event thread; once the job has
     * ended, it is answered here and now, every rank then counting as gone.
     */
    CompletableFuture<JobStacks> collect(Duration timeout) {
        CompletableFuture<JobStacks> f = new CompletableFuture<>();
        long millis = clampMillis(timeout);
        synchronized (endLock) {
            if (!ended) {
                events.accept(new CollectStacks(millis, f));
                return f;
            }
        }
        // The event thread is gone and its state final (published by endLock).
        start(new CollectStacks(millis, f));
        return f;
    }

    /** {@code timeout} in milliseconds, clamped to {@link #TIMEOUT_MIN}..{@link #TIMEOUT_MAX}. */
    static long clampMillis(Duration timeout) {
        return Math.max(TIMEOUT_MIN.toMillis(), Math.min(TIMEOUT_MAX.toMillis(), timeout.toMillis()));
    }

    /**
     * --stacks-on-timeout: collects the stacks, each peer given {@code wait} (clamped), and hands them
     * to {@code printer} on a pool thread, not the event thread, unless {@code outputClosing} says the
     * job ended by itself meanwhile; then posts {@link TimeoutStacksShown}, printed or not, and the
     * event thread stops the job.
     */
    void startForTimeout(Duration wait, Consumer<JobStacks> printer, BooleanSupplier outputClosing,
                         Consumer<String> printLine) {
        CompletableFuture<JobStacks> f = new CompletableFuture<>();
        long millis = clampMillis(wait);
        f.whenCompleteAsync((stacks, failure) -> {
            try {
                if (stacks != null && !outputClosing.getAsBoolean()) { // closing: the job ended by itself meanwhile
                    printer.accept(stacks);
                }
            } catch (RuntimeException e) {
                printLine.accept("cohort: the stacks of the job could not be printed: " + e);
            } finally {
                events.accept(new TimeoutStacksShown());
            }
        });
        start(new CollectStacks(millis, f));
    }

    /** Sends STACKS_REQUEST to every rank that can answer; completes at once if none can. */
    void start(CollectStacks c) {
        StacksCollection col = new StacksCollection(++nextStacksRequest, c.timeoutMillis(), spec.size(), c.future(),
                clock.suspensions());
        ControlFrame request = ControlFrame.build(ControlMessageType.STACKS_REQUEST).putInt(col.requestId).frame();
        for (int r = 0; r < spec.size(); r++) {
            RankStacks silent = silence(r);
            if (silent == null && clock.peersSuspended()) {
                silent = RankStacks.silent(r, placement.hostOf(r), rendezvous.pidOf(r), RankStacks.Answer.NO_ANSWER,
                        "is suspended with the job (Ctrl-Z); fg or SIGCONT to the launcher continues it");
            }
            if (silent == null && !done.getAsBoolean() && rendezvous.connection(r).trySend(request)) {
                col.outstanding++;
            } else {
                col.ranks[r] = silent != null ? silent : RankStacks.silent(r, placement.hostOf(r), rendezvous.pidOf(r),
                        RankStacks.Answer.LEFT, "lost its control connection");
            }
        }
        if (col.outstanding == 0) {
            complete(col);
        } else {
            collections.put(col.requestId, col);
        }
    }

    /** Why {@code rank} cannot be asked for its stacks, or null if it can. */
    private RankStacks silence(int rank) {
        String host = placement.hostOf(rank);
        Integer status = tracker.exitStatus(rank);
        if (status != null) {
            return RankStacks.silent(rank, host, rendezvous.pidOf(rank), RankStacks.Answer.EXITED, ExitTracker.describeStatus(status));
        }
        if (rendezvous.connection(rank) == null) {
            return RankStacks.silent(rank, host, -1, RankStacks.Answer.NOT_JOINED, done.getAsBoolean()
                    ? "never joined the job"
                    : "has not joined the job: not in Cohort.init() yet, or not calling it");
        }
        if (rendezvous.hasLeft(rank) || done.getAsBoolean()) {
            return RankStacks.silent(rank, host, rendezvous.pidOf(rank), RankStacks.Answer.LEFT, done.getAsBoolean()
                    ? "was still running when the job ended"
                    : "has closed its control connection (finished with Cohort) and still runs");
        }
        return null;
    }

    /**
     * Why {@code rank} did not answer within the time-out: the job's suspension if one came during
     * the request; where its process is on this machine and cannot run (stopped, traced, in
     * uninterruptible sleep), that; otherwise only that it did not answer.
     */
    private String silentDetail(int rank, StacksCollection col) {
        if (clock.peersSuspended() || clock.suspensions() != col.suspensionsAtStart) {
            // Stopped by the job's own Ctrl-Z, or continued only a moment ago: not the rank's fault.
            return "was suspended with the job (Ctrl-Z) while its stacks were asked for; ask again once it runs";
        }
        String state = peersOnThisMachine ? ProcStat.describeIdle(rendezvous.pidOf(rank)) : null;
        return state != null ? state : "did not answer within " + col.timeoutMillis + " ms";
    }

    /** A rank's answer to a request: its slot is filled, unless the answer is late or not ours. */
    void answered(StacksAnswer a) {
        Integer rank = rendezvous.rankOf(a.conn());
        StacksCollection col = collections.get(a.requestId());
        if (rank == null || col == null || col.ranks[rank] != null) {
            return; // late (after the deadline), or not ours
        }
        col.ranks[rank] = a.stacks() != null ? RankStacks.answered(rank, placement.hostOf(rank), rendezvous.pidOf(rank), a.stacks())
                : RankStacks.silent(rank, placement.hostOf(rank), rendezvous.pidOf(rank), RankStacks.Answer.NO_ANSWER,
                        "sent a malformed answer (" + a.malformed() + ")");
        if (--col.outstanding == 0) {
            collections.remove(col.requestId);
            complete(col);
        }
    }

    /** {@code rank} exited or closed its connection: collections waiting for it need not wait longer. */
    void silenced(int rank) {
        for (Iterator<StacksCollection> it = collections.values().iterator(); it.hasNext(); ) {
            StacksCollection col = it.next();
            if (col.ranks[rank] == null) {
                col.ranks[rank] = silence(rank);
                if (--col.outstanding == 0) {
                    it.remove();
                    complete(col);
                }
            }
        }
    }

    /** Collections past their deadline complete, the silent ranks said to be so. */
    void checkDeadlines() {
        long now = System.nanoTime();
        for (Iterator<StacksCollection> it = collections.values().iterator(); it.hasNext(); ) {
            StacksCollection col = it.next();
            if (now - col.deadlineNanos >= 0) {
                for (int r = 0; r < col.ranks.length; r++) {
                    if (col.ranks[r] == null) {
                        col.ranks[r] = RankStacks.silent(r, placement.hostOf(r), rendezvous.pidOf(r), RankStacks.Answer.NO_ANSWER,
                                silentDetail(r, col));
                    }
                }
                it.remove();
                complete(col);
            }
        }
    }

    /** How long the event loop may wait for an event: {@code tickNanos}, or less if a collection falls due sooner. */
    long pollNanos(long tickNanos) {
        long wait = tickNanos;
        long now = System.nanoTime();
        for (StacksCollection col : collections.values()) {
            wait = Math.min(wait, Math.max(0, col.deadlineNanos - now));
        }
        return wait;
    }

    private void complete(StacksCollection col) {
        col.future.complete(new JobStacks(jobId, spec.size(), spec.mainClass(), Arrays.asList(col.ranks)));
    }

    /**
     * At the end of the controller's run: collections still waiting, and those queued behind the
     * end ({@code queued}, the event queue), are answered with what is known; later ones are answered
     * at once by {@link #collect}.
     */
    void end(Iterable<ControllerEvent> queued) {
        synchronized (endLock) {
            ended = true;
        }
        for (StacksCollection col : collections.values()) {
            for (int r = 0; r < col.ranks.length; r++) {
                if (col.ranks[r] == null) {
                    col.ranks[r] = silence(r);
                }
            }
            complete(col);
        }
        collections.clear();
        for (ControllerEvent e : queued) {
            if (e instanceof CollectStacks c) {
                start(c);
            }
        }
    }
}

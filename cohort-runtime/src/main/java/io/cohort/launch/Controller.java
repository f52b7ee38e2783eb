package io.cohort.launch;

import io.cohort.auth.JobSecret;
import io.cohort.launch.ControllerEvent.*;
import io.cohort.stacks.JobStacks;
import io.cohort.wireup.ControlMessageType;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The controlling process of one job (PSE's "controlling process"): the rendezvous point of the
 * peers, the collector of their output and exits, and the one who decides the job's status.
 *
 * <pre>
 *  run() ── bind the rendezvous ── LaunchAgent starts one IoManager per host ── IOM_HELLO ─► LAUNCH (its ranks)
 *        ── PEER_HELLO × N ─► PEER_TABLE to all ── OUTPUT ... EXITED × N ─► outcome
 *  first abnormal exit, --timeout, wire-up time-out, SIGINT/SIGTERM,
 *  a lost io-manager ─► STOP(grace) to every io-manager
 * </pre>
 *
 * <p>This class is the job's public face and its event loop: it turns each event into the
 * decisions (stop the job, and why) and hands the work to the class of each role:
 * <ul>
 *   <li>{@link ControlListener}: the rendezvous port, its connection threads and their authentication;
 *   <li>{@link JobRendezvous}: the io-managers and peers joining the job (LAUNCH, PEER_TABLE, stdin),
 *       and writing off an io-manager, with {@link PeerCommandLines} for their command lines;
 *   <li>{@link StacksCollector}: the stacks of the peers (this API, {@code cohort stacks}, SIGQUIT,
 *       --stacks-on-timeout);
 *   <li>{@link DebugSession}: --debug;
 *   <li>{@link JobStop}: stopping the job; {@link JobClock}: job control and the clock the time-outs
 *       run on;
 *   <li>{@link JobVerdict}: why the job ended, and its outcome;
 *   <li>{@link JobOutput}: the peers' output and the launcher's own lines between them.
 * </ul>
 *
 * <p>Threads: connection threads only parse frames, write output, and post
 * {@link ControllerEvent}s; one thread (the caller of {@link #run}) owns all job state, and every
 * role class above is owned by it, so ordering questions reduce to the order of the event queue.
 * The public methods may be called from any thread: they post events, or read state that is final
 * by then (stacks after the end, published by the collector's lock).
 *
 * <p>The rendezvous socket is bound on loopback when every host is this machine, otherwise on the
 * local address that routes to the hosts ({@link Rendezvous}); each host's io-manager and peers are
 * told the address that reaches them.
 *
 * <p>An io-manager whose connection ends before it reported all its peers is <em>lost</em>: its
 * peers are written off (the controller closes their control connections and kills its agent
 * process, so nothing is left running there), the rest of the job is stopped, and the job fails
 * with {@link ExitCodes#INTERNAL_ERROR}, as with one host.
 *
 * <p><b>--core-dir.</b> Each peer gets its own crash-file directory ({@link CrashDirectories}); the
 * files found there after an exit come back in EXITED, and the root cause's are named in the
 * summary line.
 */
public final class Controller {
    /** After the last exit, how long to wait for control connections to end before deciding anyway. */
    static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(3);
    /** The shortest and longest time the peers may be given to answer a stacks query. */
    public static final Duration STACKS_TIMEOUT_MIN = StacksCollector.TIMEOUT_MIN;
    public static final Duration STACKS_TIMEOUT_MAX = StacksCollector.TIMEOUT_MAX;
    private static final long TICK_MILLIS = 100;
    private final JobSpec spec;
    private final HostPlan plan;
    private final Placement placement;
    private final String jobId;
    /**
     * The job's secret: to each io-manager on its standard input (a pipe, or ssh's encrypted channel),
     * from there into its peers' environment; never on a command line, in a frame or in a log.
     */
    private final JobSecret secret;
    /** Lets a {@code STACKS_QUERY} in; unlike the job key it cannot make anyone a peer. */
    private final String stacksToken;
    private final BlockingQueue<ControllerEvent> events = new LinkedBlockingQueue<>();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean done;
    /** Guards {@link #loopEnded}: a suspension is either queued while the event loop runs or answered at once. */
    private final Object loopLock = new Object();
    private boolean loopEnded;
    private volatile JobRegistry registry;

    // ---- the roles: owned by the event thread; their class comments say what other threads may call ----
    private final ExitTracker tracker;
    private final JobClock clock = new JobClock();
    private final DebugSession debug;
    private final JobRendezvous rendezvous;
    private final JobVerdict verdict;
    private final JobOutput output;
    private final JobStop stop;
    private final StacksCollector stacks;

    // ---- the event loop's own state (event thread) ----
    private int port;
    private int pendingConnections;
    private long allExitedNanos;
    /** Past --timeout, its stacks are being collected and printed before the job is stopped. */
    private boolean timeoutStacksPending;

    /** One host, this machine, started locally: the job of {@code cohort run} without --hosts. */
    public Controller(JobSpec spec, LaunchAgent agent, InputStream stdin, OutputStream stdout, OutputStream stderr,
                      PrintStream log) {
        this(spec, new HostPlan(Placement.singleHost(HostName.local(), spec.size()), agent, null), stdin, stdout,
                stderr, log);
    }

    public Controller(JobSpec spec, HostPlan plan, InputStream stdin, OutputStream stdout, OutputStream stderr,
                      PrintStream log) {
        if (plan.placement().size() != spec.size()) {
            throw new IllegalArgumentException("the placement is for " + plan.placement().size() + " ranks, the job has "
                    + spec.size());
        }
        this.spec = spec;
        this.plan = plan;
        this.placement = plan.placement();
        SecureRandom random = new SecureRandom();
        byte[] id = new byte[4];
        random.nextBytes(id);
        byte[] token = new byte[16];
        random.nextBytes(token);
        this.jobId = HexFormat.of().formatHex(id);
        this.secret = JobSecret.generate();
        this.tracker = new ExitTracker(jobId, placement.hostPerRank());
        boolean peersHere = plan.agent() instanceof LocalLaunchAgent || plan.agent() instanceof NetnsLaunchAgent;
        this.stacksToken = HexFormat.of().formatHex(token);
        this.debug = new DebugSession(spec, placement, jobId, this::printLineOnStderr, events::add);
        this.rendezvous = new JobRendezvous(spec, plan, jobId, secret, tracker, clock,
                new PeerCommandLines(spec, placement, jobId, peersHere), debug, stdin, this::printLineOnStderr, events::add);
        this.verdict = new JobVerdict(jobId, spec, tracker);
        this.output = new JobOutput(spec, jobId, stdout, stderr, log, () -> done);
        this.stop = new JobStop(spec, tracker, clock, rendezvous, output::release);
        this.stacks = new StacksCollector(spec, placement, jobId, tracker, rendezvous, clock, peersHere, () -> done,
                events::add);
    }

    public String jobId() {
        return jobId;
    }

    /** Told of every peer an io-manager started, on the controller's loop thread: it must not block. */
    @FunctionalInterface
    public interface PeerStartListener {
        void started(int rank, String host, long pid);
    }

    private volatile PeerStartListener peerStarted;

    /** Sets the listener for started peers (the cluster's scheduling); call before {@link #run}. */
    public void onPeerStarted(PeerStartListener listener) {
        this.peerStarted = listener;
    }

    private volatile Consumer<JobStacks> timeoutStacks;
    private volatile Duration timeoutStacksWait;

    /**
     * When the job exceeds {@code --timeout}, collect its stacks first (each peer has {@code wait}
     * to answer) and give them to {@code printer}, then stop it; {@code printer} runs on a pool
     * thread, not the event thread. Call before {@link #run}.
     */
    public void onTimeoutStacks(Duration wait, Consumer<JobStacks> printer) {
        this.timeoutStacksWait = wait;
        this.timeoutStacks = printer;
    }

    /**
     * Registers the job in {@code registry} once its rendezvous port is open, and removes it at the
     * end, so that {@code cohort stacks} finds it; call before {@link #run}. A registry that cannot
     * be written costs one line on the log, never the job.
     */
    public void register(JobRegistry registry) {
        this.registry = registry;
    }

    /**
     * Collects the stacks of every peer: each connected peer is asked, and has {@code timeout}
     * (clamped to {@link #STACKS_TIMEOUT_MIN}..{@link #STACKS_TIMEOUT_MAX}) to answer; the others are
     * reported as not joined, left, exited or silent. Any thread may call this, also before {@link #run}
     * or after the job ended (every rank then counts as gone).
     *
     * <p>The future completes on the controller's event thread: wait for it with {@code get}, or
     * attach only quick, non-blocking stages.
     */
    public CompletableFuture<JobStacks> collectStacks(Duration timeout) {
        return stacks.collect(timeout);
    }

    /**
     * Writes a block of the launcher's own lines to its stderr between the peers' lines (the merged
     * stacks on SIGQUIT); before the job's output is set up, or after it is closed, straight to the log.
     * Never waits for the reader of stderr, so any thread may call it.
     */
    public void printOnStderr(String block) {
        output.print(block);
    }

    /**
     * One line of the launcher's own for its stderr (--verbose, the cluster's notices), in order with
     * the peers' stderr lines and never inside a peer's unfinished line; see {@link #printOnStderr}.
     */
    public void printLineOnStderr(String line) {
        printOnStderr(line + System.lineSeparator());
    }

    /** Asks a running job to stop (SIGINT/SIGTERM to the launcher); a no-op once it has finished. */
    public void interrupt() {
        if (!done) {
            events.add(new Interrupt());
        }
        output.limitStall(); // the job may have ended and wait for a reader that takes nothing
    }

    /**
     * Job control (SIGTSTP, Ctrl-Z): stops every peer on every host (SIGSTOP to its process group,
     * by its io-manager) and holds the time-outs. The future completes once the io-managers have
     * been told, or at once if the job is not running; the launcher may then stop itself.
     */
    public CompletableFuture<Void> suspend() {
        CompletableFuture<Void> told = new CompletableFuture<>();
        synchronized (loopLock) {
            if (!loopEnded) {
                events.add(new Suspend(told)); // answered by the event thread, or as its loop ends
                return told;
            }
        }
        told.complete(null);
        return told;
    }

    /** Job control (SIGCONT, fg or bg): continues the peers {@link #suspend} stopped; a no-op otherwise. */
    public void resume() {
        if (!done) {
            events.add(new Resume());
        }
    }

    /** Waits until {@link #run} has written all output and the summary; true if it has. */
    public boolean awaitFinished(long millis) throws InterruptedException {
        return finished.await(millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Runs the job to its end: every peer exited and reported, all output written and flushed, the
     * summary line (if any) printed.
     *
     * @throws LaunchException if no address reaches the hosts or an io-manager cannot even be started
     */
    public JobOutcome run() throws LaunchException, IOException {
        Rendezvous address = Rendezvous.choose(plan);
        ServerSocket server = new ServerSocket();
        try {
            try {
                server.bind(address.bind(), 128);
            } catch (IOException e) {
                throw new LaunchException("cannot listen on " + address.bind().getAddress().getHostAddress()
                        + " (" + e.getMessage() + "); give --controller-address with an address of this machine", e);
            }
            port = server.getLocalPort();
            OutputRouter router = output.open(() -> events.add(new OutputFailed()));
            registerJob(server);
            new ControlListener(spec, placement.hosts().size(), jobId, secret, stacksToken, router, debug, stacks,
                    this::printLineOnStderr, () -> done, events::add).start(server);
            rendezvous.startIoManagers(address, port);
            JobOutcome outcome = loop();
            endLoop();
            return output.finish(outcome, verdict, tracker);
        } finally {
            done = true;
            endLoop(); // also when the loop failed
            JobRegistry r = registry;
            if (r != null) {
                r.remove(jobId);
            }
            stacks.end(events);
            try {
                server.close();
            } catch (IOException ignored) {
                // Closing at the end.
            }
            rendezvous.closeConnections();
            debug.close(); // no tmux session outlives its job
            output.close(); // written already, unless the job failed to start
            rendezvous.reapWrittenOff();
            finished.countDown();
        }
    }

    /** The registry entry: the rendezvous as this machine reaches it (loopback for a wildcard bind). */
    private void registerJob(ServerSocket server) {
        JobRegistry r = registry;
        if (r == null) {
            return;
        }
        InetAddress bound = server.getInetAddress();
        String address = (bound == null || bound.isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : bound).getHostAddress();
        try {
            r.register(new JobRegistry.Entry(jobId, ProcessHandle.current().pid(), JobRegistry.currentProcessStartMillis(),
                    address, port, stacksToken, spec.size(), spec.mainClass(), System.currentTimeMillis()));
        } catch (IOException | RuntimeException e) {
            printLineOnStderr("cohort: job " + jobId + " is not registered for 'cohort stacks': " + e.getMessage());
        }
    }

    private JobOutcome loop() {
        for (;;) {
            ControllerEvent e;
            try {
                e = events.poll(stacks.pollNanos(TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS)), TimeUnit.NANOSECONDS);
            } catch (InterruptedException ie) {
                e = new Interrupt();
            }
            if (e != null) {
                handle(e);
            }
            checkDeadlines();
            if (allExitedNanos == 0 && tracker.allExited()) {
                allExitedNanos = System.nanoTime();
            }
            if (finishedJob()) {
                return verdict.outcome(output.failure(), timeoutStacks != null);
            }
        }
    }

    private void handle(ControllerEvent e) {
        if (e instanceof Accepted) {
            pendingConnections++;
        } else if (e instanceof Unidentified u) {
            pendingConnections--;
            if (u.conn() != null) {
                u.conn().close();
            }
        } else if (e instanceof IoManagerHello h) {
            pendingConnections--;
            String failure = rendezvous.ioManagerHello(h, stop.stopping());
            if (failure != null) {
                verdict.launchFailed(failure);
                stop.stop();
            }
        } else if (e instanceof IoManagerClosed c) {
            IoManagerLink link = rendezvous.linkOf(c.conn());
            if (link != null && !link.gone && !rendezvous.allReported(link)) {
                lose(link, "the io-manager on " + link.host + (c.failure() == null ? " closed its connection"
                        : " stopped answering (" + c.failure() + ")") + " before all its peers were reported");
            }
        } else if (e instanceof IoManagerExited x) {
            // Once connected, the connection decides (an ssh client may end while its io-manager
            // lives on); before that, an exit is a failure to start.
            IoManagerLink link = rendezvous.links().get(x.link());
            if (link.conn == null && !link.gone) {
                verdict.launchFailed("the io-manager on " + link.host + " exited with status " + x.status()
                        + " before connecting; run with --verbose to see its command line");
                rendezvous.writeOff(link);
                stop.stop();
            }
        } else if (e instanceof Started s) {
            if (spec.verbose() && rendezvous.owns(s.from(), s.rank())) {
                printLineOnStderr("cohort: rank " + s.rank() + " started as pid " + s.pid() + " on " + placement.hostOf(s.rank()));
            }
            if (peerStarted != null && rendezvous.owns(s.from(), s.rank())) {
                peerStarted.started(s.rank(), placement.hostOf(s.rank()), s.pid());
            }
        } else if (e instanceof StartFailed f) {
            if (rendezvous.owns(f.from(), f.rank()) && !tracker.hasExited(f.rank())) {
                tracker.exited(f.rank(), ExitCodes.LAUNCH_FAILURE, false);
                verdict.launchFailed("rank " + f.rank() + " on " + placement.hostOf(f.rank()) + " could not be started: "
                        + f.reason());
                stop.stop();
            }
        } else if (e instanceof Exited x) {
            ExitReport r = x.report();
            if (rendezvous.owns(x.from(), r.rank()) && !tracker.hasExited(r.rank())) {
                rendezvous.announceGone(r.rank(), r.status());
                tracker.crashFiles(r.rank(), r.crashFiles());
                if (tracker.exited(r.rank(), r.status(), r.stoppedByManager())) {
                    stop.abnormalExit(r.rank());
                }
                stop.settlePending();
                stacks.silenced(r.rank());
            }
        } else if (e instanceof DebuggerWaiting d) {
            if (rendezvous.owns(d.from(), d.rank())) {
                debug.waiting(d.rank(), d.port(), stop.stopping());
            }
        } else if (e instanceof PeerHello h) {
            pendingConnections--;
            rendezvous.peerHello(h, stop.stopping());
        } else if (e instanceof PeerFailure f) {
            Integer rank = rendezvous.rankOf(f.conn());
            if (rank != null) {
                tracker.peerFailure(rank, f.lostPeer(), f.reason());
            }
        } else if (e instanceof PeerAwaitedClosed a) {
            Integer rank = rendezvous.rankOf(a.conn());
            if (rank != null) {
                tracker.awaitedClosed(rank, a.closedPeer());
                stop.settlePending();
            }
        } else if (e instanceof PeerClosed c) {
            Integer rank = rendezvous.rankOf(c.conn());
            if (rank != null) {
                tracker.controlClosed(rank);
                rendezvous.left(rank);
                stacks.silenced(rank);
                stop.settlePending();
            }
            c.conn().close();
        } else if (e instanceof Suspend s) {
            suspendJob();
            s.told().complete(null);
        } else if (e instanceof Resume) {
            resumeJob();
        } else if (e instanceof Interrupt) {
            if (verdict.interrupt()) {
                stop.stop();
            }
        } else if (e instanceof OutputFailed) {
            if (verdict.outputFails()) {
                stop.stop(); // its output has nowhere to go: running on would lose it
            }
        } else if (e instanceof CollectStacks c) {
            stacks.start(c);
        } else if (e instanceof TimeoutStacksShown) {
            if (!stop.stopping() && !tracker.allExited()) {
                if (!stop.failurePending()) { // a failure already under way is what ends the job
                    verdict.timedOut();
                }
                stop.stop();
            }
        } else if (e instanceof StacksAnswer a) {
            stacks.answered(a);
        } else if (e instanceof StacksQueryOpened) {
            pendingConnections--;
        }
    }

    /**
     * The event loop has returned (the job ended; its output may still drain for long): suspensions
     * asked for from now on, and those queued behind the end, are answered at once, so the launcher
     * stops at once on Ctrl-Z instead of after {@code JobControl}'s wait.
     */
    private void endLoop() {
        synchronized (loopLock) {
            loopEnded = true;
        }
        for (ControllerEvent e : events) {
            if (e instanceof Suspend s) {
                s.told().complete(null);
            }
        }
    }

    /** An io-manager's connection ended early: write it off and stop the rest of the job. */
    private void lose(IoManagerLink link, String why) {
        verdict.ioManagerLost(why);
        rendezvous.writeOff(link);
        stop.stop();
    }

    /** Job control: every connected io-manager stops its peers; one that connects later, once it launched them. */
    private void suspendJob() {
        if (!clock.suspend(stop.stopping())) {
            return;
        }
        if (spec.verbose()) {
            printLineOnStderr("cohort: suspending the job (SIGTSTP); fg, bg or SIGCONT to the launcher continues it");
        }
        rendezvous.tellLaunched(ControlMessageType.SUSPEND);
    }

    private void resumeJob() {
        if (!clock.resume()) {
            return;
        }
        if (spec.verbose()) {
            printLineOnStderr("cohort: continuing the job (SIGCONT)");
        }
        rendezvous.tellLaunched(ControlMessageType.RESUME);
    }

    private void checkDeadlines() {
        stacks.checkDeadlines();
        if (clock.suspended()) {
            return; // no peer can connect, answer or end meanwhile: the time-outs resume with the job
        }
        stop.settlePending();
        long now = clock.now();
        long wireup = TimeUnit.SECONDS.toNanos(spec.wireupTimeoutSeconds());
        for (IoManagerLink link : rendezvous.links()) {
            if (link.conn == null && !link.gone && now - rendezvous.launchNanos() > wireup) {
                verdict.launchFailed("the io-manager on " + link.host + " did not connect within "
                        + spec.wireupTimeoutSeconds() + " s");
                rendezvous.writeOff(link);
                stop.stop();
            }
        }
        // A program that never calls Cohort.init() never says hello; only a job where some peer is
        // waiting for the table can time out in wire-up. Under --debug a peer may wait for its
        // debugger's user for as long as it takes.
        if (!stop.stopping() && spec.debug() == null) {
            List<Integer> missing = rendezvous.pastWireup(now, wireup);
            if (missing != null) {
                verdict.launchFailed((missing.size() == 1 ? "rank " : "ranks ") + JobRendezvous.join(missing)
                        + " never connected within " + spec.wireupTimeoutSeconds()
                        + " s (wire-up time-out); check that every peer calls Cohort.init()");
                stop.stop();
            }
        }
        if (spec.timeoutSeconds() > 0 && !stop.stopping() && !timeoutStacksPending
                && now - rendezvous.launchNanos() > TimeUnit.SECONDS.toNanos(spec.timeoutSeconds())) {
            Consumer<JobStacks> printer = timeoutStacks;
            if (printer == null || stop.failurePending()) {
                if (!stop.failurePending()) { // a failure already under way is what ends the job
                    verdict.timedOut();
                }
                stop.stop();
                return;
            }
            // Where the peers were when the time ran out: collected and printed before they are
            // stopped. Until then the job is not "timed out": one that ends by itself, or whose
            // peer fails, in the meantime ends as it would have.
            timeoutStacksPending = true;
            stacks.startForTimeout(timeoutStacksWait, printer, output::closing, this::printLineOnStderr);
        }
    }

    private boolean finishedJob() {
        long now = System.nanoTime();
        if (!tracker.allExited()) {
            if (stop.overdue()) {
                String lost = stop.giveUp();
                verdict.ioManagerLost(lost);
                return true;
            }
            return false;
        }
        return settled(tracker.allSettled(), pendingConnections, rendezvous.hellos(), spec.size()) || now - allExitedNanos > SETTLE_NANOS;
    }

    /**
     * Whether a job whose peers have all exited may end now. A control connection that has not sent
     * its first frame yet may be a late peer's hello, whose report would still count, but only while
     * some rank has not said hello; once every rank has, it is a stranger's (a port scan, a stray
     * client) or a {@code cohort stacks} query's, and waiting for it would only delay the end.
     */
    static boolean settled(boolean allSettled, int pendingConnections, int hellos, int size) {
        return allSettled && (pendingConnections == 0 || hellos == size);
    }
}

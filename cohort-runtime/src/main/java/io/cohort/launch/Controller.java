package io.cohort.launch;

import io.cohort.stacks.JobStacks;
import io.cohort.stacks.PeerStacks;
import io.cohort.stacks.RankStacks;
import io.cohort.stacks.StacksCodec;
import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlMessageType;
import io.cohort.wireup.JobEnvironment;
import io.cohort.wireup.PeerRecord;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * <p>The rendezvous socket is bound on loopback when every host is this machine, otherwise on the
 * local address that routes to the hosts ({@link Rendezvous}); each host's io-manager and peers are
 * told the address that reaches them.
 *
 * <p>An io-manager whose connection ends before it reported all its peers is <em>lost</em>: its
 * peers are written off (the controller closes their control connections and kills its agent
 * process, so nothing is left running there), the rest of the job is stopped, and the job fails
 * with {@link ExitCodes#INTERNAL_ERROR}, as with one host.
 *
 * <p>Connection threads only parse frames, write output, and post events; one thread (the caller of
 * {@link #run}) owns all job state, so ordering questions reduce to the order of the event queue.
 *
 * <p><b>--debug.</b> The chosen ranks start with a JDWP agent that listens on an ephemeral port and
 * keeps the JVM suspended; the agent's "Listening for transport dt_socket at address: P" line, the
 * first of its kind on the peer's stdout, is taken out of the output and replaced by the launcher's
 * own line saying how to attach. Once every chosen rank listens, {@link DebuggerWindows} opens the
 * tmux session. The wire-up time-out does not apply: a peer may sit at a breakpoint for as long as
 * the user likes. The agent binds 127.0.0.1 when the peer runs on this machine, else the address its
 * host reached the launcher from (JDWP has no authentication: anyone who reaches that port controls
 * the JVM).
 *
 * <p><b>--core-dir.</b> Each peer gets its own crash-file directory ({@link CrashDirectories}); the
 * files found there after an exit come back in EXITED, and the root cause's are named in the
 * summary line.
 *
 * <p>Stacks ({@link #collectStacks}, or a {@code STACKS_QUERY} with the job's stacks token on the
 * rendezvous port): the event thread sends {@code STACKS_REQUEST} to every connected peer and
 * completes the collection when all have answered, or at its deadline, or when the job ends; ranks
 * that are not connected, have exited, left or stay silent are reported as such. A query's
 * connection thread waits for the collection and writes the answer itself, so a slow reader never
 * holds the event thread.
 */
public final class Controller {
    /**
     * Flags that make the io-manager's JVM start fast; it does little work, and nobody needs to see
     * it in {@code jps} (no perf-data file).
     */
    public static final List<String> IO_MANAGER_JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-XX:-UsePerfData");
    /** The class-data-sharing archive of the io-manager made by the build, beside cohort-core.jar. */
    public static final String IO_MANAGER_ARCHIVE = "cohort-iomanager.jsa";
    /**
     * Build-time only: the launcher's training run sets this to the file the io-manager it starts
     * should write its archive to ({@code -XX:ArchiveClassesAtExit}).
     */
    public static final String IO_MANAGER_TRAINING_PROP_NAME = "cohort.training.ioManagerArchive";
    public static final String PEER_MAIN = "io.cohort.wireup.PeerMain";
    /** The class-data-sharing archive of cohort-core made by the build, beside cohort-core.jar. */
    public static final String CORE_ARCHIVE = "cohort-core.jsa";
    /** After the last exit, how long to wait for control connections to end before deciding anyway. */
    static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(3);
    /** How long a new control connection may be silent inside its first frame before it is dropped. */
    static final int FIRST_FRAME_MILLIS = 30_000;
    /** After STOP, how much longer than the grace period to wait for exits before giving up on an io-manager. */
    static final long STOP_SLACK_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** How long an abnormal exit's stop waits for the peer's last control frames after its exit. */
    static final long REPORTS_WAIT_MILLIS = 500;
    /** The shortest and longest time the peers may be given to answer a stacks query. */
    public static final Duration STACKS_TIMEOUT_MIN = Duration.ofMillis(50);
    public static final Duration STACKS_TIMEOUT_MAX = Duration.ofSeconds(60);
    /** At the end, how long to wait for the agent processes of written-off io-managers to die. */
    private static final long REAP_MILLIS = 2000;
    private static final long TICK_MILLIS = 100;
    /**
     * The wire-up time-out peers are given under --debug: the most {@code COHORT_WIREUP_TIMEOUT}
     * allows (a day), i.e. none, since a peer of a debugged job may wait for a breakpoint's user.
     */
    static final int DEBUG_WIREUP_TIMEOUT_SECONDS = JobEnvironment.WIREUP_TIMEOUT_MAX_SECONDS;
    /** The JDWP agent's line on a peer's stdout, with the port it listens on. */
    private static final Pattern JDWP_LISTENING =
            Pattern.compile("Listening for transport dt_socket at address: (?:.*:)?(\\d+)\\s*");

    private final JobSpec spec;
    private final HostPlan plan;
    private final Placement placement;
    private final InputStream stdin;
    private final OutputStream stdout;
    private final OutputStream stderr;
    private final PrintStream log;
    private final String jobId;
    private final String jobKey;
    /** Lets a {@code STACKS_QUERY} in; unlike the job key it cannot make anyone a peer. */
    private final String stacksToken;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean done;
    /** Guards {@link #ended}: a stacks collection is either queued before the end or answered at once. */
    private final Object endLock = new Object();
    /** Guards {@link #loopEnded}: a suspension is either queued while the event loop runs or answered at once. */
    private final Object loopLock = new Object();
    private boolean loopEnded;
    private boolean ended;
    private volatile JobRegistry registry;

    // ---- state owned by the event thread ----
    private ExitTracker tracker;
    private OutputRouter router;
    private Rendezvous rendezvous;
    private int port;
    private final List<IoManagerLink> links = new ArrayList<>();
    private final Map<ControlConnection, Integer> peerRanks = new HashMap<>();
    private final ControlConnection[] peerConnections;
    private final PeerRecord[] records;
    private int hellos;
    private long firstHelloNanos;
    private boolean tableSent;
    private int pendingConnections;
    private long launchNanos;
    private long launchSentNanos;
    private boolean stopping;
    private long stopNanos;
    /** Abnormal exits not yet acted on, by rank: the job clock of each exit ({@link #settlePendingStop}). */
    private final Map<Integer, Long> stopPending = new java.util.TreeMap<>();
    private long allExitedNanos;
    private String launchFailure;
    private String ioManagerLost;
    private boolean timedOut;
    /** Past --timeout, its stacks are being collected and printed before the job is stopped. */
    private boolean timeoutStacksPending;
    private boolean interrupted;
    /** Suspended by job control (SIGTSTP): the peers are stopped, the time-outs wait. */
    private boolean suspended;
    /** SUSPEND went to the io-managers, and no RESUME or STOP since. */
    private boolean peersSuspended;
    /** How many times the peers were suspended: a stacks request during which that happened blames no rank for the stop. */
    private int suspensions;
    private long suspendedSinceNanos;
    /** Time the job spent suspended, which --timeout and the wire-up time-out do not count. */
    private long suspendedNanos;
    /** Per debugged rank, the port its JDWP agent reported (0: not yet); written by connection threads. */
    private final AtomicIntegerArray debugPorts;
    /** Per debugged rank, the address its agent binds (set at LAUNCH). */
    private final String[] debugHosts;
    /** Debugged ranks whose agent listens, and its HOST:PORT. */
    private final TreeMap<Integer, String> debugAddresses = new TreeMap<>();
    private DebuggerWindows debugWindows;
    /** Ranks whose control connection has closed. */
    private final boolean[] peerLeft;
    private final Map<Integer, StacksCollection> collections = new HashMap<>();
    private int nextStacksRequest;

    /** One io-manager: the host it serves, its ranks, its agent process and its connection. */
    private static final class IoManagerLink {
        final String host;
        final int[] ranks;
        Process process;
        ControlConnection conn;
        /** Flow control of its ranks' standard input; null if the io-manager does not acknowledge it. */
        StdinWindow stdinWindow;
        /** LAUNCH sent. */
        boolean launched;
        /** Written off: its unreported ranks count as killed, its process and connection are ended. */
        boolean gone;

        IoManagerLink(String host, int[] ranks) {
            this.host = host;
            this.ranks = ranks;
        }
    }

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
        this.stdin = stdin;
        this.stdout = stdout;
        this.stderr = stderr;
        this.log = log;
        SecureRandom random = new SecureRandom();
        byte[] id = new byte[4];
        random.nextBytes(id);
        byte[] key = new byte[16];
        random.nextBytes(key);
        byte[] token = new byte[16];
        random.nextBytes(token);
        this.jobId = HexFormat.of().formatHex(id);
        this.jobKey = HexFormat.of().formatHex(key);
        this.stacksToken = HexFormat.of().formatHex(token);
        this.peerLeft = new boolean[spec.size()];
        this.peerConnections = new ControlConnection[spec.size()];
        this.records = new PeerRecord[spec.size()];
        this.debugPorts = new AtomicIntegerArray(spec.size());
        this.debugHosts = new String[spec.size()];
        for (int h = 0; h < placement.hosts().size(); h++) {
            links.add(new IoManagerLink(placement.hosts().get(h), placement.ranksOn(h)));
        }
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
        CompletableFuture<JobStacks> f = new CompletableFuture<>();
        long millis = Math.max(STACKS_TIMEOUT_MIN.toMillis(), Math.min(STACKS_TIMEOUT_MAX.toMillis(), timeout.toMillis()));
        synchronized (endLock) {
            if (!ended) {
                events.add(new CollectStacks(millis, f));
                return f;
            }
        }
        // The event thread is gone and its state final (published by endLock).
        startStacks(new CollectStacks(millis, f));
        return f;
    }

    /**
     * Writes a block of the launcher's own lines to its stderr between the peers' lines (the merged
     * stacks on SIGQUIT); before the job's output is set up, or after it is closed, straight to the log.
     * Never waits for the reader of stderr, so any thread may call it.
     */
    public void printOnStderr(String block) {
        OutputRouter r = outputRouter;
        if (r != null && !done && !outputClosing) {
            r.writeLauncherBlock(block.getBytes(StandardCharsets.UTF_8));
        } else {
            log.print(block);
            log.flush();
        }
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
        OutputRouter r = outputRouter;
        if (r != null) {
            r.limitStall(OUTPUT_STALL_NANOS); // the job may have ended and wait for a reader that takes nothing
        }
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
        tracker = new ExitTracker(jobId, placement.hostPerRank());
        rendezvous = Rendezvous.choose(plan);
        ServerSocket server = new ServerSocket();
        try {
            try {
                server.bind(rendezvous.bind(), 128);
            } catch (IOException e) {
                throw new LaunchException("cannot listen on " + rendezvous.bind().getAddress().getHostAddress()
                        + " (" + e.getMessage() + "); give --controller-address with an address of this machine", e);
            }
            port = server.getLocalPort();
            try {
                router = new OutputRouter(spec.size(), spec.tagOutput(), spec.outputPattern(), jobId, stdout, stderr);
            } catch (IOException e) {
                throw new LaunchException(e.getMessage(), e);
            }
            router.onFailure(() -> events.add(new OutputFailed()));
            outputRouter = router;
            registerJob(server);
            Thread acceptor = new Thread(() -> accept(server), "cohort-accept");
            acceptor.setDaemon(true);
            acceptor.start();
            startIoManagers();
            JobOutcome outcome = loop();
            endLoop();
            // A job that ends by itself waits for its reader, as any program writing to a pipe does. One
            // the user or --timeout stopped gives up the output a stalled reader does not take.
            long stall = interrupted || timedOut ? OUTPUT_STALL_NANOS : Long.MAX_VALUE;
            OutputRouter.Unwritten unwritten = router.drain(stall);
            if (outcome.exitCode() == ExitCodes.SUCCESS && router.failure() != null) {
                outcome = outputFailedOutcome(router.failure(), false); // found by the last flush
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
            outputClosing = true; // from now on stacks blocks go straight to the log
            router.close(stall);
            log.flush();
            return outcome;
        } finally {
            done = true;
            endLoop(); // also when the loop failed
            JobRegistry r = registry;
            if (r != null) {
                r.remove(jobId);
            }
            endStacks();
            try {
                server.close();
            } catch (IOException ignored) {
                // Closing at the end.
            }
            for (IoManagerLink link : links) {
                if (link.conn != null) {
                    link.conn.close();
                }
            }
            for (ControlConnection c : peerRanks.keySet()) {
                c.close();
            }
            if (debugWindows != null) {
                debugWindows.close(); // no tmux session outlives its job
            }
            if (router != null) {
                router.close(OUTPUT_STALL_NANOS); // written already, unless the job failed to start
            }
            reapWrittenOff();
            finished.countDown();
        }
    }

    private volatile OutputRouter outputRouter;
    /** The job's output is being closed: a late block of the launcher's own goes straight to the log. */
    private volatile boolean outputClosing;

    /**
     * How long the reader of the launcher's stdout or stderr may take nothing before a job that was
     * stopped (SIGINT, SIGTERM, --timeout) gives up the rest of its output and ends.
     */
    static final long OUTPUT_STALL_NANOS = TimeUnit.SECONDS.toNanos(2);

    /** The line that says how much output a stalled reader did not take, or that was dropped while the job was stopped. */
    static String unwrittenLine(OutputRouter.Unwritten u) {
        String where = u.stdout() > 0 && u.stderr() > 0 ? "its standard output and error"
                : u.stdout() > 0 ? "its standard output" : "its standard error";
        return "cohort: " + u.total() + " bytes of the job's output were not written: " + where
                + " took nothing while the job was being stopped";
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

    private void startIoManagers() throws LaunchException {
        if (spec.verbose()) {
            printLineOnStderr("cohort: job " + jobId + ": " + spec.size() + (spec.size() == 1 ? " peer on " : " peers on ") + placement + ", controller at "
                    + String.join(", ", new java.util.LinkedHashSet<>(links.stream()
                            .map(l -> rendezvous.addressFor(l.host, port)).toList())));
        }
        for (int i = 0; i < links.size(); i++) {
            IoManagerLink link = links.get(i);
            List<String> command = new ArrayList<>(ioManagerJvm());
            command.add(rendezvous.addressFor(link.host, port));
            command.add(jobId);
            command.add(jobKey);
            command.add(link.host);
            if (spec.verbose()) {
                printLineOnStderr("cohort: io-manager on " + link.host + ": " + String.join(" ", plan.agent().command(link.host, command)));
            }
            try {
                link.process = plan.agent().start(link.host, command);
            } catch (IOException e) {
                // Those already started have launched nothing yet: end them with us.
                links.stream().filter(l -> l.process != null).forEach(l -> l.process.destroyForcibly());
                throw new LaunchException("cannot start the io-manager on " + link.host + " (" + e.getMessage()
                        + "); " + plan.agent().startHint(), e);
            }
            int index = i;
            link.process.onExit().thenAccept(p -> events.add(new IoManagerExited(index, p.exitValue())));
        }
        launchNanos = jobClock();
    }

    /** The io-manager's JVM command up to and including its main class (its arguments follow). */
    public static List<String> ioManagerJvm() {
        List<String> command = new ArrayList<>();
        command.add(CohortHome.javaExecutable());
        command.addAll(IO_MANAGER_JVM_FLAGS);
        command.addAll(ioManagerArchiveFlags());
        command.add("-cp");
        command.add(CohortHome.ioManagerClasspath());
        command.add(IoManagerMain.class.getName());
        return command;
    }

    /** Class-data sharing for the io-manager: use the build's archive, or record it in the training run. */
    private static List<String> ioManagerArchiveFlags() {
        String training = System.getProperty(IO_MANAGER_TRAINING_PROP_NAME);
        if (training != null && !training.isBlank()) {
            return List.of("-XX:ArchiveClassesAtExit=" + training, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
        }
        java.nio.file.Path archive = CohortHome.coreJar().resolveSibling(IO_MANAGER_ARCHIVE);
        if (java.nio.file.Files.isReadable(archive)) {
            // Skipped silently by a JVM the archive does not match; the io-manager then only starts slower.
            return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
        }
        return List.of();
    }

    private JobOutcome loop() {
        for (;;) {
            Event e;
            try {
                e = events.poll(pollNanos(), TimeUnit.NANOSECONDS);
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
                return outcome();
            }
        }
    }

    // ---- events ----------------------------------------------------------------------------------

    private interface Event {
    }

    private record Accepted() implements Event {
    }

    private record Unidentified(ControlConnection conn) implements Event {
    }

    private record IoManagerHello(ControlConnection conn, String jobId, String jobKey, String host, long pid,
                                  StdinWindow stdinWindow) implements Event {
    }

    /** An io-manager's connection ended: at end of stream ({@code failure} null), or failed (its host unreachable). */
    private record IoManagerClosed(ControlConnection conn, String failure) implements Event {
    }

    private record IoManagerExited(int link, int status) implements Event {
    }

    private record Started(ControlConnection from, int rank, long pid) implements Event {
    }

    private record StartFailed(ControlConnection from, int rank, String reason) implements Event {
    }

    private record Exited(ControlConnection from, ExitReport report) implements Event {
    }

    private record DebuggerWaiting(ControlConnection from, int rank, int port) implements Event {
    }

    private record PeerHello(ControlConnection conn, PeerRecord.Hello hello) implements Event {
    }

    /** A receive or probe of the peer failed because {@code closedPeer} had closed its world. */
    private record PeerAwaitedClosed(ControlConnection conn, int closedPeer) implements Event {
    }

    private record PeerFailure(ControlConnection conn, int lostPeer, String reason) implements Event {
    }

    private record PeerClosed(ControlConnection conn) implements Event {
    }

    private record Interrupt() implements Event {
    }

    private record Suspend(CompletableFuture<Void> told) implements Event {
    }

    private record Resume() implements Event {
    }

    /** The job's output could not be written (OutputRouter#failure). */
    private record OutputFailed() implements Event {
    }

    private boolean outputFailed;

    private record CollectStacks(long timeoutMillis, CompletableFuture<JobStacks> future) implements Event {
    }

    /** The stacks of a job past its --timeout were printed (or could not be): stop it now. */
    private record TimeoutStacksShown() implements Event {
    }

    /** A rank's answer: its stacks, or why they could not be read (stacks null). */
    private record StacksAnswer(ControlConnection conn, int requestId, PeerStacks stacks, String malformed)
            implements Event {
    }

    /** A stacks query identified itself: its connection is no longer pending. */
    private record StacksQueryOpened() implements Event {
    }

    /** One stacks collection in progress: a slot per rank, filled by answers, silences or the deadline. */
    private static final class StacksCollection {
        final int requestId;
        final long timeoutMillis;
        final long deadlineNanos;
        final RankStacks[] ranks;
        final CompletableFuture<JobStacks> future;
        /** {@link #suspensions} when the request went out. */
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

    private void handle(Event e) {
        if (e instanceof Accepted) {
            pendingConnections++;
        } else if (e instanceof Unidentified u) {
            pendingConnections--;
            if (u.conn() != null) {
                u.conn().close();
            }
        } else if (e instanceof IoManagerHello h) {
            pendingConnections--;
            ioManagerHello(h);
        } else if (e instanceof IoManagerClosed c) {
            IoManagerLink link = linkOf(c.conn());
            if (link != null && !link.gone && !allReported(link)) {
                lose(link, "the io-manager on " + link.host + (c.failure() == null ? " closed its connection"
                        : " stopped answering (" + c.failure() + ")") + " before all its peers were reported");
            }
        } else if (e instanceof IoManagerExited x) {
            // Once connected, the connection decides (an ssh client may end while its io-manager
            // lives on); before that, an exit is a failure to start.
            IoManagerLink link = links.get(x.link());
            if (link.conn == null && !link.gone) {
                if (launchFailure == null) {
                    launchFailure = "the io-manager on " + link.host + " exited with status " + x.status()
                            + " before connecting; run with --verbose to see its command line";
                }
                writeOff(link);
                stopJob();
            }
        } else if (e instanceof Started s) {
            if (spec.verbose() && owns(s.from(), s.rank())) {
                printLineOnStderr("cohort: rank " + s.rank() + " started as pid " + s.pid() + " on " + placement.hostOf(s.rank()));
            }
            if (peerStarted != null && owns(s.from(), s.rank())) {
                peerStarted.started(s.rank(), placement.hostOf(s.rank()), s.pid());
            }
        } else if (e instanceof StartFailed f) {
            if (owns(f.from(), f.rank()) && !tracker.hasExited(f.rank())) {
                tracker.exited(f.rank(), ExitCodes.LAUNCH_FAILURE, false);
                if (launchFailure == null) {
                    launchFailure = "rank " + f.rank() + " on " + placement.hostOf(f.rank()) + " could not be started: "
                            + f.reason();
                }
                stopJob();
            }
        } else if (e instanceof Exited x) {
            ExitReport r = x.report();
            if (owns(x.from(), r.rank()) && !tracker.hasExited(r.rank())) {
                announceGone(r.rank(), r.status());
                tracker.crashFiles(r.rank(), r.crashFiles());
                if (tracker.exited(r.rank(), r.status(), r.stoppedByManager()) && !stopping) {
                    stopPending.putIfAbsent(r.rank(), jobClock());
                }
                settlePendingStop();
                stacksSilenced(r.rank());
            }
        } else if (e instanceof DebuggerWaiting d) {
            if (owns(d.from(), d.rank())) {
                debuggerWaiting(d.rank(), d.port());
            }
        } else if (e instanceof PeerHello h) {
            pendingConnections--;
            peerHello(h);
        } else if (e instanceof PeerFailure f) {
            Integer rank = peerRanks.get(f.conn());
            if (rank != null) {
                tracker.peerFailure(rank, f.lostPeer(), f.reason());
            }
        } else if (e instanceof PeerAwaitedClosed a) {
            Integer rank = peerRanks.get(a.conn());
            if (rank != null) {
                tracker.awaitedClosed(rank, a.closedPeer());
                settlePendingStop();
            }
        } else if (e instanceof PeerClosed c) {
            Integer rank = peerRanks.get(c.conn());
            if (rank != null) {
                tracker.controlClosed(rank);
                peerLeft[rank] = true;
                stacksSilenced(rank);
                settlePendingStop();
            }
            c.conn().close();
        } else if (e instanceof Suspend s) {
            suspendJob();
            s.told().complete(null);
        } else if (e instanceof Resume) {
            resumeJob();
        } else if (e instanceof Interrupt) {
            if (!interrupted) {
                interrupted = true;
                stopJob();
            }
        } else if (e instanceof OutputFailed) {
            if (!outputFailed) {
                outputFailed = true;
                stopJob(); // its output has nowhere to go: running on would lose it
            }
        } else if (e instanceof CollectStacks c) {
            startStacks(c);
        } else if (e instanceof TimeoutStacksShown) {
            if (!stopping && !tracker.allExited()) {
                timedOut = stopPending.isEmpty(); // a failure already under way is what ends the job
                stopJob();
            }
        } else if (e instanceof StacksAnswer a) {
            stacksAnswered(a);
        } else if (e instanceof StacksQueryOpened) {
            pendingConnections--;
        }
    }

    // ---- stacks (event thread, or any thread once the job has ended) ----------------------------

    private void startStacks(CollectStacks c) {
        StacksCollection col = new StacksCollection(++nextStacksRequest, c.timeoutMillis(), spec.size(), c.future(),
                suspensions);
        ControlFrame request = ControlFrame.build(ControlMessageType.STACKS_REQUEST).putInt(col.requestId).frame();
        for (int r = 0; r < spec.size(); r++) {
            RankStacks silent = silence(r);
            if (silent == null && peersSuspended) {
                silent = RankStacks.silent(r, placement.hostOf(r), pidOf(r), RankStacks.Answer.NO_ANSWER,
                        "is suspended with the job (Ctrl-Z); fg or SIGCONT to the launcher continues it");
            }
            if (silent == null && !done && peerConnections[r].trySend(request)) {
                col.outstanding++;
            } else {
                col.ranks[r] = silent != null ? silent : RankStacks.silent(r, placement.hostOf(r), pidOf(r),
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
        Integer status = tracker == null ? null : tracker.exitStatus(rank);
        if (status != null) {
            return RankStacks.silent(rank, host, pidOf(rank), RankStacks.Answer.EXITED, ExitTracker.describeStatus(status));
        }
        if (peerConnections[rank] == null) {
            return RankStacks.silent(rank, host, -1, RankStacks.Answer.NOT_JOINED, done
                    ? "never joined the job"
                    : "has not joined the job: not in Cohort.init() yet, or not calling it");
        }
        if (peerLeft[rank] || done) {
            return RankStacks.silent(rank, host, pidOf(rank), RankStacks.Answer.LEFT, done
                    ? "was still running when the job ended"
                    : "has closed its control connection (finished with Cohort) and still runs");
        }
        return null;
    }

    private long pidOf(int rank) {
        return records[rank] == null ? -1 : records[rank].pid();
    }

    /** Whether every peer runs on this machine (the local or netns agent), so /proc and pids here are theirs. */
    private boolean peersOnThisMachine() {
        return plan.agent() instanceof LocalLaunchAgent || plan.agent() instanceof NetnsLaunchAgent;
    }

    /**
     * Why {@code rank} did not answer within the time-out: the job's suspension if one came during
     * the request; where its process is on this machine and cannot run (stopped, traced, in
     * uninterruptible sleep), that; otherwise only that it did not answer.
     */
    private String silentDetail(int rank, StacksCollection col) {
        if (peersSuspended || suspensions != col.suspensionsAtStart) {
            // Stopped by the job's own Ctrl-Z, or continued only a moment ago: not the rank's fault.
            return "was suspended with the job (Ctrl-Z) while its stacks were asked for; ask again once it runs";
        }
        String state = peersOnThisMachine() ? ProcStat.describeIdle(pidOf(rank)) : null;
        return state != null ? state : "did not answer within " + col.timeoutMillis + " ms";
    }

    private void stacksAnswered(StacksAnswer a) {
        Integer rank = peerRanks.get(a.conn());
        StacksCollection col = collections.get(a.requestId());
        if (rank == null || col == null || col.ranks[rank] != null) {
            return; // late (after the deadline), or not ours
        }
        col.ranks[rank] = a.stacks() != null ? RankStacks.answered(rank, placement.hostOf(rank), pidOf(rank), a.stacks())
                : RankStacks.silent(rank, placement.hostOf(rank), pidOf(rank), RankStacks.Answer.NO_ANSWER,
                        "sent a malformed answer (" + a.malformed() + ")");
        if (--col.outstanding == 0) {
            collections.remove(col.requestId);
            complete(col);
        }
    }

    /** {@code rank} exited or closed its connection: collections waiting for it need not wait longer. */
    private void stacksSilenced(int rank) {
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

    private void checkStacksDeadlines() {
        long now = System.nanoTime();
        for (Iterator<StacksCollection> it = collections.values().iterator(); it.hasNext(); ) {
            StacksCollection col = it.next();
            if (now - col.deadlineNanos >= 0) {
                for (int r = 0; r < col.ranks.length; r++) {
                    if (col.ranks[r] == null) {
                        col.ranks[r] = RankStacks.silent(r, placement.hostOf(r), pidOf(r), RankStacks.Answer.NO_ANSWER,
                                silentDetail(r, col));
                    }
                }
                it.remove();
                complete(col);
            }
        }
    }

    /** How long the loop may wait for an event: a tick, or less if a stacks collection falls due sooner. */
    private long pollNanos() {
        long wait = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
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
     * The event loop has returned (the job ended; its output may still drain for long): suspensions
     * asked for from now on, and those queued behind the end, are answered at once, so the launcher
     * stops at once on Ctrl-Z instead of after {@code JobControl}'s wait.
     */
    private void endLoop() {
        synchronized (loopLock) {
            loopEnded = true;
        }
        for (Event e : events) {
            if (e instanceof Suspend s) {
                s.told().complete(null);
            }
        }
    }

    /**
     * At the end of {@link #run}: collections still waiting, and those queued behind the end, are
     * answered with what is known; later ones are answered at once by {@link #collectStacks}.
     */
    private void endStacks() {
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
        for (Event e : events) {
            if (e instanceof CollectStacks c) {
                startStacks(c);
            }
        }
    }

    private IoManagerLink linkOf(ControlConnection conn) {
        for (IoManagerLink l : links) {
            if (l.conn == conn) {
                return l;
            }
        }
        return null;
    }

    /** True if {@code rank} is one of the ranks of the io-manager on {@code conn} (frames from others are dropped). */
    private boolean owns(ControlConnection conn, int rank) {
        IoManagerLink link = linkOf(conn);
        return link != null && rank >= 0 && rank < spec.size() && links.indexOf(link) == placement.hostIndexOf(rank);
    }

    private boolean allReported(IoManagerLink link) {
        for (int r : link.ranks) {
            if (!tracker.hasExited(r)) {
                return false;
            }
        }
        return true;
    }

    private void ioManagerHello(IoManagerHello h) {
        IoManagerLink link = null;
        if (jobId.equals(h.jobId()) && jobKey.equals(h.jobKey())) {
            for (IoManagerLink l : links) {
                if (l.host.equals(h.host()) && l.conn == null && !l.gone) {
                    link = l;
                    break;
                }
            }
        }
        if (link == null) {
            h.conn().close();
            return;
        }
        link.conn = h.conn();
        link.stdinWindow = h.stdinWindow();
        if (stopping) {
            writeOff(link); // stopped before the launch: the io-manager ends, having started nothing
            return;
        }
        String address = rendezvous.addressFor(link.host, port);
        String debugHost = spec.debug() == null ? null : debugBindAddress(link.conn);
        List<LaunchRequest.Peer> peers = new ArrayList<>();
        for (int r : link.ranks) {
            if (spec.debug() != null && spec.debug().includes(r)) {
                debugHosts[r] = debugHost;
            }
            List<String> command = peerCommand(r);
            if (spec.verbose()) {
                printLineOnStderr("cohort: rank " + r + " on " + link.host + ": " + String.join(" ", command));
            }
            peers.add(new LaunchRequest.Peer(r, command, peerEnvironment(r, address)));
        }
        ControlFrame launch = new LaunchRequest(spec.workingDirectory().toString(), peers).frame();
        if (launch.body().length + 1 > ControlFrame.MAX_LENGTH) {
            // The io-manager would refuse it as malformed and hang up: say what is wrong instead.
            if (launchFailure == null) {
                launchFailure = "the " + peers.size() + " peers on " + link.host + " need a launch request of "
                        + ((launch.body().length + (1 << 20) - 1) >> 20) + " MiB, more than one io-manager takes ("
                        + (ControlFrame.MAX_LENGTH >> 20) + " MiB); spread them over more hosts or shorten their"
                        + " command lines (classpath, --jvm-opt) and environment (-x)";
            }
            writeOff(link);
            stopJob();
            return;
        }
        link.conn.trySend(launch);
        link.launched = true;
        if (peersSuspended) {
            link.conn.trySend(ControlFrame.build(ControlMessageType.SUSPEND).frame()); // started, and stopped at once
        }
        for (int r : link.ranks) {
            if (!spec.stdin().includes(r)) {
                link.conn.trySend(ControlFrame.build(ControlMessageType.STDIN_CLOSE).putInt(r).frame());
            }
        }
        if (links.stream().allMatch(l -> l.launched)) {
            launchSentNanos = jobClock();
            startStdin();
        }
    }

    /** Once every io-manager has its peers: copy stdin to the ranks that read it, through their io-manager. */
    private void startStdin() {
        List<Integer> fed = new ArrayList<>();
        ControlConnection[] connOfRank = new ControlConnection[spec.size()];
        StdinWindow[] windowOfRank = new StdinWindow[spec.size()];
        for (int r = 0; r < spec.size(); r++) {
            connOfRank[r] = links.get(placement.hostIndexOf(r)).conn;
            windowOfRank[r] = links.get(placement.hostIndexOf(r)).stdinWindow;
            if (spec.stdin().includes(r)) {
                fed.add(r);
            }
        }
        if (fed.isEmpty()) {
            return;
        }
        // A terminal is read only in the foreground: a job put in the background runs on without it.
        java.util.function.BooleanSupplier mayRead = stdin == System.in && Foreground.stdinIsTerminal()
                ? Foreground::inForeground : () -> true;
        new StdinPump(stdin, fed.stream().mapToInt(Integer::intValue).toArray(), new StdinPump.Sink() {
            @Override
            public void stdin(int rank, byte[] bytes) throws InterruptedException {
                if (windowOfRank[rank] != null) {
                    windowOfRank[rank].take(rank, bytes.length); // back-pressure: the peer has not read the last MiB
                }
                connOfRank[rank].trySend(ControlFrame.build(ControlMessageType.STDIN).putInt(rank).putBytes(bytes).frame());
            }

            @Override
            public void stdinClosed(int rank) {
                connOfRank[rank].trySend(ControlFrame.build(ControlMessageType.STDIN_CLOSE).putInt(rank).frame());
            }
        }, mayRead).start();
    }

    /**
     * The address a debugged peer's JDWP agent binds: loopback when the io-manager (so the peer) runs
     * on this machine, else the address its host reached us from, which is also where jdb reaches it.
     */
    private static String debugBindAddress(ControlConnection conn) {
        InetAddress a = conn.remoteAddress();
        boolean here;
        try {
            here = a == null || a.isLoopbackAddress() || NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            here = false;
        }
        if (here) {
            return "127.0.0.1";
        }
        return a instanceof Inet6Address ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
    }

    /** The crash-file directory of one rank, or null without --core-dir. */
    private Path crashDirectory(int rank) {
        if (spec.crashRoot() == null) {
            return null;
        }
        return CrashDirectories.rankDirectory(CrashDirectories.jobDirectory(spec.crashRoot(), spec.mainClass(), jobId), rank);
    }

    /** A debugged rank's agent is listening: say how to attach; once all are, open the debugger windows. */
    private void debuggerWaiting(int rank, int debugPort) {
        if (debugAddresses.containsKey(rank) || debugHosts[rank] == null) {
            return;
        }
        String where = debugHosts[rank] + ":" + debugPort;
        debugAddresses.put(rank, where);
        printLineOnStderr("cohort: rank " + rank + " on " + placement.hostOf(rank) + " waits for a debugger: "
                + DebuggerWindows.attachCommand(where));
        if (debugAddresses.size() == spec.debug().ranks().size() && !stopping) {
            Path tmux = spec.debug().tmux() ? DebuggerWindows.findTmux() : null;
            debugWindows = new DebuggerWindows(jobId, tmux, spec.workingDirectory(), this::printLineOnStderr);
            SortedMap<Integer, String> addresses = new TreeMap<>(debugAddresses);
            DebuggerWindows windows = debugWindows;
            Thread t = new Thread(() -> windows.open(addresses), "cohort-debugger-windows");
            t.setDaemon(true);
            t.start();
        }
    }

    private List<String> peerCommand(int rank) {
        List<String> c = new ArrayList<>();
        c.add(CohortHome.javaExecutable());
        // cohort-core comes first on the classpath so that its class-data-sharing archive (a CDS
        // classpath must be a prefix of the runtime one) applies whatever the program's classpath is.
        java.nio.file.Path archive = CohortHome.coreJar().resolveSibling(CORE_ARCHIVE);
        if (java.nio.file.Files.isReadable(archive)) {
            c.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
        }
        if (debugHosts[rank] != null) {
            // Port 0: the agent picks a free one and prints it; suspend=y holds main until a debugger resumes it.
            c.add("-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=" + debugHosts[rank] + ":0");
        }
        Path crashDir = crashDirectory(rank);
        if (crashDir != null) {
            c.addAll(CrashDirectories.jvmFlags(crashDir)); // before the user's options, which may override them
        }
        c.addAll(spec.jvmOptions());
        List<String> cp = new ArrayList<>();
        cp.add(String.valueOf(CohortHome.coreJar()));
        cp.addAll(spec.classpath());
        c.add("-cp");
        c.add(String.join(File.pathSeparator, cp));
        c.add(PEER_MAIN);
        c.add(spec.mainClass());
        c.addAll(spec.programArgs());
        return c;
    }

    private Map<String, String> peerEnvironment(int rank, String address) {
        Map<String, String> env = new LinkedHashMap<>(spec.environment());
        env.put(JobEnvironment.JOB_ID, jobId);
        env.put(JobEnvironment.RANK, Integer.toString(rank));
        env.put(JobEnvironment.SIZE, Integer.toString(spec.size()));
        env.put(JobEnvironment.LOCAL_RANK, Integer.toString(placement.localRank(rank)));
        env.put(JobEnvironment.LOCAL_SIZE, Integer.toString(placement.localSize(rank)));
        String bindTo = env.getOrDefault(JobEnvironment.BIND_TO, "");
        if (bindTo.isEmpty() || bindTo.equals("auto")) {
            // Several hosts started here by the local or netns agent share this machine's processors,
            // and each one's io-manager would claim them all for its own peers: left unbound.
            if (peersOnThisMachine() && placement.hosts().size() > 1) {
                bindTo = "none";
                env.put(JobEnvironment.BIND_TO, bindTo);
            } else {
                bindTo = "auto"; // the default is sent unset: an older io-manager then starts the peer unbound
            }
        }
        if (bindTo.equals("core")) {
            // Hosts that the local or netns agent starts all share this machine's processors.
            env.put(JobEnvironment.BIND_INDEX, Integer.toString(peersOnThisMachine() ? rank : placement.localRank(rank)));
        } else if (bindTo.equals("auto")) {
            env.put(JobEnvironment.BIND_INDEX, Integer.toString(placement.localRank(rank)));
        }
        // The --hosts name: peers compare these to put shared memory within a host and TCP between hosts.
        env.put(JobEnvironment.HOST, placement.hostOf(rank));
        env.put(JobEnvironment.CONTROLLER, address);
        env.put(JobEnvironment.JOB_KEY, jobKey);
        env.put(JobEnvironment.WIREUP_TIMEOUT, Integer.toString(spec.debug() != null ? DEBUG_WIREUP_TIMEOUT_SECONDS
                : spec.wireupTimeoutSeconds()));
        Path crashDir = crashDirectory(rank);
        if (crashDir != null) {
            env.put(JobEnvironment.CRASH_DIR, crashDir.toString());
        }
        return env;
    }

    private void peerHello(PeerHello h) {
        PeerRecord.Hello hello = h.hello();
        int rank = hello.record.rank();
        String refusal = null;
        if (!jobId.equals(hello.jobId) || !jobKey.equals(hello.jobKey)) {
            refusal = "wrong job id or key";
        } else if (rank < 0 || rank >= spec.size()) {
            refusal = "rank " + rank + " is not in a job of " + spec.size() + " peers";
        } else if (records[rank] != null) {
            refusal = "rank " + rank + " has already joined";
        } else if (stopping) {
            refusal = "the job is being stopped";
            tracker.refusedWhileStopping(rank); // its exit 1 is the stop's doing, not a failure of its own
        }
        if (refusal != null) {
            h.conn().trySend(ControlFrame.build(ControlMessageType.REJECTED).putString(refusal).frame());
            h.conn().close();
            return;
        }
        records[rank] = hello.record;
        peerConnections[rank] = h.conn();
        peerRanks.put(h.conn(), rank);
        tracker.controlConnected(rank);
        if (hellos++ == 0) {
            firstHelloNanos = jobClock();
        }
        if (hellos == spec.size()) {
            ControlFrame table = PeerRecord.table(records);
            for (ControlConnection c : peerConnections) {
                c.trySend(table);
            }
            tableSent = true;
        }
    }

    /**
     * Tells every other connected peer that this one's process has ended. Transports that cannot see
     * a death themselves (shared-memory rings) end the connection on it, cleanly if the peer's
     * goodbye is already in the ring, as a failure naming the peer otherwise.
     */
    private void announceGone(int rank, int status) {
        ControlFrame gone = ControlFrame.build(ControlMessageType.PEER_GONE).putInt(rank).putInt(status)
                .putString(tracker.describeExit(rank, status)).frame();
        for (int r = 0; r < peerConnections.length; r++) {
            if (r != rank && peerConnections[r] != null) {
                peerConnections[r].trySend(gone);
            }
        }
    }

    /** An io-manager's connection ended early: write it off and stop the rest of the job. */
    private void lose(IoManagerLink link, String why) {
        if (ioManagerLost == null && launchFailure == null) {
            ioManagerLost = why;
        }
        writeOff(link);
        stopJob();
    }

    /**
     * Gives up on an io-manager: its unreported ranks count as killed by the launcher (collateral,
     * never the root cause), their control connections are closed (a peer exits when it loses the
     * launcher), and so are the io-manager's connection and its agent process (an io-manager stops
     * its peers when it loses the controller; a peer exits when its io-manager dies).
     */
    private void writeOff(IoManagerLink link) {
        if (link.gone) {
            return;
        }
        link.gone = true;
        for (int r : link.ranks) {
            if (!tracker.hasExited(r)) {
                tracker.exited(r, ExitTracker.STATUS_SIGKILL, true);
                if (peerConnections[r] != null) {
                    peerConnections[r].close();
                }
            }
        }
        if (link.conn != null) {
            link.conn.close();
        }
        if (link.process != null && link.process.isAlive()) {
            link.process.destroyForcibly();
        }
    }

    /** Job control: every connected io-manager stops its peers; one that connects later, once it launched them. */
    private void suspendJob() {
        if (suspended) {
            return;
        }
        // The launcher stops itself next, so the clock stands still in any case; a job being stopped
        // keeps its peers running, since they are ending (the io-managers continue stopped ones).
        suspended = true;
        suspendedSinceNanos = System.nanoTime();
        if (stopping) {
            return;
        }
        peersSuspended = true;
        suspensions++;
        if (spec.verbose()) {
            printLineOnStderr("cohort: suspending the job (SIGTSTP); fg, bg or SIGCONT to the launcher continues it");
        }
        tellLaunched(ControlMessageType.SUSPEND);
    }

    private void resumeJob() {
        if (!suspended) {
            return;
        }
        endSuspension();
        if (!peersSuspended) {
            return;
        }
        peersSuspended = false;
        if (spec.verbose()) {
            printLineOnStderr("cohort: continuing the job (SIGCONT)");
        }
        tellLaunched(ControlMessageType.RESUME);
    }

    /** An empty frame of {@code type} to every io-manager that has its LAUNCH and is not written off. */
    private void tellLaunched(int type) {
        ControlFrame frame = ControlFrame.build(type).frame();
        for (IoManagerLink link : links) {
            if (!link.gone && link.launched) {
                link.conn.trySend(frame);
            }
        }
    }

    /**
     * The job's own clock: {@link System#nanoTime} less the time it spent suspended (standing still
     * while it is). Launch, first hello and the time-outs are measured on it, so that a job suspended
     * for an hour is not stopped by --timeout or the wire-up time-out the moment it continues.
     */
    private long jobClock() {
        return (suspended ? suspendedSinceNanos : System.nanoTime()) - suspendedNanos;
    }

    private void endSuspension() {
        suspended = false;
        suspendedNanos += System.nanoTime() - suspendedSinceNanos;
    }

    /**
     * Stops the job for an abnormal exit once what decides its root cause is in: the peer's last
     * reports (its control connection ended, or {@value #REPORTS_WAIT_MILLIS} ms passed), and, if it
     * failed waiting for a peer that had closed its world, that peer's own exit (or the grace period):
     * a program that fails inside try-with-resources closes its world before it exits, and stopping
     * it then would hide which rank failed first.
     */
    private void settlePendingStop() {
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
        long now = jobClock();
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
            stopJob();
        }
    }

    /** First abnormal exit, time-out, interrupt or a lost io-manager: TERM the peers, KILL them after the grace period. */
    private void stopJob() {
        if (stopping) {
            return;
        }
        // The io-managers continue stopped peers after their TERM, so that they can end.
        peersSuspended = false;
        stopping = true;
        stopNanos = jobClock();
        tracker.stopping();
        router.release(); // the reading of exit reports must not wait for a reader of the output
        ControlFrame stop = ControlFrame.build(ControlMessageType.STOP).putInt(spec.graceMillis()).frame();
        for (IoManagerLink link : links) {
            if (link.gone) {
                continue;
            }
            if (link.conn != null) {
                link.conn.trySend(stop);
            } else {
                writeOff(link); // not connected yet: nothing started there
            }
        }
    }

    private void checkDeadlines() {
        checkStacksDeadlines();
        if (suspended) {
            return; // no peer can connect, answer or end meanwhile: the time-outs resume with the job
        }
        settlePendingStop();
        long now = jobClock();
        long wireup = TimeUnit.SECONDS.toNanos(spec.wireupTimeoutSeconds());
        for (IoManagerLink link : links) {
            if (link.conn == null && !link.gone && now - launchNanos > wireup) {
                if (launchFailure == null) {
                    launchFailure = "the io-manager on " + link.host + " did not connect within "
                            + spec.wireupTimeoutSeconds() + " s";
                }
                writeOff(link);
                stopJob();
            }
        }
        // A program that never calls Cohort.init() never says hello; only a job where some peer is
        // waiting for the table can time out in wire-up. Under --debug a peer may wait for its
        // debugger's user for as long as it takes.
        if (!tableSent && !stopping && hellos > 0 && launchSentNanos != 0 && spec.debug() == null) {
            long deadline = firstHelloNanos - launchSentNanos <= wireup ? launchSentNanos + wireup : firstHelloNanos + wireup;
            if (now - deadline > 0) {
                List<Integer> missing = new ArrayList<>();
                for (int r = 0; r < spec.size(); r++) {
                    if (records[r] == null) {
                        missing.add(r);
                    }
                }
                launchFailure = (missing.size() == 1 ? "rank " : "ranks ") + join(missing) + " never connected within "
                        + spec.wireupTimeoutSeconds() + " s (wire-up time-out); check that every peer calls Cohort.init()";
                stopJob();
            }
        }
        if (spec.timeoutSeconds() > 0 && !stopping && !timeoutStacksPending
                && now - launchNanos > TimeUnit.SECONDS.toNanos(spec.timeoutSeconds())) {
            Consumer<JobStacks> printer = timeoutStacks;
            if (printer == null || !stopPending.isEmpty()) {
                timedOut = stopPending.isEmpty(); // a failure already under way is what ends the job
                stopJob();
                return;
            }
            // Where the peers were when the time ran out: collected and printed before they are
            // stopped. Until then the job is not "timed out": one that ends by itself, or whose
            // peer fails, in the meantime ends as it would have.
            timeoutStacksPending = true;
            CompletableFuture<JobStacks> f = new CompletableFuture<>();
            Duration wait = timeoutStacksWait;
            long millis = Math.max(STACKS_TIMEOUT_MIN.toMillis(), Math.min(STACKS_TIMEOUT_MAX.toMillis(), wait.toMillis()));
            f.whenCompleteAsync((stacks, failure) -> {
                try {
                    if (stacks != null && !outputClosing) { // closing: the job ended by itself meanwhile
                        printer.accept(stacks);
                    }
                } catch (RuntimeException e) {
                    printLineOnStderr("cohort: the stacks of the job could not be printed: " + e);
                } finally {
                    events.add(new TimeoutStacksShown());
                }
            });
            startStacks(new CollectStacks(millis, f));
        }
    }

    private boolean finishedJob() {
        long now = System.nanoTime();
        if (!tracker.allExited()) {
            if (stopping && !suspended
                    && jobClock() - stopNanos > TimeUnit.MILLISECONDS.toNanos(spec.graceMillis()) + STOP_SLACK_NANOS) {
                for (IoManagerLink link : links) {
                    if (!link.gone && !allReported(link)) {
                        if (ioManagerLost == null) {
                            List<Integer> silent = new ArrayList<>();
                            for (int r : link.ranks) {
                                if (!tracker.hasExited(r)) {
                                    silent.add(r);
                                }
                            }
                            ioManagerLost = "the io-manager on " + link.host + " did not report "
                                    + (silent.size() == 1 ? "rank " : "ranks ") + join(silent) + " after they were stopped";
                        }
                        writeOff(link);
                    }
                }
                return true;
            }
            return false;
        }
        return settled(tracker.allSettled(), pendingConnections, hellos, spec.size()) || now - allExitedNanos > SETTLE_NANOS;
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

    /** The agent processes we killed: wait (briefly) until they are gone, so none outlives the launcher. */
    private void reapWrittenOff() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REAP_MILLIS);
        for (IoManagerLink link : links) {
            if (link.gone && link.process != null) {
                try {
                    link.process.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private JobOutcome outcome() {
        String job = "cohort: job " + jobId;
        if (launchFailure != null) {
            return new JobOutcome(ExitCodes.LAUNCH_FAILURE, job + " could not start: " + launchFailure, JobOutcome.NO_RANK);
        }
        if (interrupted) {
            return new JobOutcome(ExitCodes.INTERRUPTED, job + " was interrupted; its peers were stopped", JobOutcome.NO_RANK);
        }
        if (outputFailed && router.failure() != null) {
            return outputFailedOutcome(router.failure(), true);
        }
        if (timedOut) {
            return new JobOutcome(ExitCodes.TIMEOUT, job + " exceeded the time limit of " + spec.timeoutSeconds()
                    + " s (--timeout) and was stopped" + (timeoutStacks == null
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
    private JobOutcome outputFailedOutcome(OutputRouter.WriteFailure f, boolean stopped) {
        if (f.brokenPipe()) {
            return new JobOutcome(ExitCodes.OUTPUT_CLOSED, null, JobOutcome.NO_RANK);
        }
        return new JobOutcome(ExitCodes.OUTPUT_FAILED, "cohort: job " + jobId + " failed: " + f.where()
                + " cannot be written (" + f.reason() + ")" + (stopped ? "; its peers were stopped" : ""), JobOutcome.NO_RANK);
    }

    private static String join(List<Integer> ranks) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < ranks.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(ranks.get(i));
        }
        return b.toString();
    }

    // ---- connection threads ----------------------------------------------------------------------

    private void accept(ServerSocket server) {
        while (!server.isClosed()) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed at the end of the job
            }
            events.add(new Accepted());
            Thread t = new Thread(() -> serve(s), "cohort-conn-" + s.getPort());
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket socket) {
        ControlConnection conn;
        try {
            conn = new ControlConnection(socket);
        } catch (IOException e) {
            events.add(new Unidentified(null));
            return;
        }
        ControlFrame first;
        try {
            first = conn.readFirst(FIRST_FRAME_MILLIS);
        } catch (IOException e) {
            first = null;
        }
        if (first == null) {
            events.add(new Unidentified(conn));
            return;
        }
        try {
            if (first.type() == ControlMessageType.IOM_HELLO) {
                ControlFrame.BodyReader r = first.reader();
                String jobId = r.getString();
                String jobKey = r.getString();
                String host = r.getString();
                long pid = r.getLong();
                StdinWindow window = r.hasMore() && r.getByte() == 1 ? new StdinWindow(spec.size()) : null;
                events.add(new IoManagerHello(conn, jobId, jobKey, host, pid, window));
                serveIoManager(conn, window);
            } else if (first.type() == ControlMessageType.PEER_HELLO) {
                events.add(new PeerHello(conn, PeerRecord.parseHello(first)));
                servePeer(conn);
            } else if (first.type() == ControlMessageType.STACKS_QUERY) {
                events.add(new StacksQueryOpened());
                serveStacksQuery(conn, first);
            } else {
                events.add(new Unidentified(conn));
            }
        } catch (IOException e) {
            events.add(new Unidentified(conn)); // a malformed hello: drop the connection
        }
    }

    private void serveIoManager(ControlConnection conn, StdinWindow stdinWindow) {
        String failure = null;
        try {
            ControlFrame f;
            while ((f = conn.read()) != null) {
                ControlFrame.BodyReader r = f.reader();
                switch (f.type()) {
                    case ControlMessageType.OUTPUT: {
                        int rank = r.getInt();
                        int stream = r.getByte();
                        byte[] line = r.getBytes();
                        if (rank >= 0 && rank < spec.size() && !debuggerListening(conn, rank, stream, line)) {
                            router.write(rank, stream, line);
                        }
                        if (conn.idle()) {
                            router.flush();
                        }
                        break;
                    }
                    case ControlMessageType.EXITED:
                        router.flush(); // output files: the peer's last line is out before its exit counts (stdout/stderr flush themselves)
                        events.add(new Exited(conn, ExitReport.parse(f)));
                        break;
                    case ControlMessageType.STARTED:
                        events.add(new Started(conn, r.getInt(), r.getLong()));
                        break;
                    case ControlMessageType.START_FAILED:
                        events.add(new StartFailed(conn, r.getInt(), r.getString()));
                        break;
                    case ControlMessageType.STDIN_ACK:
                        if (stdinWindow != null) {
                            stdinWindow.acknowledged(r.getInt(), r.getInt());
                        }
                        break;
                    default:
                        // Unknown frames are dropped, never fatal.
                }
            }
        } catch (IOException | RuntimeException e) {
            // A host that died or was cut off: TCP keepalive ends the connection with "Connection timed out".
            failure = String.valueOf(e.getMessage());
            if (spec.verbose() && !done) {
                printLineOnStderr("cohort: io-manager connection failed: " + e);
            }
        }
        if (stdinWindow != null) {
            stdinWindow.close();
        }
        router.flush();
        events.add(new IoManagerClosed(conn, failure));
    }

    /**
     * True if the line is a debugged peer's JDWP agent announcing its port (the first such line on
     * its stdout): it is the launcher's business, not the program's output, so it is not forwarded.
     */
    private boolean debuggerListening(ControlConnection conn, int rank, int stream, byte[] line) {
        if (spec.debug() == null || !spec.debug().includes(rank) || stream != PeerProcess.STDOUT
                || debugPorts.get(rank) != 0 || line.length > 200) {
            return false;
        }
        Matcher m = JDWP_LISTENING.matcher(new String(line, StandardCharsets.UTF_8));
        if (!m.matches()) {
            return false;
        }
        int p;
        try {
            p = Integer.parseInt(m.group(1));
        } catch (NumberFormatException e) {
            return false;
        }
        if (p <= 0 || p > 65535 || !debugPorts.compareAndSet(rank, 0, p)) {
            return false;
        }
        events.add(new DebuggerWaiting(conn, rank, p));
        return true;
    }

    private void servePeer(ControlConnection conn) {
        try {
            ControlFrame f;
            while ((f = conn.read()) != null) {
                if (f.type() == ControlMessageType.PEER_FAILURE) {
                    ControlFrame.BodyReader r = f.reader();
                    events.add(new PeerFailure(conn, r.getInt(), r.getString()));
                } else if (f.type() == ControlMessageType.PEER_AWAITED_CLOSED) {
                    events.add(new PeerAwaitedClosed(conn, f.reader().getInt()));
                } else if (f.type() == ControlMessageType.STACKS) {
                    stacksFrame(conn, f);
                }
                // PEER_FINALIZED needs no action: a clean exit says the same.
            }
        } catch (IOException e) {
            // A broken connection ends like a closed one.
        }
        events.add(new PeerClosed(conn));
    }

    /** Parsed here, on the peer's connection thread; a malformed answer counts as one that says why. */
    private void stacksFrame(ControlConnection conn, ControlFrame f) throws IOException {
        ControlFrame.BodyReader r = f.reader();
        int requestId = r.getInt();
        try {
            events.add(new StacksAnswer(conn, requestId, StacksCodec.decode(r.getBytes()), null));
        } catch (IOException e) {
            events.add(new StacksAnswer(conn, requestId, null, e.getMessage()));
        }
    }

    /**
     * A {@code STACKS_QUERY} connection: the token is checked here (it never changes), the
     * collection runs on the event thread, and the answer is written by this thread: STACKS_JOB,
     * then one STACKS_RANK per rank, then the connection is closed.
     */
    private void serveStacksQuery(ControlConnection conn, ControlFrame first) {
        try {
            ControlFrame.BodyReader r = first.reader();
            byte[] token = r.getString().getBytes(StandardCharsets.UTF_8);
            int timeoutMillis = r.getInt();
            if (!MessageDigest.isEqual(token, stacksToken.getBytes(StandardCharsets.UTF_8))) {
                conn.trySend(ControlFrame.build(ControlMessageType.REJECTED)
                        .putString("wrong stacks token for job " + jobId).frame());
                return;
            }
            Duration timeout = Duration.ofMillis(Math.max(0, timeoutMillis));
            JobStacks stacks = collectStacks(timeout).get(STACKS_TIMEOUT_MAX.toMillis() + TimeUnit.NANOSECONDS.toMillis(
                    STOP_SLACK_NANOS), TimeUnit.MILLISECONDS);
            conn.send(ControlFrame.build(ControlMessageType.STACKS_JOB).putString(stacks.jobId()).putInt(stacks.size())
                    .putString(stacks.application()).frame());
            for (RankStacks rank : stacks.ranks()) {
                conn.send(new ControlFrame(ControlMessageType.STACKS_RANK, StacksCodec.encode(rank)));
            }
        } catch (IOException | ExecutionException | TimeoutException e) {
            // A malformed query, or a reader that went away: nothing to tell anyone.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            conn.close();
        }
    }
}

package io.cohort.launch;

import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlMessageType;
import io.cohort.wireup.JobEnvironment;
import io.cohort.wireup.PeerRecord;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The controlling process of one job (PSE's "controlling process"): the rendezvous point of the
 * peers, the collector of their output and exits, and the one who decides the job's status.
 *
 * <pre>
 *  run() ── bind 127.0.0.1:0 ── LaunchAgent starts IoManager ── IOM_HELLO ─► LAUNCH
 *        ── PEER_HELLO × N ─► PEER_TABLE to all ── OUTPUT ... EXITED × N ─► outcome
 *  first abnormal exit, --timeout, wire-up time-out, SIGINT/SIGTERM ─► STOP(grace) to the io-managers
 * </pre>
 *
 * Connection threads only parse frames, write output, and post events; one thread (the caller of
 * {@link #run}) owns all job state, so ordering questions reduce to the order of the event queue.
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
    /** After STOP, how much longer than the grace period to wait for exits before giving up on the io-manager. */
    static final long STOP_SLACK_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long TICK_MILLIS = 100;

    private final JobSpec spec;
    private final LaunchAgent agent;
    private final InputStream stdin;
    private final OutputStream stdout;
    private final OutputStream stderr;
    private final PrintStream log;
    private final String jobId;
    private final String jobKey;
    private final String host;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean done;

    // ---- state owned by the event thread ----
    private ExitTracker tracker;
    private OutputRouter router;
    private Process ioManagerProcess;
    private ControlConnection ioManager;
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
    private long allExitedNanos;
    private String launchFailure;
    private String ioManagerLost;
    private boolean timedOut;
    private boolean interrupted;

    public Controller(JobSpec spec, LaunchAgent agent, InputStream stdin, OutputStream stdout, OutputStream stderr,
                      PrintStream log) {
        this.spec = spec;
        this.agent = agent;
        this.stdin = stdin;
        this.stdout = stdout;
        this.stderr = stderr;
        this.log = log;
        SecureRandom random = new SecureRandom();
        byte[] id = new byte[4];
        random.nextBytes(id);
        byte[] key = new byte[16];
        random.nextBytes(key);
        this.jobId = HexFormat.of().formatHex(id);
        this.jobKey = HexFormat.of().formatHex(key);
        this.host = HostName.local();
        this.peerConnections = new ControlConnection[spec.size()];
        this.records = new PeerRecord[spec.size()];
    }

    public String jobId() {
        return jobId;
    }

    /** Asks a running job to stop (SIGINT/SIGTERM to the launcher); a no-op once it has finished. */
    public void interrupt() {
        if (!done) {
            events.add(new Interrupt());
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
     * @throws LaunchException if the io-manager cannot even be started
     */
    public JobOutcome run() throws LaunchException, IOException {
        String[] hosts = new String[spec.size()];
        java.util.Arrays.fill(hosts, host);
        tracker = new ExitTracker(jobId, hosts);
        ServerSocket server = new ServerSocket();
        try {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
            router = new OutputRouter(spec.size(), spec.tagOutput(), spec.outputPattern(), jobId, stdout, stderr);
            String address = server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
            Thread acceptor = new Thread(() -> accept(server), "cohort-accept");
            acceptor.setDaemon(true);
            acceptor.start();
            startIoManager(address);
            JobOutcome outcome = loop(address);
            router.close();
            if (outcome.summary() != null) {
                log.println(outcome.summary());
            }
            log.flush();
            return outcome;
        } finally {
            done = true;
            try {
                server.close();
            } catch (IOException ignored) {
                // Closing at the end.
            }
            if (ioManager != null) {
                ioManager.close();
            }
            for (ControlConnection c : peerRanks.keySet()) {
                c.close();
            }
            if (router != null) {
                router.close();
            }
            finished.countDown();
        }
    }

    private void startIoManager(String address) throws LaunchException {
        List<String> command = new ArrayList<>();
        command.add(CohortHome.javaExecutable());
        command.addAll(IO_MANAGER_JVM_FLAGS);
        command.addAll(ioManagerArchiveFlags());
        command.add("-cp");
        command.add(CohortHome.ioManagerClasspath());
        command.add(IoManagerMain.class.getName());
        command.add(address);
        command.add(jobId);
        command.add(jobKey);
        if (spec.verbose()) {
            log.println("cohort: job " + jobId + ": " + spec.size() + " peers, controller at " + address);
            log.println("cohort: io-manager on " + host + ": " + String.join(" ", agent.command(host, command)));
        }
        try {
            ioManagerProcess = agent.start(host, command);
        } catch (IOException e) {
            throw new LaunchException("cannot start the io-manager on " + host + " (" + e.getMessage()
                    + "); check that setsid and java are installed", e);
        }
        launchNanos = System.nanoTime();
        ioManagerProcess.onExit().thenAccept(p -> events.add(new IoManagerExited(p.exitValue())));
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

    private JobOutcome loop(String address) {
        for (;;) {
            Event e;
            try {
                e = events.poll(TICK_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException ie) {
                e = new Interrupt();
            }
            if (e != null) {
                handle(e, address);
            }
            checkDeadlines();
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

    private record IoManagerHello(ControlConnection conn, String jobId, String jobKey, String host, long pid)
            implements Event {
    }

    private record IoManagerClosed(ControlConnection conn) implements Event {
    }

    private record IoManagerExited(int status) implements Event {
    }

    private record Started(int rank, long pid) implements Event {
    }

    private record StartFailed(int rank, String reason) implements Event {
    }

    private record Exited(int rank, int status, boolean stoppedByManager) implements Event {
    }

    private record PeerHello(ControlConnection conn, PeerRecord.Hello hello) implements Event {
    }

    private record PeerFailure(ControlConnection conn, int lostPeer, String reason) implements Event {
    }

    private record PeerClosed(ControlConnection conn) implements Event {
    }

    private record Interrupt() implements Event {
    }

    private void handle(Event e, String address) {
        if (e instanceof Accepted) {
            pendingConnections++;
        } else if (e instanceof Unidentified u) {
            pendingConnections--;
            if (u.conn() != null) {
                u.conn().close();
            }
        } else if (e instanceof IoManagerHello h) {
            pendingConnections--;
            ioManagerHello(h, address);
        } else if (e instanceof IoManagerClosed c) {
            if (c.conn() == ioManager && !tracker.allExited() && ioManagerLost == null && launchFailure == null) {
                ioManagerLost = "the io-manager on " + host + " closed its connection before all peers were reported";
                ioManagerProcess.destroyForcibly(); // its peers follow it (PeerMain watches its parent)
            }
        } else if (e instanceof IoManagerExited x) {
            if (ioManager == null && launchFailure == null) {
                launchFailure = "the io-manager on " + host + " exited with status " + x.status()
                        + " before connecting; run with --verbose to see its command line";
            } else if (!tracker.allExited() && ioManagerLost == null && launchFailure == null) {
                ioManagerLost = "the io-manager on " + host + " exited unexpectedly with status " + x.status();
            }
        } else if (e instanceof Started s) {
            if (spec.verbose()) {
                log.println("cohort: rank " + s.rank() + " started as pid " + s.pid() + " on " + host);
            }
        } else if (e instanceof StartFailed f) {
            tracker.exited(f.rank(), ExitCodes.LAUNCH_FAILURE, false);
            if (launchFailure == null) {
                launchFailure = "rank " + f.rank() + " on " + host + " could not be started: " + f.reason();
            }
            stopJob();
        } else if (e instanceof Exited x) {
            if (x.rank() >= 0 && x.rank() < spec.size()) {
                announceGone(x.rank(), x.status());
                if (tracker.exited(x.rank(), x.status(), x.stoppedByManager())) {
                    stopJob();
                }
                if (tracker.allExited()) {
                    allExitedNanos = System.nanoTime();
                }
            }
        } else if (e instanceof PeerHello h) {
            pendingConnections--;
            peerHello(h);
        } else if (e instanceof PeerFailure f) {
            Integer rank = peerRanks.get(f.conn());
            if (rank != null) {
                tracker.peerFailure(rank, f.lostPeer(), f.reason());
            }
        } else if (e instanceof PeerClosed c) {
            Integer rank = peerRanks.get(c.conn());
            if (rank != null) {
                tracker.controlClosed(rank);
            }
            c.conn().close();
        } else if (e instanceof Interrupt) {
            if (!interrupted) {
                interrupted = true;
                stopJob();
            }
        }
    }

    private void ioManagerHello(IoManagerHello h, String address) {
        if (!jobId.equals(h.jobId()) || !jobKey.equals(h.jobKey()) || ioManager != null) {
            h.conn().close();
            return;
        }
        ioManager = h.conn();
        if (stopping) {
            ioManager.close(); // interrupted before the launch: the io-manager ends, having started nothing
            return;
        }
        List<LaunchRequest.Peer> peers = new ArrayList<>();
        for (int r = 0; r < spec.size(); r++) {
            List<String> command = peerCommand();
            if (spec.verbose()) {
                log.println("cohort: rank " + r + ": " + String.join(" ", command));
            }
            peers.add(new LaunchRequest.Peer(r, command, peerEnvironment(r, address)));
        }
        ioManager.trySend(new LaunchRequest(spec.workingDirectory().toString(), peers).frame());
        launchSentNanos = System.nanoTime();
        List<Integer> fed = new ArrayList<>();
        for (int r = 0; r < spec.size(); r++) {
            if (spec.stdin().includes(r)) {
                fed.add(r);
            } else {
                ioManager.trySend(ControlFrame.build(ControlMessageType.STDIN_CLOSE).putInt(r).frame());
            }
        }
        if (!fed.isEmpty()) {
            ControlConnection iom = ioManager;
            new StdinPump(stdin, fed.stream().mapToInt(Integer::intValue).toArray(), new StdinPump.Sink() {
                @Override
                public void stdin(int rank, byte[] bytes) {
                    iom.trySend(ControlFrame.build(ControlMessageType.STDIN).putInt(rank).putBytes(bytes).frame());
                }

                @Override
                public void stdinClosed(int rank) {
                    iom.trySend(ControlFrame.build(ControlMessageType.STDIN_CLOSE).putInt(rank).frame());
                }
            }).start();
        }
    }

    private List<String> peerCommand() {
        List<String> c = new ArrayList<>();
        c.add(CohortHome.javaExecutable());
        // cohort-core comes first on the classpath so that its class-data-sharing archive (a CDS
        // classpath must be a prefix of the runtime one) applies whatever the program's classpath is.
        java.nio.file.Path archive = CohortHome.coreJar().resolveSibling(CORE_ARCHIVE);
        if (java.nio.file.Files.isReadable(archive)) {
            c.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
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
        env.put(JobEnvironment.LOCAL_RANK, Integer.toString(rank));
        env.put(JobEnvironment.LOCAL_SIZE, Integer.toString(spec.size()));
        env.put(JobEnvironment.HOST, host);
        env.put(JobEnvironment.CONTROLLER, address);
        env.put(JobEnvironment.JOB_KEY, jobKey);
        env.put(JobEnvironment.WIREUP_TIMEOUT, Integer.toString(spec.wireupTimeoutSeconds()));
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
            firstHelloNanos = System.nanoTime();
        }
        if (hellos == spec.size()) {
            ControlFrame table = PeerRecord.table(records);
            for (ControlConnection c : peerConnections) {
                c.trySend(table);
            }
            tableSent = true;
        }
    }

    /** First abnormal exit, time-out, or interrupt: TERM the peers, KILL them after the grace period. */
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

    private void stopJob() {
        if (stopping) {
            return;
        }
        stopping = true;
        stopNanos = System.nanoTime();
        tracker.stopping();
        if (ioManager != null) {
            ioManager.trySend(ControlFrame.build(ControlMessageType.STOP).putInt(spec.graceMillis()).frame());
        } else if (ioManagerProcess != null) {
            ioManagerProcess.destroyForcibly(); // nothing started yet
        }
    }

    private void checkDeadlines() {
        long now = System.nanoTime();
        long wireup = TimeUnit.SECONDS.toNanos(spec.wireupTimeoutSeconds());
        if (ioManager == null && launchFailure == null && now - launchNanos > wireup) {
            launchFailure = "the io-manager on " + host + " did not connect within " + spec.wireupTimeoutSeconds() + " s";
            ioManagerProcess.destroyForcibly();
        }
        // A program that never calls Cohort.init() never says hello; only a job where some peer is
        // waiting for the table can time out in wire-up.
        if (!tableSent && !stopping && hellos > 0 && launchSentNanos != 0) {
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
        if (spec.timeoutSeconds() > 0 && !stopping && now - launchNanos > TimeUnit.SECONDS.toNanos(spec.timeoutSeconds())) {
            timedOut = true;
            stopJob();
        }
    }

    private boolean finishedJob() {
        long now = System.nanoTime();
        if (ioManager == null) {
            // Never launched: done once the io-manager process is gone (or failed to connect).
            return launchFailure != null || (stopping && !ioManagerProcess.isAlive());
        }
        if (ioManagerLost != null && !ioManagerProcess.isAlive()) {
            return true;
        }
        if (stopping && !tracker.allExited()
                && now - stopNanos > TimeUnit.MILLISECONDS.toNanos(spec.graceMillis()) + STOP_SLACK_NANOS) {
            if (ioManagerLost == null) {
                ioManagerLost = "the io-manager on " + host + " did not report ranks " + join(tracker.notExited())
                        + " after they were stopped";
            }
            ioManagerProcess.destroyForcibly();
            return true;
        }
        if (!tracker.allExited()) {
            return false;
        }
        return (tracker.allSettled() && pendingConnections == 0) || now - allExitedNanos > SETTLE_NANOS;
    }

    private JobOutcome outcome() {
        String job = "cohort: job " + jobId;
        if (launchFailure != null) {
            return new JobOutcome(ExitCodes.LAUNCH_FAILURE, job + " could not start: " + launchFailure, JobOutcome.NO_RANK);
        }
        if (interrupted) {
            return new JobOutcome(ExitCodes.INTERRUPTED, job + " was interrupted; its peers were stopped", JobOutcome.NO_RANK);
        }
        if (timedOut) {
            return new JobOutcome(ExitCodes.TIMEOUT, job + " exceeded the time limit of " + spec.timeoutSeconds()
                    + " s (--timeout) and was stopped", JobOutcome.NO_RANK);
        }
        if (ioManagerLost != null) {
            return new JobOutcome(ExitCodes.INTERNAL_ERROR, job + " failed: " + ioManagerLost, JobOutcome.NO_RANK);
        }
        return tracker.outcome();
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
            first = conn.read();
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
                events.add(new IoManagerHello(conn, r.getString(), r.getString(), r.getString(), r.getLong()));
                serveIoManager(conn);
            } else if (first.type() == ControlMessageType.PEER_HELLO) {
                events.add(new PeerHello(conn, PeerRecord.parseHello(first)));
                servePeer(conn);
            } else {
                events.add(new Unidentified(conn));
            }
        } catch (IOException e) {
            events.add(new Unidentified(conn)); // a malformed hello: drop the connection
        }
    }

    private void serveIoManager(ControlConnection conn) {
        try {
            ControlFrame f;
            while ((f = conn.read()) != null) {
                ControlFrame.BodyReader r = f.reader();
                switch (f.type()) {
                    case ControlMessageType.OUTPUT: {
                        int rank = r.getInt();
                        int stream = r.getByte();
                        byte[] line = r.getBytes();
                        if (rank >= 0 && rank < spec.size()) {
                            router.write(rank, stream, line);
                        }
                        if (conn.idle()) {
                            router.flush();
                        }
                        break;
                    }
                    case ControlMessageType.EXITED:
                        router.flush(); // the peer's last line is out before its exit counts
                        events.add(new Exited(r.getInt(), r.getInt(), r.getBoolean()));
                        break;
                    case ControlMessageType.STARTED:
                        events.add(new Started(r.getInt(), r.getLong()));
                        break;
                    case ControlMessageType.START_FAILED:
                        events.add(new StartFailed(r.getInt(), r.getString()));
                        break;
                    default:
                        // Unknown frames are dropped, never fatal.
                }
            }
        } catch (IOException | RuntimeException e) {
            if (spec.verbose() && !done) {
                log.println("cohort: io-manager connection failed: " + e);
            }
        }
        router.flush();
        events.add(new IoManagerClosed(conn));
    }

    private void servePeer(ControlConnection conn) {
        try {
            ControlFrame f;
            while ((f = conn.read()) != null) {
                if (f.type() == ControlMessageType.PEER_FAILURE) {
                    ControlFrame.BodyReader r = f.reader();
                    events.add(new PeerFailure(conn, r.getInt(), r.getString()));
                }
                // PEER_FINALIZED needs no action: a clean exit says the same.
            }
        } catch (IOException e) {
            // A broken connection ends like a closed one.
        }
        events.add(new PeerClosed(conn));
    }
}

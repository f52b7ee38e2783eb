package io.cohort.launch;

import io.cohort.auth.JobSecret;
import io.cohort.transport.shm.ShmJobDirectory;
import io.cohort.wireup.ControlAuth;
import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlMessageType;
import io.cohort.wireup.JobEnvironment;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The io-manager of one host: starts that host's peers as its children, forwards their output to
 * the controller line by line, feeds their stdin, reports each exit once its output is drained, and
 * stops them on STOP or when the controller vanishes. It exits when every peer has been reported.
 *
 * <p>Job control: SUSPEND stops every peer's process group (SIGSTOP), RESUME continues them
 * (SIGCONT); STOP continues a suspended job's peers after their TERM.
 *
 * <pre>
 *  controller ──LAUNCH──► IoManager ──setsid java ... PeerMain──► peer (own process group)
 *             ◄─OUTPUT (one line each), STARTED, EXITED (after stdout+stderr EOF)─┘
 * </pre>
 *
 * The reader thread handles the controller's frames in order; pump threads send OUTPUT and EXITED
 * (sends are serialised by {@link ControlConnection}).
 *
 * <p>With {@code --core-dir} a peer's environment names its crash-file directory
 * ({@code COHORT_CRASH_DIR}): the io-manager creates it before starting the peer, and after the exit
 * sends the files found there with EXITED or removes it if empty ({@link CrashDirectories}).
 *
 * <p>A peer started with {@code --debug} is ended once its debugger detaches ({@link DebugPortGuard}),
 * so that its JDWP agent, which then listens again, is not left open to anyone.
 */
public final class IoManager implements PeerProcess.Listener {
    /** Grace between TERM and KILL when the controller is gone (it cannot tell us a better one). */
    static final int ORPHAN_GRACE_MILLIS = 500;

    private final ControlConnection controller;
    private final PrintStream log;
    private final Map<Integer, PeerProcess> peers = new ConcurrentHashMap<>();
    private volatile CountDownLatch remaining;
    private volatile boolean stopping;
    /** The controller suspended the job (SIGSTOP to the peers) and has not resumed it. */
    private volatile boolean suspended;
    /** Peers whose EXITED has been sent (counted before sending, so the controller's close after the last one is expected). */
    private final java.util.concurrent.atomic.AtomicInteger reported = new java.util.concurrent.atomic.AtomicInteger();
    private volatile int launched = -1;
    /** Each peer's crash-file directory, for the peers that have one. */
    private final Map<Integer, Path> crashDirs = new ConcurrentHashMap<>();
    /** The processors claimed for {@code --bind-to auto}, given up once the last peer has exited. */
    private volatile CoreBinding.Auto binding;
    /** This host's private directory of the job's shared-memory segments, if its peers use any ({@link ShmJobSpace}). */
    private volatile Path shmDir;

    /** How long the controller may take to answer the hello with its challenge. */
    private static final int AUTH_MILLIS = 30_000;
    private volatile JobSecret secret;

    IoManager(ControlConnection controller, PrintStream log) {
        this.controller = controller;
        this.log = log;
    }

    /**
     * Says hello and proves it holds the job's secret ({@link ControlAuth}), then serves the controller
     * until every peer has been reported; returns the exit code.
     */
    int run(String jobId, JobSecret secret, String host) throws IOException {
        this.secret = secret;
        // Whether setpriv can guard the peers is asked while the controller prepares the launch.
        Thread probe = new Thread(PeerProcess.ParentDeath::prefix, "cohort-iom-probe");
        probe.setDaemon(true);
        probe.start();
        String nonce = ControlAuth.newClientNonce();
        ControlFrame hello = ControlFrame.build(ControlMessageType.IOM_HELLO).putString(jobId).putString(nonce)
                .putString(host).putLong(ProcessHandle.current().pid()).putByte(1).frame();
        controller.send(hello);
        ControlFrame challenge = controller.readFirst(AUTH_MILLIS);
        if (challenge == null) {
            throw new IOException("the launcher closed the connection instead of authenticating itself");
        }
        ControlAuth auth = ControlAuth.client(secret, nonce, hello);
        controller.send(auth.answer(challenge));
        controller.seal(auth.clientSeal()); // the reader and the pumps start below: every frame after the proof is sealed
        Thread reader = new Thread(this::serve, "cohort-iom-control");
        reader.setDaemon(true);
        reader.start();
        synchronized (this) {
            while (remaining == null) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    return 1;
                }
            }
        }
        awaitUninterruptibly(remaining);
        releaseProcessors();
        // Segment files are unlinked once both ends map them; a peer killed before that leaves one.
        removeShmDirectory();
        // The job's directory goes too if no peer (of any host sharing it) left anything.
        crashDirs.values().stream().map(Path::getParent).distinct().forEach(CrashDirectories::removeIfEmpty);
        controller.close();
        return 0;
    }

    /** Removes the job's shared-memory directory and what is left in it (again: nothing). */
    private void removeShmDirectory() {
        Path dir = shmDir;
        if (dir != null && !ShmJobDirectory.remove(dir)) {
            log.println("cohort: io-manager could not remove the job's shared-memory directory " + dir);
        }
    }

    private void serve() {
        boolean failed = false;
        try {
            ControlFrame f;
            while ((f = controller.read()) != null) {
                handle(f);
            }
        } catch (IOException e) {
            // Treated like end of stream: the controller is gone.
        } catch (RuntimeException | Error e) {
            // A malformed frame or no memory left: this thread can no longer serve the controller, so the
            // peers are stopped as if it were gone (before, they ran on with nobody to report them).
            log.println("cohort: io-manager failed serving its controller (" + e + "); stopping its peers");
            failed = true;
        }
        orphaned(failed);
    }

    private void handle(ControlFrame f) throws IOException {
        switch (f.type()) {
            case ControlMessageType.LAUNCH:
                launch(LaunchRequest.parse(f));
                break;
            case ControlMessageType.STDIN: {
                ControlFrame.BodyReader r = f.reader();
                int rank = r.getInt();
                PeerProcess p = peers.get(rank);
                byte[] bytes = r.getBytes();
                if (p != null) {
                    p.writeStdin(bytes);
                } else {
                    stdinTaken(rank, bytes.length); // no such peer (it did not start): dropped
                }
                break;
            }
            case ControlMessageType.STDIN_CLOSE: {
                PeerProcess p = peers.get(f.reader().getInt());
                if (p != null) {
                    p.closeStdin();
                }
                break;
            }
            case ControlMessageType.STOP:
                stop(f.reader().getInt());
                break;
            case ControlMessageType.SUSPEND:
                if (!stopping && !suspended) {
                    suspended = true;
                    PeerProcess.signalAll("STOP", peers.values());
                }
                break;
            case ControlMessageType.RESUME:
                if (suspended) {
                    suspended = false;
                    PeerProcess.signalAll("CONT", peers.values());
                }
                break;
            default:
                log.println("cohort: io-manager ignored an unexpected " + ControlMessageType.name(f.type()) + " frame");
        }
    }

    private void launch(LaunchRequest request) {
        if (remaining != null) {
            log.println("cohort: io-manager ignored a second LAUNCH");
            return;
        }
        CountDownLatch latch = new CountDownLatch(request.peers().size());
        launched = request.peers().size();
        File cwd = new File(request.workingDirectory());
        CoreBinding.Auto auto = autoBinding(request);
        List<Integer> coreIndices = coreBindIndices(request);
        String shmFailure = null;
        try {
            shmDir = ShmJobSpace.prepare(request); // before any peer starts: one sentence if /dev/shm is too small
        } catch (IOException e) {
            shmFailure = e.getMessage();
        }
        for (LaunchRequest.Peer spec : request.peers()) {
            if (stopping) {
                reportStartFailure(spec.rank(), "the job was stopped before this peer started", latch);
                continue;
            }
            if (shmFailure != null) {
                reportStartFailure(spec.rank(), shmFailure, latch);
                continue;
            }
            List<String> command = spec.command();
            Map<String, String> environment = new HashMap<>(spec.environment());
            // Always set (empty: none), so a peer never takes one inherited from a job that launched this one.
            environment.put(ShmJobDirectory.ENV_NAME, shmDir == null ? "" : shmDir.toString());
            environment.remove(JobEnvironment.CPU_SHARED); // ours to set, from the binding alone
            // The secret goes from us to the peer, never in a frame: a peer's environment is readable
            // by its user and root only (/proc/PID/environ is mode 0400).
            environment.put(JobEnvironment.JOB_KEY, secret.toHex());
            try {
                CoreBinding.Mode mode = CoreBinding.mode(environment);
                List<String> prefix = mode == CoreBinding.Mode.CORE ? CoreBinding.prefix(environment)
                        : mode == CoreBinding.Mode.AUTO && auto != null ? auto.prefix(environment) : List.of();
                if (!prefix.isEmpty()) {
                    command = new ArrayList<>(prefix);
                    command.addAll(spec.command());
                    boolean shared = mode == CoreBinding.Mode.CORE ? CoreBinding.shared(environment, coreIndices) : auto.shared(environment);
                    if (shared) {
                        environment = new HashMap<>(environment);
                        environment.put(JobEnvironment.CPU_SHARED, "1");
                    }
                }
            } catch (IOException | RuntimeException e) {
                reportStartFailure(spec.rank(), e.getMessage(), latch);
                continue;
            }
            Path crashDir = CrashDirectories.ofPeer(spec.environment());
            if (crashDir != null) {
                try {
                    CrashDirectories.create(crashDir);
                    crashDirs.put(spec.rank(), crashDir);
                } catch (IOException | RuntimeException e) {
                    reportStartFailure(spec.rank(), "cannot create its crash-file directory " + crashDir + " ("
                            + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", latch);
                    continue;
                }
            }
            try {
                PeerProcess p = PeerProcess.start(spec.rank(), command, environment, cwd);
                peers.put(spec.rank(), p);
                controller.trySend(ControlFrame.build(ControlMessageType.STARTED).putInt(spec.rank())
                        .putLong(p.pid()).frame());
                DebugPortGuard guard = DebugPortGuard.of(spec.rank(), command, p::killNow,
                        said -> output(spec.rank(), PeerProcess.STDERR, said));
                p.pump(new PeerProcess.Listener() {
                    @Override
                    public void output(int rank, int stream, byte[] line) {
                        if (guard != null && stream == PeerProcess.STDOUT) {
                            guard.stdoutLine(line); // before forwarding: a re-opened debug port is closed first
                        }
                        IoManager.this.output(rank, stream, line);
                    }

                    @Override
                    public void exited(int rank, int status, boolean stoppedByManager) {
                        IoManager.this.exited(rank, status, stoppedByManager);
                        latch.countDown();
                    }

                    @Override
                    public void stdinTaken(int rank, int bytes) {
                        IoManager.this.stdinTaken(rank, bytes);
                    }
                });
            } catch (IOException | RuntimeException e) {
                if (crashDir != null) {
                    CrashDirectories.collect(crashDir); // removes it: a peer that never ran left nothing
                }
                reportStartFailure(spec.rank(), "cannot start " + spec.command().get(0) + ": " + e.getMessage(), latch);
            }
        }
        synchronized (this) {
            remaining = latch;
            notifyAll();
        }
    }

    /** The bind indices of the peers {@code --bind-to core} binds (any that cannot be read fail their own start). */
    private static List<Integer> coreBindIndices(LaunchRequest request) {
        List<Integer> indices = new ArrayList<>();
        for (LaunchRequest.Peer spec : request.peers()) {
            try {
                if (CoreBinding.mode(spec.environment()) == CoreBinding.Mode.CORE) {
                    indices.add(Integer.parseInt(spec.environment().getOrDefault(JobEnvironment.BIND_INDEX, "")));
                }
            } catch (IllegalArgumentException e) {
                // That peer's start fails with the sentence.
            }
        }
        return indices;
    }

    /**
     * {@code --bind-to auto}: this host's processors claimed for the peers that ask for it, kept
     * until the last peer has exited; null if none asks.
     */
    private CoreBinding.Auto autoBinding(LaunchRequest request) {
        int peers = 0;
        for (LaunchRequest.Peer spec : request.peers()) {
            try {
                peers += CoreBinding.mode(spec.environment()) == CoreBinding.Mode.AUTO ? 1 : 0;
            } catch (IllegalArgumentException e) {
                // That peer's start fails with the sentence.
            }
        }
        if (peers == 0) {
            return null;
        }
        CoreBinding.Auto auto = CoreBinding.Auto.claim(peers, CpuClaims.directory());
        binding = auto;
        return auto;
    }

    private void reportStartFailure(int rank, String reason, CountDownLatch latch) {
        reported.incrementAndGet();
        controller.trySend(ControlFrame.build(ControlMessageType.START_FAILED).putInt(rank).putString(reason).frame());
        latch.countDown();
    }

    @Override
    public void output(int rank, int stream, byte[] line) {
        controller.trySend(ControlFrame.build(ControlMessageType.OUTPUT).putInt(rank).putByte(stream)
                .putBytes(line).frame());
    }

    @Override
    public void stdinTaken(int rank, int bytes) {
        if (bytes > 0) {
            controller.trySend(ControlFrame.build(ControlMessageType.STDIN_ACK).putInt(rank).putInt(bytes).frame());
        }
    }

    @Override
    public void exited(int rank, int status, boolean stoppedByManager) {
        // The JVM wrote its hs_err log and heap dump before it exited, so the list is complete now.
        Path crashDir = crashDirs.get(rank);
        List<String> files = crashDir == null ? List.of() : CrashDirectories.collect(crashDir);
        if (reported.incrementAndGet() == launched) {
            // Before the last report: the launcher may end on it, and a job started next should find them free.
            releaseProcessors();
        }
        controller.trySend(new ExitReport(rank, status, stoppedByManager, files).frame());
    }

    /** Gives up the processors claimed for {@code --bind-to auto}, if any (again: nothing). */
    private void releaseProcessors() {
        CoreBinding.Auto claimed = binding;
        if (claimed != null) {
            claimed.close();
        }
    }

    /**
     * TERM every live peer's process group now, KILL what is left after the grace period. Peers of a
     * suspended job are continued after the TERM: a stopped process acts on it only once it runs.
     */
    void stop(int graceMillis) {
        stopping = true;
        peers.values().forEach(PeerProcess::terminate);
        if (suspended) {
            suspended = false;
            PeerProcess.signalAll("CONT", peers.values());
        }
        Thread killer = new Thread(() -> {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, graceMillis));
            for (PeerProcess p : peers.values()) {
                long left = deadline - System.nanoTime();
                try {
                    waitFor(p, left);
                } catch (InterruptedException e) {
                    break;
                }
                p.kill();
            }
        }, "cohort-iom-killer");
        killer.setDaemon(true);
        killer.start();
    }

    private static void waitFor(PeerProcess p, long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        while (p.isAlive()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            ProcessHandle h = ProcessHandle.of(p.pid()).orElse(null);
            if (h == null) {
                return;
            }
            try {
                h.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                return;
            }
        }
    }

    /** The controller is gone: nobody will collect output or exits, so end the peers and ourselves. */
    private void orphaned(boolean said) {
        if (launched >= 0 && reported.get() >= launched) {
            return; // every peer was reported; the connection ended with the job
        }
        if (launched >= 0 && !said) {
            // Before a launch there are no peers to stop, and the launcher has said why it hung up.
            log.println("cohort: io-manager lost its controller; stopping its peers");
        }
        stop(ORPHAN_GRACE_MILLIS);
        synchronized (this) {
            if (remaining == null) {
                remaining = new CountDownLatch(0);
                notifyAll();
            }
        }
        CountDownLatch r = remaining;
        try {
            r.await(ORPHAN_GRACE_MILLIS + 5000L, TimeUnit.MILLISECONDS);
        } catch (InterruptedException ignored) {
            // Exiting anyway.
        }
        removeShmDirectory(); // halt runs no clean-up of run()'s
        Runtime.getRuntime().halt(1);
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        for (;;) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                // Keep waiting for the peers.
            }
        }
    }
}

package io.cohort.launch;

import io.cohort.auth.JobSecret;
import io.cohort.launch.ControllerEvent.Accepted;
import io.cohort.launch.ControllerEvent.Exited;
import io.cohort.launch.ControllerEvent.IoManagerClosed;
import io.cohort.launch.ControllerEvent.IoManagerHello;
import io.cohort.launch.ControllerEvent.PeerAwaitedClosed;
import io.cohort.launch.ControllerEvent.PeerClosed;
import io.cohort.launch.ControllerEvent.PeerFailure;
import io.cohort.launch.ControllerEvent.PeerHello;
import io.cohort.launch.ControllerEvent.StacksAnswer;
import io.cohort.launch.ControllerEvent.StacksQueryOpened;
import io.cohort.launch.ControllerEvent.StartFailed;
import io.cohort.launch.ControllerEvent.Started;
import io.cohort.launch.ControllerEvent.Unidentified;
import io.cohort.net.ConnectionAdmission;
import io.cohort.stacks.JobStacks;
import io.cohort.stacks.RankStacks;
import io.cohort.stacks.StacksCodec;
import io.cohort.wireup.ControlAuth;
import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlMessageType;
import io.cohort.wireup.PeerRecord;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The controller's control listener: accepts connections on the rendezvous port, runs a thread per
 * connection, authenticates io-managers and peers ({@link ControlAuth}, the job's secret) and answers
 * stacks queries (the stacks token). An io-manager's thread writes its peers' output to the
 * {@link OutputRouter} itself (taking a debugged rank's JDWP lines out, {@link DebugSession}); for
 * everything else the threads only parse frames and post {@link ControllerEvent}s to the controller's
 * event thread, which alone acts on them. A query's thread waits for its collection and writes the
 * answer itself, so a slow reader never holds the event thread.
 */
final class ControlListener {
    /**
     * How long a new control connection may take for its first frame, and then for its proof, before it
     * is dropped: a live client sends its hello as soon as it is connected and its proof a round trip
     * later, so this is slack for a loaded machine, and the most a client without the secret holds a
     * connection.
     */
    static final int FIRST_FRAME_MILLIS = 10_000;
    /** After an accept() that failed (no file descriptor left, say), how long to wait before the next. */
    private static final long ACCEPT_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /**
     * Who may hold a control connection: pending ones bounded per address and in all (each holds a
     * thread for at most twice {@link #FIRST_FRAME_MILLIS}), authenticated ones not at all (they are the
     * job's own).
     */
    private final ConnectionAdmission admission;
    /** Control connections refused for want of a proof (connection threads count; any thread reads). */
    private final AtomicInteger unauthenticated = new AtomicInteger();
    private final JobSpec spec;
    private final String jobId;
    private final JobSecret secret;
    /** Lets a {@code STACKS_QUERY} in; unlike the job key it cannot make anyone a peer. */
    private final String stacksToken;
    private final OutputRouter router;
    private final DebugSession debug;
    private final StacksCollector stacks;
    private final Consumer<String> printLine;
    /** The job has ended (the controller's done flag). */
    private final BooleanSupplier done;
    private final Consumer<ControllerEvent> events;

    /**
     * @param printLine a line of the launcher's own on its stderr (any thread)
     * @param events    posts to the controller's event thread
     */
    ControlListener(JobSpec spec, int hosts, String jobId, JobSecret secret, String stacksToken, OutputRouter router,
                    DebugSession debug, StacksCollector stacks, Consumer<String> printLine, BooleanSupplier done,
                    Consumer<ControllerEvent> events) {
        this.spec = spec;
        this.jobId = jobId;
        this.secret = secret;
        this.stacksToken = stacksToken;
        this.router = router;
        this.debug = debug;
        this.stacks = stacks;
        this.printLine = printLine;
        this.done = done;
        this.events = events;
        // Bounds well above every peer and io-manager connecting at once: on one host they share the
        // flood's address (127.0.0.1), so a pending place must rarely have to be shed, and when it must,
        // a peer still in the middle of its handshake is not the oldest for long.
        int burst = spec.size() + hosts + 16;
        this.admission = new ConnectionAdmission(Math.max(256, burst), Math.max(1024, 2 * burst),
                Integer.MAX_VALUE);
    }

    /** Starts the acceptor thread; it ends when {@code server} is closed (the end of the job). */
    void start(ServerSocket server) {
        Thread acceptor = new Thread(() -> accept(server), "cohort-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Accepts control connections for the whole job. A connection is pending until it proves it holds
     * the job's secret, and {@link #admission} bounds the pending ones (per address and in all, the
     * oldest shed first), so clients without the secret cannot hold the rendezvous: each holds a
     * thread for at most twice {@link #FIRST_FRAME_MILLIS}. A failed accept pauses instead of ending
     * the acceptor: the job's peers may still be on their way.
     */
    private void accept(ServerSocket server) {
        while (!server.isClosed()) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (server.isClosed()) {
                    return; // the end of the job
                }
                java.util.concurrent.locks.LockSupport.parkNanos(ACCEPT_BACKOFF_NANOS);
                continue;
            }
            for (Socket shed : admission.admit(s)) {
                closeQuietly(shed); // its thread's read fails, and it reports the connection unidentified
            }
            events.accept(new Accepted());
            try {
                // A small stack: a connection thread reads frames and hands them on, and a flood may start many.
                Thread t = new Thread(null, () -> serve(s), "cohort-conn-" + s.getPort(), 256 * 1024);
                t.setDaemon(true);
                t.start();
            } catch (OutOfMemoryError e) { // no thread left: this connection goes, the acceptor stays
                admission.closed(s);
                closeQuietly(s);
                events.accept(new Unidentified(null));
            }
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // Closing a connection we give up on.
        }
    }

    private void serve(Socket socket) {
        try {
            serveConnection(socket);
        } finally {
            admission.closed(socket);
        }
    }

    private void serveConnection(Socket socket) {
        ControlConnection conn;
        try {
            conn = new ControlConnection(socket);
        } catch (IOException e) {
            events.accept(new Unidentified(null));
            return;
        }
        ControlFrame first;
        try {
            first = conn.readFirst(FIRST_FRAME_MILLIS);
        } catch (IOException e) {
            first = null;
        }
        if (first == null) {
            events.accept(new Unidentified(conn));
            return;
        }
        try {
            if (first.type() == ControlMessageType.IOM_HELLO) {
                ControlFrame.BodyReader r = first.reader();
                String helloJob = r.getString();
                String nonce = r.getString();
                String host = r.getString();
                long pid = r.getLong();
                StdinWindow window = r.hasMore() && r.getByte() == 1 ? new StdinWindow(spec.size()) : null;
                if (!authenticate(conn, first, nonce)) {
                    return;
                }
                events.accept(new IoManagerHello(conn, helloJob, host, pid, window));
                serveIoManager(conn, window);
            } else if (first.type() == ControlMessageType.PEER_HELLO) {
                PeerRecord.Hello hello = PeerRecord.parseHello(first);
                if (!authenticate(conn, first, hello.nonce)) {
                    return;
                }
                events.accept(new PeerHello(conn, hello));
                servePeer(conn);
            } else if (first.type() == ControlMessageType.STACKS_QUERY) {
                events.accept(new StacksQueryOpened());
                serveStacksQuery(conn, first);
            } else {
                events.accept(new Unidentified(conn));
            }
        } catch (IOException e) {
            events.accept(new Unidentified(conn)); // a malformed hello: drop the connection
        }
    }

    /**
     * The controller's side of {@link ControlAuth}: challenges the client of {@code hello} and waits
     * for its proof. False (the connection then counted as unidentified, closed and, under
     * {@code --verbose}, reported) for a client that cannot prove it holds the job's secret.
     */
    private boolean authenticate(ControlConnection conn, ControlFrame hello, String nonce) throws IOException {
        ControlAuth auth = ControlAuth.server(secret, nonce, hello);
        if (auth != null) {
            conn.send(auth.challenge());
            ControlFrame reply = conn.readFirst(FIRST_FRAME_MILLIS);
            if (auth.verify(reply)) {
                conn.seal(auth.serverSeal()); // nothing was sent since the challenge: every frame from here on is sealed
                admission.authenticated(conn.socket());
                return true;
            }
        }
        int refused = unauthenticated.incrementAndGet();
        if (spec.verbose()) {
            printLine.accept("cohort: job " + jobId + ": refused a control connection from " + conn.remoteAddress()
                    + " that could not prove it holds the job's secret (" + refused + " so far)");
        }
        events.accept(new Unidentified(conn));
        return false;
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
                        if (rank >= 0 && rank < spec.size()) {
                            byte[] output = debug.withoutListeningLine(conn, rank, stream, line);
                            if (output != null) {
                                router.write(rank, stream, output);
                            }
                        }
                        if (conn.idle()) {
                            router.flush();
                        }
                        break;
                    }
                    case ControlMessageType.EXITED:
                        router.flush(); // output files: the peer's last line is out before its exit counts (stdout/stderr flush themselves)
                        events.accept(new Exited(conn, ExitReport.parse(f)));
                        break;
                    case ControlMessageType.STARTED:
                        events.accept(new Started(conn, r.getInt(), r.getLong()));
                        break;
                    case ControlMessageType.START_FAILED:
                        events.accept(new StartFailed(conn, r.getInt(), r.getString()));
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
            if (spec.verbose() && !done.getAsBoolean()) {
                printLine.accept("cohort: io-manager connection failed: " + e);
            }
        }
        if (stdinWindow != null) {
            stdinWindow.close();
        }
        router.flush();
        events.accept(new IoManagerClosed(conn, failure));
    }

    private void servePeer(ControlConnection conn) {
        try {
            ControlFrame f;
            while ((f = conn.read()) != null) {
                if (f.type() == ControlMessageType.PEER_FAILURE) {
                    ControlFrame.BodyReader r = f.reader();
                    events.accept(new PeerFailure(conn, r.getInt(), r.getString()));
                } else if (f.type() == ControlMessageType.PEER_AWAITED_CLOSED) {
                    events.accept(new PeerAwaitedClosed(conn, f.reader().getInt()));
                } else if (f.type() == ControlMessageType.STACKS) {
                    stacksFrame(conn, f);
                }
                // PEER_FINALIZED needs no action: a clean exit says the same.
            }
        } catch (IOException e) {
            // A broken connection ends like a closed one.
        }
        events.accept(new PeerClosed(conn));
    }

    /** Parsed here, on the peer's connection thread; a malformed answer counts as one that says why. */
    private void stacksFrame(ControlConnection conn, ControlFrame f) throws IOException {
        ControlFrame.BodyReader r = f.reader();
        int requestId = r.getInt();
        try {
            events.accept(new StacksAnswer(conn, requestId, StacksCodec.decode(r.getBytes()), null));
        } catch (IOException e) {
            events.accept(new StacksAnswer(conn, requestId, null, e.getMessage()));
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
            JobStacks stacks = this.stacks.collect(timeout).get(StacksCollector.TIMEOUT_MAX.toMillis()
                    + TimeUnit.NANOSECONDS.toMillis(JobStop.STOP_SLACK_NANOS), TimeUnit.MILLISECONDS);
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

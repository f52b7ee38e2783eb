package io.cohort.wireup;

import io.cohort.CohortException;
import io.cohort.idle.PausableDeadline;
import io.cohort.transport.tcp.KeepAlive;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The peer's control connection to the controlling process: publish our endpoints, receive the
 * table of everyone's, report peers we saw fail, say we finished. While the job runs the progress
 * agent calls {@link #pollControl}, whose wait is the agent's sleep: an ABORT from the controller,
 * or the controller's disappearance, ends this process within one agent period. A
 * {@link ControlMessageType#STACKS_REQUEST}, during wire-up or later, is handed to a
 * {@link StacksResponder}, whose own thread answers it.
 */
public final class WireupClient implements AutoCloseable {
    private final JobEnvironment env;
    private final SocketChannel channel;
    private final Selector selector;
    private ByteBuffer in = ByteBuffer.allocate(4096);
    /** The tags of every frame after the challenge-response; null before it. Set under the send lock. */
    private volatile ControlSeal seal;
    private volatile boolean finished;
    private volatile PeerGoneListener goneListener;
    /** Made on the first stacks request: a job nobody inspects never loads its classes. */
    private StacksResponder stacks;

    /** Told of every {@link ControlMessageType#PEER_GONE}: a rank and a sentence naming it and its status. */
    @FunctionalInterface
    public interface PeerGoneListener {
        void peerGone(int rank, String reason);
    }

    private WireupClient(JobEnvironment env, SocketChannel channel) throws IOException {
        this.env = env;
        this.channel = channel;
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        KeepAlive.on(channel); // the launcher's host dying ends this peer, not leaves it waiting
        this.selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
        in.limit(0);
    }

    public static WireupClient connect(JobEnvironment env) throws IOException {
        SocketChannel ch = SocketChannel.open();
        try {
            ch.socket().connect(env.controller(), (int) TimeUnit.SECONDS.toMillis(env.wireupTimeoutSeconds()));
        } catch (IOException e) {
            ch.close();
            throw new IOException("cannot reach the launcher at " + env.controller() + ": " + e.getMessage(), e);
        }
        return new WireupClient(env, ch);
    }

    /** The local address of the control connection: an address of ours the launcher's network reaches. */
    public InetAddress localAddress() throws IOException {
        return ((InetSocketAddress) channel.getLocalAddress()).getAddress();
    }

    /**
     * Publishes {@code self} and blocks until the controller sends every peer's record. The hello
     * opens the {@link ControlAuth} challenge-response: the table is believed only from a controller
     * that proved it holds the job's secret, and the controller takes this peer as one of the job's
     * only once it has proved the same.
     */
    public PeerRecord[] exchange(PeerRecord self, long timeoutNanos) throws IOException {
        String nonce = ControlAuth.newClientNonce();
        ControlFrame hello = self.hello(env.jobId(), nonce);
        ControlAuth auth = ControlAuth.client(env.secret(), nonce, hello);
        boolean authenticated = false;
        send(hello);
        // The job may be suspended (Ctrl-Z) while we wait: that time is not counted.
        PausableDeadline deadline = new PausableDeadline(timeoutNanos);
        for (;;) {
            ControlFrame f = nextFrame();
            if (f == null) {
                long left = deadline.nextWait();
                if (left <= 0) {
                    throw new IOException("the launcher did not send the peer table within "
                            + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos) + " s; did every peer start?");
                }
                if (!readSome(left)) {
                    throw new IOException("the launcher closed the control connection during start-up");
                }
                continue;
            }
            switch (f.type()) {
                case ControlMessageType.AUTH_CHALLENGE:
                    if (authenticated) {
                        throw new IOException("the launcher sent a second authentication challenge");
                    }
                    ControlFrame proof = auth.answer(f);
                    synchronized (this) { // the send lock: the proof goes out bare, everything after it sealed
                        send(proof);
                        seal = auth.clientSeal();
                    }
                    authenticated = true;
                    break;
                case ControlMessageType.PEER_TABLE:
                    if (!authenticated) {
                        throw new IOException("the launcher sent the peer table before it authenticated itself");
                    }
                    PeerRecord[] table = PeerRecord.parseTable(f);
                    if (table.length != env.size()) {
                        throw new IOException("the launcher sent a table of " + table.length + " peers, expected "
                                + env.size());
                    }
                    return table;
                case ControlMessageType.REJECTED:
                case ControlMessageType.ABORT:
                    if (!authenticated) {
                        // Its text is not shown: whoever sent it has not proved to be the launcher.
                        throw new IOException("the process at the launcher's address refused this peer without proving it holds the job's secret");
                    }
                    throw new IOException("the launcher refused this peer: " + f.reader().getString());
                case ControlMessageType.STACKS_REQUEST:
                    if (authenticated) {
                        stacksRequested(f); // a hang in wire-up is worth a look too
                    }
                    break;
                default:
                    // Nothing else is expected before the table; skip it.
            }
        }
    }

    public void onPeerGone(PeerGoneListener listener) {
        this.goneListener = listener;
    }

    public void reportFailure(int peer, String reason) {
        if (!finished) {
            trySend(ControlFrame.build(ControlMessageType.PEER_FAILURE).putInt(peer).putString(reason).frame());
        }
    }

    /** A receive of this peer failed because {@code peer} had closed its world; told once per peer. */
    public void reportAwaitedClosed(int peer) {
        if (!finished) {
            trySend(ControlFrame.build(ControlMessageType.PEER_AWAITED_CLOSED).putInt(peer).frame());
        }
    }

    public void finalized() {
        trySend(ControlFrame.build(ControlMessageType.PEER_FINALIZED).frame());
        finished = true;
    }

    /** Why the control connection's read failed (not an orderly end), or null. */
    private volatile String readFailure;

    /** The agent's duty: wait up to {@code nanos} for control messages and act on them. */
    public void pollControl(long nanos) throws IOException {
        if (finished) {
            LockSupport.parkNanos(nanos);
            return;
        }
        boolean open;
        ControlFrame f = nextFrame();
        if (f == null) {
            open = readSome(nanos);
            f = nextFrame();
        } else {
            open = true;
        }
        while (f != null) {
            if (f.type() == ControlMessageType.ABORT) {
                String reason = f.reader().getString();
                exitNow("cohort: rank " + env.rank() + " stopped by the launcher: " + reason, 143);
            } else if (f.type() == ControlMessageType.PEER_GONE) {
                ControlFrame.BodyReader r = f.reader();
                int rank = r.getInt();
                r.getInt(); // status: the reason sentence already says it
                String reason = r.getString();
                PeerGoneListener l = goneListener;
                if (l != null) {
                    l.peerGone(rank, reason);
                }
            } else if (f.type() == ControlMessageType.STACKS_REQUEST) {
                stacksRequested(f);
            }
            f = nextFrame();
        }
        if (!open && !finished) {
            String failure = readFailure;
            // A reset or broken pipe is how a launcher that exits (or gives up on a host) ends a
            // connection with unread data: gone, as at end of stream. Anything else (a time-out of
            // keepalive, no route) is the connection failing, with the launcher perhaps alive.
            if (failure != null && !failure.contains("reset") && !failure.contains("Broken pipe")) {
                // The launcher may well be alive: the connection failed (a lossy or cut link). Not 143,
                // which would read as a stop by the launcher.
                exitNow("cohort: rank " + env.rank() + " lost its connection to the launcher (" + failure + "); exiting", 1);
            }
            exitNow("cohort: rank " + env.rank() + " lost its launcher (the controlling process is gone); exiting", 143);
        }
    }

    /** Called by the connection's one reader thread (exchange, then the agent's pollControl). */
    private void stacksRequested(ControlFrame f) {
        int requestId;
        try {
            requestId = f.reader().getInt();
        } catch (IOException e) {
            return; // malformed: dropped, like any frame we cannot read
        }
        if (stacks == null) {
            stacks = new StacksResponder(new StacksResponder.Sender() {
                @Override
                public void send(ControlFrame answer) {
                    trySend(answer);
                }
            });
        }
        stacks.request(requestId);
    }

    private static void exitNow(String line, int status) {
        System.err.println(line);
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }

    private ControlFrame nextFrame() throws IOException {
        ControlFrame f = ControlFrame.parse(in);
        ControlSeal s = seal;
        return f == null || s == null ? f : s.open(f);
    }

    /** Reads what is available, waiting up to {@code nanos}; false at end of stream. */
    private boolean readSome(long nanos) throws IOException {
        selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos)));
        selector.selectedKeys().clear();
        in.compact();
        if (!in.hasRemaining()) {
            ByteBuffer bigger = ByteBuffer.allocate(in.capacity() * 2);
            in.flip();
            bigger.put(in);
            in = bigger;
        }
        int n;
        try {
            n = channel.read(in);
        } catch (IOException e) {
            readFailure = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            n = -1;
        } finally {
            in.flip();
        }
        return n >= 0;
    }

    private synchronized void send(ControlFrame f) throws IOException {
        ControlSeal s = seal;
        ByteBuffer b = (s == null ? f : s.seal(f)).encode();
        while (b.hasRemaining()) {
            if (channel.write(b) == 0) {
                LockSupport.parkNanos(100_000); // control frames are tiny; a full socket clears quickly
            }
        }
    }

    private void trySend(ControlFrame f) {
        try {
            send(f);
        } catch (IOException e) {
            // The launcher is gone; pollControl will notice and end the process.
        }
    }

    @Override
    public void close() {
        finished = true;
        try {
            selector.close();
            channel.close();
        } catch (IOException ignored) {
            // Closing at the end; nothing to report.
        }
    }

    /**
     * Wraps start-up failures with the peer's identity. The expected kinds (I/O, Cohort's own checks)
     * become a {@link StartupFailedException}, one line to the user; anything else is a bug of ours
     * and keeps its stack trace.
     */
    static CohortException startupFailure(JobEnvironment env, Exception e) {
        String message = "rank " + env.rank() + " could not join job " + env.jobId() + ": " + e.getMessage();
        return e instanceof IOException || e instanceof CohortException || e instanceof io.cohort.BadSettingException
                ? new StartupFailedException(message, e) : new CohortException(message, e);
    }
}

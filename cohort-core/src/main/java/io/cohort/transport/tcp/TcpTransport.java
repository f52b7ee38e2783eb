package io.cohort.transport.tcp;

import io.cohort.CohortException;
import io.cohort.auth.JobSecret;
import io.cohort.transport.InboundSink;
import io.cohort.transport.SendCompletion;
import io.cohort.transport.Transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SelectableChannel;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * PSE's TCP option: one connection per pair of peers, one selector for all of them.
 *
 * <p>Life cycle: construct (binds an ephemeral port) → publish {@link #localAddress()} through the
 * wire-up → {@link #connect} once every peer's address is known → traffic → goodbye handshake →
 * {@link #close()}.
 */
public final class TcpTransport implements Transport {
    /** How long start-up may take to connect to every peer. */
    public static final long CONNECT_TIMEOUT_NANOS_DEFAULT = TimeUnit.SECONDS.toNanos(60);
    /** The purpose the handshake's key is derived for ({@link JobSecret#authenticator}): no other frame verifies with it. */
    public static final String HANDSHAKE_PURPOSE = "tcp-handshake";

    private final int rank;
    private final int size;
    private final JobSecret secret;
    private final long jobTag;
    private final ServerSocketChannel server;
    private final Selector selector;
    private final TcpConnection[] connections;
    private final AtomicLong malformedFrames = new AtomicLong();
    private final Consumer<SelectionKey> handler = new Consumer<SelectionKey>() {
        @Override
        public void accept(SelectionKey key) {
            handle(key);
        }
    };
    private int rejectedConnections;
    private int failedAuthentications;
    private int work;
    private volatile boolean closing;

    /**
     * {@code secret} is the job's: every connection proves it holds the key derived from it before it
     * becomes a peer's, and the secret itself never travels.
     */
    public TcpTransport(int rank, int size, JobSecret secret, InetSocketAddress bindAddress) throws IOException {
        this.rank = rank;
        this.size = size;
        this.secret = secret;
        this.jobTag = secret.jobTag();
        this.server = ServerSocketChannel.open();
        this.server.bind(bindAddress, Math.max(64, size));
        this.selector = Selector.open();
        this.connections = new TcpConnection[size];
    }

    /** The address other peers connect to (the bind address with the ephemeral port filled in). */
    public InetSocketAddress localAddress() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    /**
     * Connects to every other peer. {@code peerNames[i]} describes rank i in error messages
     * ("rank 3 (pid 4711 on node7)").
     */
    public void connect(InetSocketAddress[] endpoints, String[] peerNames, InboundSink sink, long timeoutNanos)
            throws IOException {
        boolean[] all = new boolean[size];
        java.util.Arrays.fill(all, true);
        connect(endpoints, all, peerNames, sink, timeoutNanos);
    }

    /** Connects to the ranks marked in {@code wanted} only (the pairs that use TCP). */
    public void connect(InetSocketAddress[] endpoints, boolean[] wanted, String[] peerNames, InboundSink sink,
            long timeoutNanos) throws IOException {
        // The handshake key is made here, on the thread that runs the mesh: an authenticator is one thread's.
        TcpMeshConnector mesh = new TcpMeshConnector(rank, size, jobTag, secret.authenticator(HANDSHAKE_PURPOSE), server);
        SocketChannel[] channels;
        try {
            channels = mesh.connect(endpoints, wanted, timeoutNanos);
        } finally {
            rejectedConnections += mesh.rejected();
            failedAuthentications += mesh.failedAuthentication();
            server.close(); // the mesh is complete (or failed): nobody else may connect
        }
        for (int i = 0; i < size; i++) {
            if (channels[i] != null) {
                TcpConnection c = new TcpConnection(i, peerNames[i], channels[i], this, sink);
                connections[i] = c;
                c.register(channels[i].register(selector, SelectionKey.OP_READ, c));
            }
        }
    }

    /** The ranks this transport is connected to, for {@code ProgressEngine.attach}. */
    public int[] peers() {
        int n = 0;
        for (TcpConnection c : connections) {
            if (c != null) {
                n++;
            }
        }
        int[] peers = new int[n];
        for (int i = 0, j = 0; i < size; i++) {
            if (connections[i] != null) {
                peers[j++] = i;
            }
        }
        return peers;
    }

    @Override
    public String name() {
        return "tcp";
    }

    @Override
    public void send(int dest, int context, int tag, ByteBuffer payload, SendCompletion completion) {
        TcpConnection c = connections[dest];
        if (c == null) {
            completion.failed(new CohortException("no TCP connection to rank " + dest));
            return;
        }
        c.send(context, tag, payload, completion);
    }

    @Override
    public int poll() {
        work = 0;
        try {
            selector.selectNow(handler);
        } catch (IOException e) {
            throw new CohortException("TCP selector failed: " + e.getMessage(), e);
        }
        return work;
    }

    @Override
    public boolean canBlock() {
        return true;
    }

    /** A select that finds channels ready returns at once and reads them, as {@code selectNow} would. */
    @Override
    public boolean blockReplacesPoll() {
        return true;
    }

    @Override
    public void block(long nanos) {
        work = 0;
        try {
            selector.select(handler, Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos)));
        } catch (IOException e) {
            throw new CohortException("TCP selector failed: " + e.getMessage(), e);
        }
    }

    private void handle(SelectionKey key) {
        if (!(key.attachment() instanceof TcpConnection c)) {
            return; // another transport's wake channel (alsoWakeOn): that transport reads it
        }
        if (!key.isValid()) {
            return;
        }
        if (key.isReadable()) {
            work += c.read() + 1;
        }
        if (key.isValid() && key.isWritable()) {
            c.flush();
            work++;
        }
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public boolean alsoWakeOn(SelectableChannel channel) {
        try {
            channel.register(selector, SelectionKey.OP_READ);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void startClose() {
        closing = true;
        for (TcpConnection c : connections) {
            if (c != null) {
                c.sendBye();
            }
        }
    }

    @Override
    public boolean isCloseComplete() {
        for (TcpConnection c : connections) {
            if (c != null && !c.isEnded() && !(c.byeReceived() && c.outboundDrained())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        for (TcpConnection c : connections) {
            if (c != null) {
                c.endQuietly();
            }
        }
        try {
            server.close();
            selector.close();
        } catch (IOException ignored) {
            // Nothing useful to do when closing fails at the end.
        }
    }

    void countMalformed() {
        malformedFrames.incrementAndGet();
    }

    /** Frames dropped as malformed since start. */
    public long malformedFrames() {
        return malformedFrames.get();
    }

    /** Connections refused at start-up as not belonging to this job (strangers, other jobs' peers). */
    public int rejectedConnections() {
        return rejectedConnections;
    }

    /** Connections refused at start-up that sent a hello of this job but did not prove they hold its key. */
    public int failedAuthentications() {
        return failedAuthentications;
    }

    boolean isClosing() {
        return closing;
    }
}

package io.cohort.transport.tcp;

import io.cohort.auth.FrameAuthenticator;
import io.cohort.idle.LocalPause;
import io.cohort.idle.PausableDeadline;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;

/**
 * Builds the full mesh at start-up: each peer connects to every lower rank and accepts every higher
 * one, all at once on one selector, and each connection runs a {@link TcpHandshake}, a mutual
 * challenge-response, before it becomes a peer's. Strangers (wrong magic, version, job tag or size,
 * a rank that may not connect) are closed and counted as not of this job; a connection that claims
 * to be a member but cannot prove it is closed and counted as a failed authentication. Neither ends
 * the job, and neither holds up the real peers: any number of handshakes may be under way at once,
 * even several claiming the same rank, and only a proof makes a connection a peer's.
 *
 * <p>Nor does a flood of idle connections hold the mesh's resources: each handshake has
 * {@link #HANDSHAKE_TIMEOUT_NANOS} to finish, and unfinished accepted ones are capped per remote
 * address and in all, the oldest idle one making room for a new one.
 */
final class TcpMeshConnector {
    /**
     * How long one handshake may take, from accept (or from our own connection being made), before
     * it is closed: 5 s. A peer that is alive sends its hello the moment it is connected and its
     * proof the moment our answer arrives, so its whole handshake is one round trip and two HMACs,
     * microseconds on loopback and milliseconds across a data centre; 5 s leaves room for a heavily
     * loaded machine or a long garbage collection on its side (a pause on ours is not counted; one on
     * the connecting side past it fails the job's start, so it is not cut fine), and sheds an idle
     * connection long before the start-up time limit.
     */
    static final long HANDSHAKE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /**
     * Unfinished accepted handshakes from one remote address, beyond one for each rank that may
     * connect to us: a host's own ranks never crowd each other out, and one host's flood cannot
     * take more than this of the total.
     */
    static final int MAX_UNFINISHED_PER_ADDRESS = 16;
    /** Unfinished accepted handshakes in all, beyond one for each rank that may connect to us: a bound on descriptors. */
    static final int MAX_UNFINISHED = 128;
    /**
     * How long the listener is not asked for connections after accept() failed: 50 ms. The
     * connection it could not take (no descriptor left, say) stays in the kernel's queue, so
     * OP_ACCEPT would fire again at once and the selector would spin; 50 ms lets the handshakes
     * under way finish or time out and give their descriptors back, and is nothing to a start-up.
     */
    static final long ACCEPT_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /**
     * The first wait before our connection to a lower rank is made again, after it was refused
     * (listener not up yet), closed during its handshake, answered by something that could not
     * prove it is the rank, or left unanswered past its deadline: 5 ms, doubling each time up to
     * {@link #MAX_RETRY_NANOS}. A listener that is not up yet refuses at once, so an immediate retry
     * would spin; and a rank that shed our connection (a flood of strangers filled its caps before
     * our hello was read) is reached on a later try rather than failing the job.
     */
    static final long FIRST_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    static final long MAX_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /**
     * How many times a lower rank may close our connection during its handshake before the start
     * fails: 8. A rank closes, without a word, a hello that is not of its job (another job's peer at
     * the address we were given), and also one it had not yet read when a flood of strangers made
     * its caps shed the oldest idle connection. The first is a mistake to report at once, the second
     * an attack to outlast; after 8 closes in a row (about 0.6 s of back-off), it is the first.
     */
    static final int CLOSES_BEFORE_FAILING = 8;

    private final int rank;
    private final int size;
    private final ServerSocketChannel server;
    private final TcpHandshake.Self self;
    private int rejected;
    private int failedAuthentication;
    /**
     * The handshakes under way, oldest first, each with its deadline on {@link #clock}: every
     * accepted one, and our own once their connection is made. All have the same time limit, so
     * the first is also the next to expire.
     */
    private final Map<TcpHandshake, Long> unfinished = new LinkedHashMap<>();
    private int perAddressCap;
    private int totalCap;
    /** Whether the listener is not asked for connections, after accept() failed, until {@link #acceptAgainAt} ({@link #clock}). */
    private boolean acceptPaused;
    private long acceptAgainAt;
    private LocalPause pauses;
    private long pausedNanos;
    /** Per lower rank: when (on {@link #clock}) our connection to it is made again, or {@link #NO_RETRY}. */
    private long[] retryAt;
    /** Per lower rank: the wait before the next retry after this one. */
    private long[] retryDelay;
    /** Per lower rank: why our last connection to it failed, for the time-out's message (null: none failed). */
    private String[] lastFailure;
    /** Per lower rank: how many times it closed our connection during the handshake. */
    private int[] closes;
    private static final long NO_RETRY = Long.MIN_VALUE;

    /** {@code key} is the job's handshake key, of the calling thread only (an authenticator keeps state). */
    TcpMeshConnector(int rank, int size, long jobTag, FrameAuthenticator key, ServerSocketChannel server) {
        this.rank = rank;
        this.size = size;
        this.server = server;
        this.self = new TcpHandshake.Self(rank, size, jobTag, key);
    }

    /** Connections refused as not of this job. */
    int rejected() {
        return rejected;
    }

    /** Connections that sent a hello of this job but did not prove it. */
    int failedAuthentication() {
        return failedAuthentication;
    }

    /**
     * Returns one connected, authenticated, non-blocking channel per wanted rank (null elsewhere).
     * {@code wanted} must be symmetric across the job: if i wants j, j wants i.
     */
    SocketChannel[] connect(InetSocketAddress[] endpoints, boolean[] wanted, long timeoutNanos) throws IOException {
        SocketChannel[] established = new SocketChannel[size];
        int count = 0;
        int expected = 0;
        int connectingToUs = 0;
        for (int j = 0; j < size; j++) {
            if (j != rank && wanted[j]) {
                expected++;
                if (j > rank) {
                    connectingToUs++;
                }
            }
        }
        // Each rank that connects to us has one handshake under way at a time: the caps leave room for all of them.
        perAddressCap = MAX_UNFINISHED_PER_ADDRESS + connectingToUs;
        totalCap = MAX_UNFINISHED + connectingToUs;
        pauses = new LocalPause(System.nanoTime());
        retryAt = new long[size];
        java.util.Arrays.fill(retryAt, NO_RETRY);
        retryDelay = new long[size];
        java.util.Arrays.fill(retryDelay, FIRST_RETRY_NANOS);
        lastFailure = new String[size];
        closes = new int[size];
        // Higher ranks connect to us; a rank already proven may not come again.
        IntPredicate admissible = peer -> peer > rank && wanted[peer] && established[peer] == null;
        PausableDeadline deadline = new PausableDeadline(timeoutNanos); // a suspended job's time is not counted
        try (Selector selector = Selector.open()) {
          try {
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
            for (int j = 0; j < rank; j++) {
                if (wanted[j]) {
                    startConnect(selector, endpoints[j], j);
                }
            }
            while (count < expected) {
                long remaining = deadline.nextWait();
                if (remaining <= 0) {
                    throw new IOException("timed out after " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos)
                            + " s connecting to ranks " + missing(established, wanted) + "; are they alive and reachable?"
                            + failures(established, wanted)
                            + (failedAuthentication == 0 ? "" : " (" + failedAuthentication
                                    + " connections failed authentication: something that is not this job's answered or called)"));
                }
                // The selector's time-out wakes the loop for the next handshake deadline or the end
                // of an accept back-off: they are enforced without sleeping, and without polling.
                long now = clock();
                long wait = Math.min(remaining, nextTimer(now));
                selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait)));
                now = clock();
                boolean acceptable = false;
                for (SelectionKey key : new ArrayList<>(selector.selectedKeys())) {
                    selector.selectedKeys().remove(key);
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        acceptable = true; // taken after the reads, below
                        continue;
                    }
                    TcpHandshake h = (TcpHandshake) key.attachment();
                    if (key.isConnectable()) {
                        try {
                            if (h.channel.finishConnect()) {
                                if (!h.start()) {
                                    throw new IOException("rank " + h.expected + " did not take our handshake");
                                }
                                key.interestOps(SelectionKey.OP_READ);
                                unfinished.put(h, now + HANDSHAKE_TIMEOUT_NANOS);
                            }
                        } catch (IOException refused) {
                            key.cancel();
                            h.channel.close();
                            retryLater(h.expected, "refused the connection", clock()); // listener not up yet
                        }
                        continue;
                    }
                    if (!key.isReadable()) {
                        continue;
                    }
                    TcpHandshake.Step step = h.read();
                    if (step == TcpHandshake.Step.WAITING) {
                        continue;
                    }
                    key.cancel();
                    unfinished.remove(h);
                    if (step == TcpHandshake.Step.DONE && established[h.peer()] == null) {
                        established[h.peer()] = h.channel;
                        count++;
                        continue;
                    }
                    h.channel.close();
                    refused(h, step, endpoints);
                    if (step != TcpHandshake.Step.NOT_OF_THIS_JOB && h.isConnector()) {
                        // Whatever answered at the rank's address could not prove it is the rank, or
                        // the rank shed our connection before reading our hello (a flood filled its
                        // caps): try again until the real one answers or the deadline says which
                        // rank is missing, and why its address failed.
                        retryLater(h.expected, step == TcpHandshake.Step.CLOSED
                                ? "closed our connection during the handshake" : "could not prove it is the rank", now);
                    }
                }
                if (acceptable) {
                    // One connection per round, and after this round's reads: a peer whose hello
                    // arrived is answered (and so no longer looks idle) before the next stranger
                    // can make the caps shed the oldest idle connection.
                    accept(selector, admissible, now);
                }
                startDueRetries(selector, endpoints, deadline);
                // After the reads, so that a proof that arrived in time is taken rather than expired.
                expire();
                if (acceptPaused && clock() - acceptAgainAt >= 0) {
                    acceptPaused = false;
                    server.keyFor(selector).interestOps(SelectionKey.OP_ACCEPT);
                }
            }
            server.keyFor(selector).cancel();
            selector.selectNow(); // flush cancelled keys so the channels can join the transport's selector
          } finally {
            closeUnfinished(selector);
          }
        } catch (IOException e) {
            for (SocketChannel c : established) {
                if (c != null) {
                    c.close();
                }
            }
            throw e;
        }
        for (SocketChannel c : established) {
            if (c != null) {
                c.setOption(StandardSocketOptions.TCP_NODELAY, true);
                KeepAlive.on(c); // a peer whose host dies is noticed, not waited for
            }
        }
        return established;
    }

    /**
     * The mesh's clock: {@link System#nanoTime} less the pauses of this process ({@link LocalPause}),
     * so that after a suspension of the job a handshake is not expired before its peer ran again.
     */
    private long clock() {
        long now = System.nanoTime();
        pausedNanos += pauses.look(now);
        return now - pausedNanos;
    }

    /** Nanoseconds until the next handshake deadline, the end of the accept back-off or a retry (Long.MAX_VALUE: none). */
    private long nextTimer(long now) {
        long next = unfinished.isEmpty() ? Long.MAX_VALUE : unfinished.values().iterator().next() - now; // the first is the earliest
        if (acceptPaused) {
            next = Math.min(next, acceptAgainAt - now);
        }
        for (int j = 0; j < rank; j++) {
            if (retryAt[j] != NO_RETRY) {
                next = Math.min(next, retryAt[j] - now);
            }
        }
        return Math.max(0, next);
    }

    private void accept(Selector selector, IntPredicate admissible, long now) {
        SocketChannel c;
        try {
            c = server.accept();
        } catch (IOException e) {
            // One connection that could not be taken (no descriptor left) is that connection's loss,
            // not the mesh's: counted, and the real peers are still accepted after it. It stays in
            // the kernel's queue, though, so stop asking for a while rather than spin on it.
            rejected++;
            server.keyFor(selector).interestOps(0);
            acceptPaused = true;
            acceptAgainAt = now + ACCEPT_BACKOFF_NANOS;
            return;
        }
        if (c == null) {
            return;
        }
        try {
            c.configureBlocking(false);
            makeRoomFor(c.socket().getInetAddress());
            TcpHandshake h = TcpHandshake.accepted(c, self, admissible);
            c.register(selector, SelectionKey.OP_READ, h);
            unfinished.put(h, now + HANDSHAKE_TIMEOUT_NANOS);
        } catch (IOException e) {
            rejected++; // reset before we could take it: that connection's loss
            close(c);
        }
    }

    /**
     * Closes one unfinished accepted handshake if a new one from {@code from} would exceed the caps:
     * the oldest that has not sent a hello of this job, else the oldest. A live peer sends its hello
     * the moment it is connected and is answered at once, so the idle ones are a flood's; a flood of
     * replayed hellos is shed oldest first, and a real peer finishes within a round trip.
     */
    private void makeRoomFor(InetAddress from) {
        int all = 0;
        int fromThere = 0;
        for (TcpHandshake h : unfinished.keySet()) {
            if (!h.isConnector()) {
                all++;
                if (Objects.equals(from, h.channel.socket().getInetAddress())) {
                    fromThere++;
                }
            }
        }
        boolean sameAddress = fromThere >= perAddressCap;
        if (!sameAddress && all < totalCap) {
            return;
        }
        TcpHandshake victim = null;
        for (TcpHandshake h : unfinished.keySet()) {
            if (h.isConnector() || (sameAddress && !Objects.equals(from, h.channel.socket().getInetAddress()))) {
                continue;
            }
            if (!h.claimedMembership()) {
                victim = h;
                break;
            }
            if (victim == null) {
                victim = h;
            }
        }
        drop(victim);
    }

    /**
     * Closes every handshake past its deadline and counts it like the other drops: one that sent a
     * hello of this job failed authentication, any other was not of this job. Our own connection
     * to a rank is tried again after its back-off, as after a failed proof: whatever holds the
     * rank's address silent is not the rank, and the start-up deadline still says which rank is
     * missing.
     */
    private void expire() {
        long now = clock();
        List<TcpHandshake> late = new ArrayList<>();
        for (Map.Entry<TcpHandshake, Long> e : unfinished.entrySet()) {
            if (now - e.getValue() < 0) {
                break; // oldest first: the rest are later still
            }
            late.add(e.getKey());
        }
        for (TcpHandshake h : late) {
            drop(h);
            if (h.isConnector()) {
                retryLater(h.expected, "did not finish the handshake in time", now);
            }
        }
    }

    /** Closes an unfinished handshake (which cancels its key) and counts it. */
    private void drop(TcpHandshake h) {
        unfinished.remove(h);
        countDropped(h);
        close(h.channel);
    }

    /** A dropped connection that sent a hello of this job and no proof failed authentication; any other was not of this job. */
    private void countDropped(TcpHandshake h) {
        if (h.claimedMembership()) {
            failedAuthentication++; // a replay, or an impostor that gave up or stalled
        } else {
            rejected++;
        }
    }

    private static void close(SocketChannel c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // it is being dropped anyway
        }
    }

    /**
     * Counts a connection that did not become a peer's. On an accepted connection that is all: a
     * stranger never ends the job. On our own connection to a lower rank, an answer that is not
     * this job's means the address is not that rank's: a clear failure now, rather than a time-out
     * later. A failed proof or a close there is retried by the caller: a close is what a rank does
     * to a connection whose hello it had not read when a flood filled its caps, up to
     * {@link #CLOSES_BEFORE_FAILING} times.
     */
    private void refused(TcpHandshake h, TcpHandshake.Step step, InetSocketAddress[] endpoints) throws IOException {
        boolean failedProof = step == TcpHandshake.Step.FAILED_AUTHENTICATION
                || (step == TcpHandshake.Step.CLOSED && h.claimedMembership() && !h.isConnector());
        if (failedProof) {
            failedAuthentication++;
        } else {
            rejected++;
        }
        if (h.isConnector() && step == TcpHandshake.Step.NOT_OF_THIS_JOB) {
            throw new IOException("the process at " + endpoints[h.expected] + " is not rank " + h.expected + " of this job");
        }
        if (h.isConnector() && step == TcpHandshake.Step.CLOSED && ++closes[h.expected] >= CLOSES_BEFORE_FAILING) {
            throw new IOException("rank " + h.expected + " closed our connection during the handshake " + closes[h.expected]
                    + " times: is the process at " + endpoints[h.expected] + " rank " + h.expected + " of this job?");
        }
    }

    /**
     * Closes (and counts) every connection still in its handshake: strangers that never finished one
     * (and, after a failure, our own attempts). Without this they would stay open, unread, for the
     * life of the peer.
     */
    private void closeUnfinished(Selector selector) {
        for (SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof TcpHandshake h) {
                key.cancel();
                if (!h.isConnector()) {
                    countDropped(h);
                }
                close(h.channel);
            }
        }
    }

    private void startConnect(Selector selector, InetSocketAddress address, int peer) throws IOException {
        SocketChannel c = SocketChannel.open();
        c.configureBlocking(false);
        TcpHandshake h = TcpHandshake.connecting(c, peer, self);
        if (c.connect(address)) {
            if (!h.start()) {
                c.close();
                throw new IOException("rank " + peer + " did not take our handshake");
            }
            c.register(selector, SelectionKey.OP_READ, h);
            unfinished.put(h, clock() + HANDSHAKE_TIMEOUT_NANOS);
        } else {
            c.register(selector, SelectionKey.OP_CONNECT, h);
        }
    }

    /** Schedules our connection to lower rank {@code peer} to be made again, after a back-off that doubles each time. */
    private void retryLater(int peer, String why, long now) {
        lastFailure[peer] = why;
        retryAt[peer] = now + retryDelay[peer];
        retryDelay[peer] = Math.min(MAX_RETRY_NANOS, retryDelay[peer] * 2);
    }

    /** Makes again each connection whose back-off has passed, while the start-up deadline has time left. */
    private void startDueRetries(Selector selector, InetSocketAddress[] endpoints, PausableDeadline deadline) throws IOException {
        long now = clock();
        for (int j = 0; j < rank; j++) {
            if (retryAt[j] != NO_RETRY && now - retryAt[j] >= 0) {
                retryAt[j] = NO_RETRY;
                if (deadline.remaining() > 0) {
                    startConnect(selector, endpoints[j], j);
                }
            }
        }
    }

    /** For the time-out's message: why our last connection to each missing lower rank failed. */
    private String failures(SocketChannel[] established, boolean[] wanted) {
        StringBuilder b = new StringBuilder();
        for (int j = 0; j < rank; j++) {
            if (wanted[j] && established[j] == null && lastFailure[j] != null) {
                b.append(b.length() == 0 ? " (" : "; ").append("rank ").append(j).append("'s address ").append(lastFailure[j]);
            }
        }
        return b.length() == 0 ? "" : b.append(')').toString();
    }

    private List<Integer> missing(SocketChannel[] established, boolean[] wanted) {
        List<Integer> m = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            if (i != rank && wanted[i] && established[i] == null) {
                m.add(i);
            }
        }
        return m;
    }
}

package io.cohort.transport.tcp;

import io.cohort.Communicator;
import io.cohort.Request;
import io.cohort.auth.Challenge;
import io.cohort.auth.FrameAuthenticator;
import io.cohort.auth.JobSecret;
import io.cohort.comm.EngineCommunicator;
import io.cohort.engine.ProgressEngine;
import io.cohort.idle.IdleStrategies;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mutual challenge-response of the TCP mesh, attacked over real loopback sockets: a stranger
 * who knows everything that travels in clear (the job tag, the ranks, a whole recorded handshake)
 * but not the job's secret never becomes a peer, is closed and counted, and never holds up the
 * job's own peers, who connect and exchange messages.
 */
class TcpHandshakeTest {
    static final long CONNECT_TIMEOUT = TimeUnit.SECONDS.toNanos(20);
    static final int N = 3;

    private final JobSecret secret = JobSecret.generate();
    private final long tag = secret.jobTag();
    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private final TcpTransport[] t = new TcpTransport[N];
    private final ProgressEngine[] engines = new ProgressEngine[N];
    private final InetSocketAddress[] addresses = new InetSocketAddress[N];
    private final Thread[] connectors = new Thread[N];
    private final Throwable[] errors = new Throwable[N];

    @AfterEach
    void closeEverything() {
        for (AutoCloseable c : cleanup) {
            try {
                c.close();
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    // ---- what a peer sends, made by hand ----

    static byte[] hello(long tag, int rank, int size, byte[] nonce) {
        ByteBuffer b = ByteBuffer.allocate(HandshakeDescriptor.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        HandshakeDescriptor.write(b, tag, rank, size, nonce);
        return b.array();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /**
     * Plays the connector {@code rank} on {@code s} against the acceptor {@code peer}, as a member
     * does: hello, check the acceptor's hello and proof, prove. Returns what the acceptor sent.
     */
    static ByteBuffer proveAsConnector(InputStream in, OutputStream out, JobSecret secret, int rank, int peer, int size)
            throws IOException {
        FrameAuthenticator key = secret.authenticator(TcpTransport.HANDSHAKE_PURPOSE);
        byte[] nonce = Challenge.nonce();
        out.write(hello(secret.jobTag(), rank, size, nonce));
        out.flush();
        ByteBuffer theirs = ByteBuffer.wrap(in.readNBytes(HandshakeDescriptor.LENGTH + HandshakeDescriptor.PROOF_LENGTH))
                .order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(peer, HandshakeDescriptor.validate(theirs, 0, secret.jobTag(), size), "the acceptor's hello");
        byte[] bound = HandshakeDescriptor.bound(secret.jobTag(), rank, peer, size);
        byte[] proof = Arrays.copyOfRange(theirs.array(), HandshakeDescriptor.LENGTH, theirs.capacity());
        byte[] acceptorNonce = HandshakeDescriptor.nonce(theirs, 0);
        assertTrue(Challenge.check(key, proof, HandshakeDescriptor.ACCEPTOR, nonce, acceptorNonce, bound),
                "the acceptor proves it holds the job's key");
        out.write(Challenge.proof(key, HandshakeDescriptor.CONNECTOR, nonce, acceptorNonce, bound));
        out.flush();
        return theirs;
    }

    static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        ThreadLocalRandom.current().nextBytes(b);
        return b;
    }

    /** True if the other end closed the socket (EOF or reset) within a few seconds; bytes before that are skipped. */
    static boolean closedByPeer(Socket s) throws IOException {
        // The handshake's deadline and then some: a stalled connection is closed at that deadline.
        s.setSoTimeout((int) TimeUnit.NANOSECONDS.toMillis(TcpMeshConnector.HANDSHAKE_TIMEOUT_NANOS) + 5000);
        InputStream in = s.getInputStream();
        try {
            while (in.read() >= 0) {
                // whatever the acceptor said before it closed
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }

    private Socket connectTo(InetSocketAddress to) throws IOException {
        Socket s = new Socket(to.getAddress(), to.getPort());
        s.setSoTimeout(10_000); // a read that never comes fails the test rather than hanging it
        cleanup.add(s);
        return s;
    }

    // ---- the job's own peers ----

    private void openTransports(JobSecret s) throws IOException {
        for (int i = 0; i < N; i++) {
            t[i] = new TcpTransport(i, N, s, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            cleanup.add(t[i]);
            engines[i] = new ProgressEngine(i, N, IdleStrategies.factory("backoff"));
            addresses[i] = t[i].localAddress();
        }
    }

    private void startConnect(int rank, InetSocketAddress[] endpoints) {
        String[] names = {"rank 0", "rank 1", "rank 2"};
        connectors[rank] = new Thread(() -> {
            try {
                t[rank].connect(endpoints, names, engines[rank], CONNECT_TIMEOUT);
                engines[rank].attach(t[rank], t[rank].peers());
            } catch (Throwable e) {
                errors[rank] = e;
            }
        }, "test-connect-" + rank);
        connectors[rank].start();
    }

    private void awaitMesh() throws InterruptedException {
        for (int i = 0; i < N; i++) {
            connectors[i].join();
        }
        for (int i = 0; i < N; i++) {
            assertNull(errors[i], "rank " + i + " could not connect: " + errors[i]);
        }
    }

    /** Everybody sends to everybody and receives from everybody, then closes cleanly. */
    private void exchangeAll() throws InterruptedException {
        Thread[] peers = new Thread[N];
        for (int i = 0; i < N; i++) {
            int rank = i;
            peers[i] = new Thread(() -> {
                try (Communicator world = new EngineCommunicator(engines[rank], 0, engines[rank]::shutdown)) {
                    List<Request> sends = new ArrayList<>();
                    for (int d = 0; d < N; d++) {
                        if (d != rank) {
                            sends.add(world.isend(d, rank, new int[] {rank * 10 + d}));
                        }
                    }
                    for (int s = 0; s < N; s++) {
                        if (s != rank) {
                            assertArrayEquals(new int[] {s * 10 + rank}, world.recv(s, s).asInts());
                        }
                    }
                    Request.awaitAll(sends);
                } catch (Throwable e) {
                    errors[rank] = e;
                }
            }, "test-peer-" + i);
            peers[i].start();
        }
        for (int i = 0; i < N; i++) {
            peers[i].join();
            if (errors[i] != null) {
                throw new AssertionError("rank " + i + " failed after the mesh was up", errors[i]);
            }
        }
    }

    // ---- the attacks ----

    @Test
    @Timeout(60)
    void aStrangerWithTheRightTagButNoKeyIsClosedAndCountedAndTheRealRankStillConnects() throws Exception {
        openTransports(secret);
        startConnect(0, addresses);
        startConnect(1, addresses);
        // Three strangers claim rank 2, which is not there yet, with hellos right in every clear field.
        Socket guesser = connectTo(addresses[0]);
        guesser.getOutputStream().write(hello(tag, 2, N, Challenge.nonce()));
        byte[] answer = guesser.getInputStream().readNBytes(HandshakeDescriptor.LENGTH + HandshakeDescriptor.PROOF_LENGTH);
        assertEquals(0, HandshakeDescriptor.validate(ByteBuffer.wrap(answer).order(ByteOrder.LITTLE_ENDIAN), 0, tag, N),
                "rank 0 answers a hello of its job with its own");
        guesser.getOutputStream().write(randomBytes(HandshakeDescriptor.PROOF_LENGTH)); // a proof it cannot make
        assertTrue(closedByPeer(guesser), "a wrong proof closes the connection");

        Socket quitter = connectTo(addresses[0]);
        quitter.getOutputStream().write(hello(tag, 2, N, Challenge.nonce()));
        quitter.getInputStream().readNBytes(HandshakeDescriptor.LENGTH + HandshakeDescriptor.PROOF_LENGTH);
        quitter.shutdownOutput(); // gives up where the proof should be

        Socket staller = connectTo(addresses[0]);
        staller.getOutputStream().write(hello(tag, 2, N, Challenge.nonce()));
        staller.getInputStream().readNBytes(HandshakeDescriptor.LENGTH + HandshakeDescriptor.PROOF_LENGTH);
        // ... and never proves: it holds a handshake claiming rank 2 open while the real rank 2 comes.

        startConnect(2, addresses);
        awaitMesh();
        assertEquals(3, t[0].failedAuthentications(), "the guesser, the quitter and the staller failed authentication");
        assertEquals(0, t[0].rejectedConnections(), "their hellos were this job's: not counted as strangers");
        assertEquals(0, t[1].failedAuthentications() + t[1].rejectedConnections());
        assertEquals(0, t[2].failedAuthentications() + t[2].rejectedConnections());
        assertTrue(closedByPeer(quitter));
        assertTrue(closedByPeer(staller), "a stalled handshake is closed once the mesh is up");
        assertArrayEquals(new int[] {1, 2}, t[0].peers());
        exchangeAll();
    }

    /**
     * A relay between rank 1 and rank 0 records rank 1's hello and proof, holds the proof back, and
     * replays both on a new connection to rank 0: rank 0's fresh nonce makes the recorded proof
     * worthless. Then the relay lets the real handshake finish and carries the job's traffic.
     */
    @Test
    @Timeout(60)
    void aRecordedHandshakeReplayedOnANewConnectionFails() throws Exception {
        openTransports(secret);
        Relay relay = new Relay(addresses[0]);
        cleanup.add(relay);
        InetSocketAddress[] viaRelay = addresses.clone();
        viaRelay[0] = relay.address(); // rank 1 reaches rank 0 through the relay; rank 2 directly
        startConnect(0, addresses);
        startConnect(1, viaRelay);
        byte[] recorded = relay.recordHandshake();

        Socket replay = connectTo(addresses[0]);
        replay.getOutputStream().write(recorded); // rank 1's real hello and real proof, for another nonce
        byte[] answer = replay.getInputStream().readNBytes(HandshakeDescriptor.LENGTH + HandshakeDescriptor.PROOF_LENGTH);
        assertEquals(HandshakeDescriptor.LENGTH + HandshakeDescriptor.PROOF_LENGTH, answer.length);
        assertFalse(Arrays.equals(HandshakeDescriptor.nonce(ByteBuffer.wrap(answer), 0),
                HandshakeDescriptor.nonce(ByteBuffer.wrap(relay.acceptorAnswer()), 0)), "each connection its own nonce");
        assertTrue(closedByPeer(replay), "the replayed proof must fail on the new connection");

        relay.releaseProof();
        startConnect(2, addresses);
        awaitMesh();
        assertEquals(1, t[0].failedAuthentications(), "the replay is counted as a failed authentication");
        assertEquals(0, t[0].rejectedConnections());
        assertArrayEquals(new int[] {1, 2}, t[0].peers(), "the replay never became rank 1: the real one did");
        exchangeAll();
    }

    @Test
    @Timeout(60)
    void anotherJobsPeerIsRefusedOnItsTagAndOneThatForgesOurTagFailsItsProof() throws Exception {
        openTransports(secret);
        startConnect(0, addresses);
        startConnect(1, addresses);

        // Another job's rank 2, honestly its own job's: refused on the tag, before any proof is made.
        JobSecret other = JobSecret.generate();
        TcpTransport foreign = new TcpTransport(2, N, other, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        cleanup.add(foreign);
        ProgressEngine foreignEngine = new ProgressEngine(2, N, IdleStrategies.factory("backoff"));
        IOException refused = assertThrows(IOException.class, () -> foreign.connect(
                new InetSocketAddress[] {addresses[0], addresses[1], foreign.localAddress()},
                new boolean[] {true, false, false}, new String[] {"rank 0", "rank 1", "rank 2"}, foreignEngine, CONNECT_TIMEOUT));
        assertTrue(refused.getMessage().startsWith("rank 0 closed our connection during the handshake "
                + TcpMeshConnector.CLOSES_BEFORE_FAILING + " times: is the process at"), refused.getMessage());

        // A member of another job who read our tag off the wire: its hello passes, its proof (made
        // with its own job's key, a key it really holds) does not.
        Socket forger = connectTo(addresses[0]);
        OutputStream out = forger.getOutputStream();
        FrameAuthenticator wrongKey = other.authenticator(TcpTransport.HANDSHAKE_PURPOSE);
        byte[] nonce = Challenge.nonce();
        out.write(hello(tag, 2, N, nonce));
        ByteBuffer theirs = ByteBuffer.wrap(forger.getInputStream().readNBytes(HandshakeDescriptor.LENGTH
                + HandshakeDescriptor.PROOF_LENGTH)).order(ByteOrder.LITTLE_ENDIAN);
        byte[] bound = HandshakeDescriptor.bound(tag, 2, 0, N);
        byte[] theirProof = Arrays.copyOfRange(theirs.array(), HandshakeDescriptor.LENGTH, theirs.capacity());
        assertFalse(Challenge.check(wrongKey, theirProof, HandshakeDescriptor.ACCEPTOR, nonce,
                HandshakeDescriptor.nonce(theirs, 0), bound), "rank 0's proof means nothing under another job's key");
        out.write(Challenge.proof(wrongKey, HandshakeDescriptor.CONNECTOR, nonce, HandshakeDescriptor.nonce(theirs, 0), bound));
        assertTrue(closedByPeer(forger));

        startConnect(2, addresses);
        awaitMesh();
        assertEquals(TcpMeshConnector.CLOSES_BEFORE_FAILING, t[0].rejectedConnections(),
                "the other job's peer, refused on its tag each time it tried");
        assertEquals(1, t[0].failedAuthentications(), "the forger, refused on its proof");
        exchangeAll();
    }

    @Test
    @Timeout(60)
    void aMemberThatFailsTheAcceptorsProofRetriesAndReachesTheRealRank() throws Exception {
        // Rank 1 first reaches an impostor at rank 0's address, which answers with a hello of this job
        // but cannot prove; rank 1 must not take it for rank 0, nor give up: it counts and retries.
        meshWithRankOnesFirstTryAt(s -> {
            s.getInputStream().readNBytes(HandshakeDescriptor.LENGTH);
            s.getOutputStream().write(concat(hello(tag, 0, N, Challenge.nonce()),
                    randomBytes(HandshakeDescriptor.PROOF_LENGTH)));
            s.setSoTimeout(10_000);
            assertEquals(-1, s.getInputStream().read(), "rank 1 hangs up on an impostor, without a proof of its own");
        });
        assertEquals(1, t[1].failedAuthentications(), "rank 1 counted the impostor");
        assertEquals(0, t[0].failedAuthentications() + t[0].rejectedConnections());
        exchangeAll();
    }

    @Test
    @Timeout(60)
    void aRankThatClosesOurConnectionDuringTheHandshakeIsTriedAgain() throws Exception {
        // What a flood does to a real peer: rank 0's caps shed rank 1's connection before its hello
        // was read. Here the first connection to rank 0's address is closed after its hello arrives;
        // rank 1 must try again, not fail the job.
        meshWithRankOnesFirstTryAt(s -> s.getInputStream().readNBytes(HandshakeDescriptor.LENGTH));
        assertEquals(1, t[1].rejectedConnections(), "rank 1 counted the close");
        assertEquals(0, t[1].failedAuthentications());
        assertArrayEquals(new int[] {0, 2}, t[1].peers());
        exchangeAll();
    }

    /** What stands at rank 0's address for rank 1's first connection; it is closed when this returns. */
    @FunctionalInterface
    interface FirstConnection {
        void serve(Socket s) throws Exception;
    }

    /**
     * Builds the mesh with rank 1's first connection to rank 0 going to {@code first} instead (through
     * a relay that forwards every later one to the real rank 0), and checks {@code first} ran without
     * failing.
     */
    private void meshWithRankOnesFirstTryAt(FirstConnection first) throws Exception {
        openTransports(secret);
        try (ServerSocket stand = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Relay relay = new Relay(addresses[0]);
            cleanup.add(relay);
            AtomicReference<Throwable> error = new AtomicReference<>();
            Thread server = new Thread(() -> {
                try (Socket s = stand.accept()) {
                    first.serve(s);
                } catch (Throwable e) {
                    error.set(e);
                }
            }, "test-first-connection");
            server.start();
            relay.firstTo(new InetSocketAddress(InetAddress.getLoopbackAddress(), stand.getLocalPort()));
            InetSocketAddress[] viaRelay = addresses.clone();
            viaRelay[0] = relay.address();
            startConnect(0, addresses);
            startConnect(1, viaRelay);
            startConnect(2, addresses);
            relay.releaseProof();
            awaitMesh();
            server.join();
            assertNull(error.get());
        }
    }

    @Test
    @Timeout(60)
    void aHandshakeThatStallsAfterItsHelloIsClosedAtItsDeadlineAndFailsAuthentication() throws Exception {
        openTransports(secret);
        startConnect(0, addresses);
        startConnect(1, addresses);
        Socket staller = connectTo(addresses[0]);
        staller.getOutputStream().write(hello(tag, 2, N, Challenge.nonce()));
        byte[] answer = staller.getInputStream().readNBytes(HandshakeDescriptor.LENGTH + HandshakeDescriptor.PROOF_LENGTH);
        assertEquals(HandshakeDescriptor.LENGTH + HandshakeDescriptor.PROOF_LENGTH, answer.length, "rank 0 answered the hello");
        long answered = System.nanoTime();
        // ... and never proves. Rank 2 is held back, so the mesh waits: only the deadline can close it.
        assertTrue(closedByPeer(staller), "a stalled handshake is closed at its deadline, not when the mesh is up");
        long took = System.nanoTime() - answered;
        assertTrue(took >= TcpMeshConnector.HANDSHAKE_TIMEOUT_NANOS / 2,
                "closed for its deadline, not for anything it sent: after " + TimeUnit.NANOSECONDS.toMillis(took) + " ms");

        startConnect(2, addresses);
        awaitMesh();
        assertEquals(1, t[0].failedAuthentications(), "its hello was this job's: a failed authentication");
        assertEquals(0, t[0].rejectedConnections());
        assertArrayEquals(new int[] {1, 2}, t[0].peers());
        exchangeAll();
    }

    /**
     * 200 connections that connect to rank 0 during start-up and say nothing, while rank 1 connects
     * to it too from the same address: the idle ones are shed (the caps) or closed at their deadline
     * while the mesh still waits for rank 2, rank 1 is not among them, and the mesh completes.
     */
    @Test
    @Timeout(150)
    void idleConnectionsDuringStartUpAreClosedAtTheirDeadlineAndTheMeshStillCompletes() throws Exception {
        int flood = 200;
        long deadlineMillis = TimeUnit.NANOSECONDS.toMillis(TcpMeshConnector.HANDSHAKE_TIMEOUT_NANOS);
        openTransports(secret);
        Selector watch = Selector.open();
        cleanup.add(watch);
        startConnect(0, addresses);
        startConnect(1, addresses);
        // Each idle connection, from the moment it is connected until rank 0 closes it (EOF or reset).
        Map<SocketChannel, Long> connectedAt = new HashMap<>();
        int opened = 0;
        int closed = 0;
        long slowest = 0;
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        ByteBuffer sink = ByteBuffer.allocate(256);
        while (closed < flood && System.nanoTime() - giveUp < 0) {
            // At most 48 open at once, so they fit rank 0's listen queue (64): beyond it the kernel
            // drops the handshake, and a connection would wait for its retransmission, not for rank 0.
            for (; opened < flood && opened - closed < 48; opened++) {
                SocketChannel c = SocketChannel.open();
                cleanup.add(c);
                c.configureBlocking(false);
                if (c.connect(addresses[0])) {
                    connectedAt.put(c, System.nanoTime());
                    c.register(watch, SelectionKey.OP_READ);
                } else {
                    c.register(watch, SelectionKey.OP_CONNECT);
                }
            }
            watch.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(giveUp - System.nanoTime())));
            long now = System.nanoTime();
            for (SelectionKey key : new ArrayList<>(watch.selectedKeys())) {
                watch.selectedKeys().remove(key);
                SocketChannel c = (SocketChannel) key.channel();
                boolean ended;
                try {
                    if (key.isConnectable()) {
                        if (c.finishConnect()) {
                            connectedAt.put(c, now);
                            key.interestOps(SelectionKey.OP_READ);
                        }
                        continue;
                    }
                    sink.clear();
                    ended = c.read(sink) < 0;
                    assertEquals(0, sink.position(), "rank 0 says nothing to a connection that sent no hello");
                } catch (IOException reset) {
                    ended = true;
                }
                if (ended) {
                    key.cancel();
                    closed++;
                    slowest = Math.max(slowest, now - connectedAt.getOrDefault(c, now));
                }
            }
        }
        assertEquals(flood, closed, "rank 0 closes every idle connection while its mesh is still waiting");
        assertTrue(TimeUnit.NANOSECONDS.toMillis(slowest) < deadlineMillis + 2000,
                "each within about the deadline of " + deadlineMillis + " ms; the slowest took " + TimeUnit.NANOSECONDS.toMillis(slowest) + " ms");

        startConnect(2, addresses);
        awaitMesh();
        assertEquals(flood, t[0].rejectedConnections(), "each idle connection counted, as not of this job");
        assertEquals(0, t[0].failedAuthentications());
        assertEquals(0, t[1].rejectedConnections() + t[1].failedAuthentications(), "rank 1 was never shed");
        assertArrayEquals(new int[] {1, 2}, t[0].peers());
        exchangeAll();
    }

    @Test
    @Timeout(30)
    void theEndOfJobLineNamesTheConnectionsThatFailedAuthentication() {
        assertEquals("cohort: rank 3 dropped traffic that was not this job's or was malformed: tcp 2 connections"
                + " not of this job, 1 connection that failed authentication", io.cohort.wireup.DropReport.line(3, null, 2, 1, 0, null));
        assertNull(io.cohort.wireup.DropReport.line(3, null, 0, 0, 0, null));
    }

    /**
     * A man in the middle on loopback: forwards a member's connection to {@code target}, records
     * what the connector sends in its handshake, and can hold the connector's proof back.
     */
    static final class Relay implements AutoCloseable {
        private final ServerSocket listener;
        private final InetSocketAddress target;
        private final List<Socket> sockets = new ArrayList<>();
        private final java.util.concurrent.CompletableFuture<byte[]> recorded = new java.util.concurrent.CompletableFuture<>();
        private final java.util.concurrent.CompletableFuture<byte[]> answer = new java.util.concurrent.CompletableFuture<>();
        private final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        private volatile InetSocketAddress first;

        Relay(InetSocketAddress target) throws IOException {
            this.target = target;
            this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread t = new Thread(this::serve, "test-relay");
            t.setDaemon(true);
            t.start();
        }

        InetSocketAddress address() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
        }

        /** Sends the first connection that arrives to {@code impostor} (untouched), the next ones to the target. */
        void firstTo(InetSocketAddress impostor) {
            first = impostor;
        }

        /** The connector's hello and proof as they crossed the relay (the proof not yet forwarded). */
        byte[] recordHandshake() throws InterruptedException, ExecutionException, java.util.concurrent.TimeoutException {
            return recorded.get(20, TimeUnit.SECONDS);
        }

        byte[] acceptorAnswer() throws InterruptedException, ExecutionException, java.util.concurrent.TimeoutException {
            return answer.get(20, TimeUnit.SECONDS);
        }

        void releaseProof() {
            release.countDown();
        }

        private void serve() {
            try {
                while (true) {
                    Socket in = listener.accept();
                    InetSocketAddress to = first != null ? first : target;
                    boolean toImpostor = first != null;
                    first = null;
                    Socket out = new Socket(to.getAddress(), to.getPort());
                    synchronized (sockets) {
                        sockets.add(in);
                        sockets.add(out);
                    }
                    if (toImpostor) {
                        pump(in, out);
                        pump(out, in);
                        continue;
                    }
                    Thread t = new Thread(() -> carry(in, out), "test-relay-conn");
                    t.setDaemon(true);
                    t.start();
                }
            } catch (IOException closed) {
                // the test is over
            }
        }

        /** Forwards the connector's hello, the acceptor's answer, then the proof once released; then pumps both ways. */
        private void carry(Socket connector, Socket acceptor) {
            try {
                InputStream cin = connector.getInputStream();
                InputStream ain = acceptor.getInputStream();
                byte[] hello = cin.readNBytes(HandshakeDescriptor.LENGTH);
                acceptor.getOutputStream().write(hello);
                byte[] reply = ain.readNBytes(HandshakeDescriptor.LENGTH + HandshakeDescriptor.PROOF_LENGTH);
                connector.getOutputStream().write(reply);
                answer.complete(reply);
                byte[] proof = cin.readNBytes(HandshakeDescriptor.PROOF_LENGTH);
                recorded.complete(concat(hello, proof));
                if (!release.await(20, TimeUnit.SECONDS)) {
                    return;
                }
                acceptor.getOutputStream().write(proof);
                pump(acceptor, connector);
                pump(connector, acceptor);
            } catch (IOException | InterruptedException e) {
                recorded.completeExceptionally(e);
            }
        }

        /** Copies what {@code from} sends to {@code to}, and its end of stream as a half-close. */
        private static void pump(Socket from, Socket to) {
            Thread t = new Thread(() -> {
                try {
                    from.getInputStream().transferTo(to.getOutputStream());
                    to.shutdownOutput();
                } catch (IOException ignored) {
                    // one side closed: the other follows
                }
            }, "test-relay-pump");
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void close() throws IOException {
            listener.close();
            synchronized (sockets) {
                for (Socket s : sockets) {
                    s.close();
                }
            }
        }
    }
}

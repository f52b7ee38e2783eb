package io.cohort.transport.tcp;

import io.cohort.Communicator;
import io.cohort.CohortException;
import io.cohort.PeerClosedException;
import io.cohort.PeerFailedException;
import io.cohort.Request;
import io.cohort.auth.Challenge;
import io.cohort.auth.JobSecret;
import io.cohort.comm.EngineCommunicator;
import io.cohort.engine.ProgressEngine;
import io.cohort.idle.IdleStrategies;
import io.cohort.transport.stream.FrameDescriptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TCP transport against strangers and broken peers, driven directly (no LocalCohort): a
 * process that is not part of the job must never become a peer or break the mesh, and a peer
 * that sends garbage is reported as failed instead of corrupting the stream.
 */
class TcpRobustnessTest {
    static final JobSecret SECRET = JobSecret.generate();
    static final long TAG = SECRET.jobTag();
    static final long CONNECT_TIMEOUT = TimeUnit.SECONDS.toNanos(20);

    private final List<AutoCloseable> cleanup = new ArrayList<>();

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

    static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    static byte[] handshake(long tag, int rank, int size) {
        return TcpHandshakeTest.hello(tag, rank, size, Challenge.nonce());
    }

    static byte[] header(int length, short type, int context, int tag) {
        ByteBuffer b = ByteBuffer.allocate(FrameDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        FrameDescriptor.write(b, length, type, context, tag);
        return b.array();
    }

    private Socket stranger(InetSocketAddress to, byte[] send, boolean closeOutput) throws IOException {
        Socket s = new Socket(to.getAddress(), to.getPort());
        cleanup.add(s);
        s.getOutputStream().write(send);
        s.getOutputStream().flush();
        if (closeOutput) {
            s.shutdownOutput();
        }
        return s;
    }

    /** True if the other end closed the socket (EOF or reset) within a few seconds. */
    static boolean closedByPeer(Socket s) throws IOException {
        s.setSoTimeout(5000);
        InputStream in = s.getInputStream();
        try {
            for (;;) {
                int b = in.read();
                if (b < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }

    @Test
    @Timeout(60)
    void strangersDuringConnectAreRejectedAndTheMeshStillCompletes() throws Exception {
        int n = 3;
        TcpTransport[] t = new TcpTransport[n];
        ProgressEngine[] engines = new ProgressEngine[n];
        InetSocketAddress[] addresses = new InetSocketAddress[n];
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            t[i] = new TcpTransport(i, n, SECRET, loopback());
            cleanup.add(t[i]);
            engines[i] = new ProgressEngine(i, n, IdleStrategies.factory("backoff"));
            addresses[i] = t[i].localAddress();
            names[i] = "rank " + i;
        }
        // Rank 0 accepts ranks 1 and 2, rank 1 accepts rank 2: strangers queue up in front of them.
        List<Socket> rejectedStrangers = new ArrayList<>();
        rejectedStrangers.add(stranger(addresses[0], "GET / HTTP/1.1\r\nHost: cohort\r\n\r\n".getBytes(StandardCharsets.US_ASCII), false));
        rejectedStrangers.add(stranger(addresses[0], handshake(TAG ^ 1, 1, n), false)); // another job's tag
        rejectedStrangers.add(stranger(addresses[0], new byte[] {1, 2, 3, 4, 5}, true)); // short garbage, then EOF
        rejectedStrangers.add(stranger(addresses[0], handshake(TAG, 0, n), false)); // claims to be rank 0 itself
        rejectedStrangers.add(stranger(addresses[1], handshake(TAG, 2, n + 1), false)); // wrong job size
        rejectedStrangers.add(stranger(addresses[1], new byte[0], true)); // connects and hangs up
        Socket silent = stranger(addresses[0], new byte[] {0x43, 0x4F}, false); // starts a handshake, never finishes

        Throwable[] errors = new Throwable[n];
        Thread[] connectors = new Thread[n];
        for (int i = 0; i < n; i++) {
            int rank = i;
            connectors[i] = new Thread(() -> {
                try {
                    t[rank].connect(addresses, names, engines[rank], CONNECT_TIMEOUT);
                    engines[rank].attach(t[rank], t[rank].peers());
                } catch (Throwable e) {
                    errors[rank] = e;
                }
            }, "test-connect-" + i);
            connectors[i].start();
        }
        for (int i = 0; i < n; i++) {
            connectors[i].join();
            assertNull(errors[i], () -> "rank " + " could not connect: " + errors[0] + " / " + errors[1] + " / " + errors[2]);
        }
        assertEquals(5, t[0].rejectedConnections(), "rank 0 must count the four strangers it refused and the one it closed unfinished");
        assertEquals(2, t[1].rejectedConnections(), "rank 1 must count the two strangers it refused");
        assertEquals(0, t[2].rejectedConnections());
        for (TcpTransport x : t) {
            assertEquals(0, x.failedAuthentications(), "no stranger here sent a hello of this job");
        }
        for (Socket s : rejectedStrangers) {
            assertTrue(closedByPeer(s), "a refused stranger's connection must be closed");
        }
        assertTrue(closedByPeer(silent), "a half-finished stranger must not keep a connection once the mesh is up");
        // Nobody may connect once the mesh is complete.
        assertThrows(ConnectException.class, () -> new Socket(addresses[0].getAddress(), addresses[0].getPort()).close());

        // The mesh works: everybody exchanges with everybody, then closes cleanly.
        Thread[] peers = new Thread[n];
        for (int i = 0; i < n; i++) {
            int rank = i;
            peers[i] = new Thread(() -> {
                try (Communicator world = new EngineCommunicator(engines[rank], 0, engines[rank]::shutdown)) {
                    List<Request> sends = new ArrayList<>();
                    for (int d = 0; d < n; d++) {
                        if (d != rank) {
                            sends.add(world.isend(d, rank, new int[] {rank * 10 + d}));
                        }
                    }
                    for (int s = 0; s < n; s++) {
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
        for (int i = 0; i < n; i++) {
            peers[i].join();
            if (errors[i] != null) {
                throw new AssertionError("rank " + i + " failed after the mesh was up", errors[i]);
            }
        }
        for (TcpTransport x : t) {
            assertEquals(0, x.malformedFrames());
        }
    }

    /** Plays rank 1 by hand against a real rank 0, so the test controls every byte rank 1 sends. */
    final class ManualPeer implements AutoCloseable {
        final TcpTransport transport;
        final ProgressEngine engine;
        final EngineCommunicator world;
        final SocketChannel channel;

        ManualPeer() throws Exception {
            transport = new TcpTransport(0, 2, SECRET, loopback());
            cleanup.add(this);
            engine = new ProgressEngine(0, 2, IdleStrategies.factory("backoff"));
            InetSocketAddress[] addresses = {transport.localAddress(), new InetSocketAddress(InetAddress.getLoopbackAddress(), 1)};
            Throwable[] error = new Throwable[1];
            Thread connector = new Thread(() -> {
                try {
                    transport.connect(addresses, new String[] {"rank 0", "rank 1 (test fixture)"}, engine, CONNECT_TIMEOUT);
                } catch (Throwable e) {
                    error[0] = e;
                }
            });
            connector.start();
            channel = SocketChannel.open(transport.localAddress());
            TcpHandshakeTest.proveAsConnector(java.nio.channels.Channels.newInputStream(channel),
                    java.nio.channels.Channels.newOutputStream(channel), SECRET, 1, 0, 2);
            connector.join();
            if (error[0] != null) {
                throw new AssertionError("rank 0 did not accept the fixture", error[0]);
            }
            engine.attach(transport, transport.peers());
            world = new EngineCommunicator(engine, 0, engine::shutdown);
        }

        void write(byte[]... parts) throws IOException {
            for (byte[] p : parts) {
                ByteBuffer b = ByteBuffer.wrap(p);
                while (b.hasRemaining()) {
                    channel.write(b);
                }
            }
        }

        ByteBuffer read(int length) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            while (b.hasRemaining()) {
                if (channel.read(b) < 0) {
                    throw new IOException("rank 0 closed the connection");
                }
            }
            return b.flip();
        }

        boolean sawEndOfStream() throws IOException {
            channel.socket().setSoTimeout(5000);
            InputStream in = channel.socket().getInputStream();
            try {
                while (in.read() >= 0) {
                    // drain whatever rank 0 still had queued
                }
                return true;
            } catch (SocketTimeoutException e) {
                return false;
            } catch (SocketException reset) {
                return true;
            }
        }

        @Override
        public void close() throws IOException {
            engine.abort();
            channel.close();
        }
    }

    @Test
    @Timeout(30)
    void fixtureExchangesWellFormedFramesBothWays() throws Exception {
        ManualPeer p = new ManualPeer();
        p.write(header(5, FrameDescriptor.TYPE_DATA, 0, 7), new byte[] {1, 2, 3, 4, 5});
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, p.world.recv(1, 7).bytes());
        p.world.send(1, 8, new byte[] {7, 6});
        ByteBuffer h = p.read(FrameDescriptor.HEADER_LENGTH);
        assertEquals(2, FrameDescriptor.length(h, 0));
        assertEquals(FrameDescriptor.TYPE_DATA, FrameDescriptor.type(h, 0));
        assertEquals(0, FrameDescriptor.context(h, 0));
        assertEquals(8, FrameDescriptor.tag(h, 0));
        assertEquals(ByteBuffer.wrap(new byte[] {7, 6}), p.read(2));
        // Orderly goodbye: rank 0's close sends BYE and returns once ours arrives.
        Throwable[] error = new Throwable[1];
        Thread closer = new Thread(() -> {
            try {
                p.world.close();
            } catch (Throwable e) {
                error[0] = e;
            }
        });
        closer.start();
        ByteBuffer bye = p.read(FrameDescriptor.HEADER_LENGTH);
        assertEquals(FrameDescriptor.TYPE_BYE, FrameDescriptor.type(bye, 0));
        assertEquals(0, FrameDescriptor.length(bye, 0));
        p.write(header(0, FrameDescriptor.TYPE_BYE, 0, 0));
        closer.join();
        assertNull(error[0]);
        assertTrue(p.engine.isClosed());
        assertTrue(p.sawEndOfStream());
        assertNull(p.engine.failure(1), "a goodbye is not a failure");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"unknown type", "negative length", "data after goodbye", "goodbye with a payload"})
    @Timeout(30)
    void malformedFrameFailsThePeerWithAClearMessage(String kind) throws Exception {
        ManualPeer p = new ManualPeer();
        // A good frame first: the stream is in sync when the bad one comes.
        p.write(header(3, FrameDescriptor.TYPE_DATA, 0, 1), new byte[] {9, 9, 9});
        assertArrayEquals(new byte[] {9, 9, 9}, p.world.recv(1, 1).bytes());
        Request pending = p.world.irecv(1, 2);
        switch (kind) {
            case "unknown type" -> p.write(header(3, (short) 7, 0, 2), new byte[] {1, 2, 3});
            case "negative length" -> p.write(header(-4, FrameDescriptor.TYPE_DATA, 0, 2));
            case "data after goodbye" -> p.write(header(0, FrameDescriptor.TYPE_BYE, 0, 0),
                    header(3, FrameDescriptor.TYPE_DATA, 0, 2), new byte[] {1, 2, 3});
            default -> p.write(header(4, FrameDescriptor.TYPE_BYE, 0, 0), new byte[] {1, 2, 3, 4});
        }
        CohortException f = assertThrows(CohortException.class, pending::await);
        if (kind.equals("data after goodbye") && f instanceof PeerClosedException c) {
            // The goodbye was read before the data: then the receive could already never complete.
            assertEquals(1, c.peer());
            while (p.transport.malformedFrames() == 0) {
                p.engine.progressOnce(); // the data after it is still found malformed
            }
        } else {
            PeerFailedException e = assertInstanceOf(PeerFailedException.class, f);
            assertEquals(1, e.peer());
            assertTrue(e.getMessage().contains("malformed"), e.getMessage());
            assertTrue(e.getMessage().contains("rank 1"), e.getMessage());
        }
        assertEquals(1, p.transport.malformedFrames());
        assertTrue(p.sawEndOfStream(), "rank 0 must drop the connection to a peer that sent garbage");
        assertThrows(PeerFailedException.class, () -> p.world.send(1, 3, new byte[1]));
    }

    @Test
    @Timeout(30)
    void peerVanishingMidFrameIsAFailureNotAHang() throws Exception {
        ManualPeer p = new ManualPeer();
        Request pending = p.world.irecv(1, 5);
        p.write(header(100_000, FrameDescriptor.TYPE_DATA, 0, 5), new byte[1000]);
        p.channel.close();
        PeerFailedException e = assertThrows(PeerFailedException.class, pending::await);
        assertEquals(1, e.peer());
        assertTrue(e.getMessage().contains("rank 1"), e.getMessage());
        assertEquals(0, p.transport.malformedFrames());
    }
}

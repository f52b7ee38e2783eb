package io.cohort.transport.tcp;

import io.cohort.idle.PausableDeadline;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds the full mesh at start-up: each peer connects to every lower rank and accepts every higher
 * one, all at once on one selector, and both ends of each connection exchange a
 * {@link HandshakeDescriptor}. Strangers (wrong magic, job key, size, or a duplicate rank) are
 * closed and counted.
 */
final class TcpMeshConnector {
    private final int rank;
    private final int size;
    private final long jobKey;
    private final ServerSocketChannel server;
    private int rejected;

    private static final class Pending {
        final SocketChannel channel;
        final int expected; // -1 for an accepted connection
        final ByteBuffer in = ByteBuffer.allocate(HandshakeDescriptor.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer out;

        Pending(SocketChannel channel, int expected) {
            this.channel = channel;
            this.expected = expected;
        }
    }

    TcpMeshConnector(int rank, int size, long jobKey, ServerSocketChannel server) {
        this.rank = rank;
        this.size = size;
        this.jobKey = jobKey;
        this.server = server;
    }

    int rejected() {
        return rejected;
    }

    /**
     * Returns one connected, handshaken, non-blocking channel per wanted rank (null elsewhere).
     * {@code wanted} must be symmetric across the job: if i wants j, j wants i.
     */
    SocketChannel[] connect(InetSocketAddress[] endpoints, boolean[] wanted, long timeoutNanos) throws IOException {
        SocketChannel[] established = new SocketChannel[size];
        int count = 0;
        int expected = 0;
        for (int j = 0; j < size; j++) {
            if (j != rank && wanted[j]) {
                expected++;
            }
        }
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
                            + " s connecting to ranks " + missing(established, wanted) + "; are they alive and reachable?");
                }
                selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining)));
                for (SelectionKey key : new ArrayList<>(selector.selectedKeys())) {
                    selector.selectedKeys().remove(key);
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        SocketChannel c = server.accept();
                        if (c != null) {
                            c.configureBlocking(false);
                            c.register(selector, SelectionKey.OP_READ, new Pending(c, -1));
                        }
                        continue;
                    }
                    Pending p = (Pending) key.attachment();
                    if (key.isConnectable()) {
                        try {
                            if (p.channel.finishConnect()) {
                                sendHandshake(p);
                                key.interestOps(SelectionKey.OP_READ);
                            }
                        } catch (IOException refused) {
                            key.cancel();
                            p.channel.close();
                            if (deadline.remaining() > 0) {
                                startConnect(selector, endpoints[p.expected], p.expected); // listener not up yet: retry
                            }
                        }
                        continue;
                    }
                    if (key.isReadable()) {
                        int n;
                        try {
                            n = p.channel.read(p.in);
                        } catch (IOException e) {
                            n = -1;
                        }
                        if (n < 0) {
                            key.cancel();
                            p.channel.close();
                            if (p.expected >= 0) {
                                throw new IOException("rank " + p.expected + " closed the connection during the handshake");
                            }
                            rejected++;
                            continue;
                        }
                        if (p.in.hasRemaining()) {
                            continue;
                        }
                        int peer = HandshakeDescriptor.validate(p.in, 0, jobKey, size);
                        boolean ok = peer >= 0 && peer != rank && wanted[peer] && established[peer] == null
                                && (p.expected >= 0 ? peer == p.expected : peer > rank);
                        key.cancel();
                        if (!ok) {
                            rejected++;
                            p.channel.close();
                            if (p.expected >= 0) {
                                throw new IOException("the process at " + endpoints[p.expected]
                                        + " is not rank " + p.expected + " of this job");
                            }
                            continue;
                        }
                        if (p.expected < 0) {
                            sendHandshake(p);
                        }
                        established[peer] = p.channel;
                        count++;
                    }
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
                io.cohort.wireup.KeepAlive.on(c); // a peer whose host dies is noticed, not waited for
            }
        }
        return established;
    }

    /**
     * Closes every connection still in its handshake: strangers that never finished one (and, after a
     * failure, our own attempts). Without this they would stay open, unread, for the life of the peer.
     */
    private static void closeUnfinished(Selector selector) {
        for (SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof Pending p) {
                key.cancel();
                try {
                    p.channel.close();
                } catch (IOException ignored) {
                    // it is being dropped anyway
                }
            }
        }
    }

    private void startConnect(Selector selector, InetSocketAddress address, int peer) throws IOException {
        SocketChannel c = SocketChannel.open();
        c.configureBlocking(false);
        Pending p = new Pending(c, peer);
        if (c.connect(address)) {
            sendHandshake(p);
            c.register(selector, SelectionKey.OP_READ, p);
        } else {
            c.register(selector, SelectionKey.OP_CONNECT, p);
        }
    }

    private void sendHandshake(Pending p) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(HandshakeDescriptor.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        HandshakeDescriptor.write(out, jobKey, rank, size);
        out.flip();
        // 24 bytes always fit an empty socket buffer; loop only for form's sake.
        while (out.hasRemaining()) {
            if (p.channel.write(out) == 0) {
                Thread.onSpinWait();
            }
        }
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

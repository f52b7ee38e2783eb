package io.cohort.transport.shm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How a peer that waits for shared-memory arrivals sleeps without a timer: a UDP socket on the
 * loopback interface. A receiver about to sleep raises the waiting word of each of its inbound
 * segments ({@link ShmRing#armDoorbell}) and waits in a selector on this socket; a sender that
 * finds the word raised after publishing a record clears it and sends one byte here
 * ({@link ShmRing#takeDoorbell}), and the kernel wakes the receiver at once. So a busy pair pays
 * nothing (no sleeper, no ring), and a sleeping peer wakes within a scheduler's wake-up of its
 * message instead of at the end of its park, which with many peers on few cores was what every
 * step of a collective waited for.
 *
 * <p>The same socket sends the rings of this peer's senders (any thread; the channel serialises
 * them), so a ring comes from a local peer's doorbell, whose port its segment names
 * ({@link #expect}). Whatever arrives is read and dropped: a datagram is only ever a reason to
 * look at the rings, so a foreign one costs a spurious poll and nothing else; those not from a
 * peer's doorbell are counted ({@link #strangers}). The socket takes datagrams from any local
 * user, so a wake reads at most {@value #DRAIN_MAX} of them: a flood of the port keeps the
 * progress owner from sleeping, never from working, and a real ring behind it is seen a wake or
 * two later. Java offers no cross-process futex and no Unix-domain datagrams, so loopback UDP is
 * the cheapest kernel wake-up a Java process can give another.
 */
final class ShmDoorbell implements AutoCloseable {
    /** How long the start-up check waits for the doorbell's own test ring. */
    static final long SELF_TEST_MILLIS = 1_000;
    /**
     * Datagrams read per wake, the rest left for the next: a ring needs one, and a few peers
     * ringing at once a few, so 64 never delays a real ring and bounds what a flood costs a wake.
     */
    static final int DRAIN_MAX = 64;

    private final DatagramChannel channel;
    private final Selector selector;
    private final InetSocketAddress address;
    private final ByteBuffer drain = ByteBuffer.allocateDirect(64);
    private final AtomicLong ringsSent = new AtomicLong();
    private final AtomicLong ringFailures = new AtomicLong();
    /** The doorbells a ring comes from: this one (its self-test) and the local peers'. */
    private final Set<InetSocketAddress> peers = ConcurrentHashMap.newKeySet();
    /** Written by the progress owner only; volatile so tests and counters may read them. */
    private volatile long wakesByRing;
    private volatile long sleeps;
    private volatile long strangers;

    private ShmDoorbell(DatagramChannel channel, Selector selector) throws IOException {
        this.channel = channel;
        this.selector = selector;
        this.address = (InetSocketAddress) channel.getLocalAddress();
        peers.add(address);
    }

    /**
     * A doorbell on 127.0.0.1 that has rung itself once, or null when loopback UDP does not work
     * here (a network namespace with its loopback down, say): then the peer polls on a timer, as
     * it would without one.
     */
    static ShmDoorbell open() {
        DatagramChannel ch = null;
        Selector sel = null;
        try {
            ch = DatagramChannel.open(StandardProtocolFamily.INET);
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            ch.configureBlocking(false);
            sel = Selector.open();
            ch.register(sel, SelectionKey.OP_READ);
            ShmDoorbell bell = new ShmDoorbell(ch, sel);
            bell.ring(bell.address);
            if (sel.select(SELF_TEST_MILLIS) == 0 || bell.drain() == 0) {
                bell.close();
                return null;
            }
            bell.ringsSent.set(0);
            return bell;
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch, sel);
            return null;
        }
    }

    int port() {
        return address.getPort();
    }

    /** A local peer's doorbell, named by its segment: its rings are rings, not a stranger's datagrams. */
    void expect(int port) {
        peers.add(at(port));
    }

    /** The doorbell at {@code port} on this host's loopback. */
    static InetSocketAddress at(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    /**
     * Sends one ring to {@code to}; any thread. A failed ring is counted and otherwise ignored: the
     * sleeper wakes at its time-out.
     */
    void ring(InetSocketAddress to) {
        try {
            channel.send(ByteBuffer.wrap(new byte[] {1}), to);
            ringsSent.incrementAndGet();
        } catch (IOException e) {
            ringFailures.incrementAndGet();
        }
    }

    /**
     * Longest single sleep, whatever the idle strategy asks: bounds what a ring lost to the race
     * described at {@link ShmRing#takeDoorbell} can cost.
     */
    static final long SLEEP_MAX_MILLIS = 100;

    /**
     * Progress owner: sleeps until a ring, a {@link #wakeup} or {@code nanos} (rounded up to a
     * millisecond, at most {@value #SLEEP_MAX_MILLIS} ms).
     */
    void sleep(long nanos) throws IOException {
        selector.select(Math.min(SLEEP_MAX_MILLIS, Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos))));
        selector.selectedKeys().clear();
    }

    /** Progress owner: a sleep begins (here or in another transport's selector, see {@link #channel}). */
    void sleeping() {
        sleeps++;
    }

    /**
     * Progress owner, after a sleep: reads the rings that came, so the channel is quiet again, or at
     * most {@value #DRAIN_MAX} of them, so a flood does not hold it here.
     */
    void awake() throws IOException {
        if (drain() > 0) {
            wakesByRing++;
        }
    }

    /** The socket the rings arrive on, for a selector other than the doorbell's own. */
    DatagramChannel channel() {
        return channel;
    }

    /** Makes a concurrent {@link #sleep} return soon; any thread. */
    void wakeup() {
        selector.wakeup();
    }

    /** Reads up to {@value #DRAIN_MAX} datagrams; the number from peers' doorbells, the rest counted as strangers. */
    private int drain() throws IOException {
        int rings = 0;
        for (int i = 0; i < DRAIN_MAX; i++) {
            drain.clear();
            SocketAddress from = channel.receive(drain);
            if (from == null) {
                break;
            }
            if (peers.contains(from)) {
                rings++;
            } else {
                strangers++;
            }
        }
        return rings;
    }

    long ringsSent() {
        return ringsSent.get();
    }

    long ringFailures() {
        return ringFailures.get();
    }

    /** Sleeps that ended with a ring (progress owner's view). */
    long wakesByRing() {
        return wakesByRing;
    }

    long sleeps() {
        return sleeps;
    }

    /** Datagrams read that came from no local peer's doorbell (progress owner's view). */
    long strangers() {
        return strangers;
    }

    @Override
    public void close() {
        closeQuietly(channel, selector);
    }

    private static void closeQuietly(DatagramChannel ch, Selector sel) {
        try {
            if (sel != null) {
                sel.close();
            }
        } catch (IOException ignored) {
            // closing: nothing to tell
        }
        try {
            if (ch != null) {
                ch.close();
            }
        } catch (IOException ignored) {
            // closing: nothing to tell
        }
    }
}

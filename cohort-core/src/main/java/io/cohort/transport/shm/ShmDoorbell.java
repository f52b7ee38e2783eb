package io.cohort.transport.shm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
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
 * them). Whatever arrives is read and dropped: a datagram is only ever a reason to look at the
 * rings, so a foreign one costs a spurious poll and nothing else (counted). Java offers no
 * cross-process futex and no Unix-domain datagrams, so loopback UDP is the cheapest kernel wake-up
 * a Java process can give another.
 */
final class ShmDoorbell implements AutoCloseable {
    /** How long the start-up check waits for the doorbell's own test ring. */
    static final long SELF_TEST_MILLIS = 1_000;

    private final DatagramChannel channel;
    private final Selector selector;
    private final InetSocketAddress address;
    private final ByteBuffer drain = ByteBuffer.allocateDirect(64);
    private final AtomicLong ringsSent = new AtomicLong();
    private final AtomicLong ringFailures = new AtomicLong();
    /** Written by the progress owner only; volatile so tests and counters may read them. */
    private volatile long wakesByRing;
    private volatile long sleeps;

    private ShmDoorbell(DatagramChannel channel, Selector selector) throws IOException {
        this.channel = channel;
        this.selector = selector;
        this.address = (InetSocketAddress) channel.getLocalAddress();
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
            if (sel.select(SELF_TEST_MILLIS) == 0 || bell.drainAll() == 0) {
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

    /** Progress owner, after a sleep: reads the rings that came, so the channel is quiet again. */
    void awake() throws IOException {
        if (drainAll() > 0) {
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

    private int drainAll() throws IOException {
        int n = 0;
        while (true) {
            drain.clear();
            if (channel.receive(drain) == null) {
                return n;
            }
            n++;
        }
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

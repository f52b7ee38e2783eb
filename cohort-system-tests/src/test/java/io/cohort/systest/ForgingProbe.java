package io.cohort.systest;

import io.cohort.auth.FrameAuthenticator;
import io.cohort.broadcast.pcode.BcastHeaderDescriptor;
import io.cohort.broadcast.pcode.DataFrameDescriptor;

import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.function.BooleanSupplier;

/**
 * An attacker on a job's broadcast domain who is not a member: it joins the job's multicast group
 * (as any user of a host, or any host of the segment, can) and, for every DATA frame of the job it
 * captures, sends four datagrams of its own to the group:
 *
 * <ol>
 *   <li>a <b>replay</b>: the frame unchanged, tag and all (a member's own earlier frame, which the
 *       receivers must take as the duplicate it is);</li>
 *   <li>a <b>forgery</b>: the frame with its payload bytes changed and its tag left as it was;</li>
 *   <li>a <b>random tag</b>: the frame with its tag replaced by random bytes;</li>
 *   <li>a forged <b>next frame</b> of the same sender: the next personal count and the next
 *       position (the {@code broadcast} example makes one call per peer in a round), payload changed,
 *       tag left. It reaches the receivers long before the sender's real next frame, so without
 *       authentication they would take it as the sender's next message: this one is what made the
 *       job deliver an attacker's message as a member's before the frames carried tags.</li>
 * </ol>
 *
 * The three altered kinds must fail authentication at every receiver. Nothing here knows the job's
 * secret; the header layout is {@link BcastHeaderDescriptor}'s and {@link DataFrameDescriptor}'s.
 * Used in the test JVM ({@link #open}, {@link #attack}) and, from a namespace of the cluster in a
 * box, as a program:
 *
 * <pre>
 *   java -cp ... io.cohort.systest.ForgingProbe GROUP:PORT SECONDS
 * </pre>
 *
 * which joins the group on the host's one multicast interface, prints {@code listening}, attacks
 * until its standard input ends or SECONDS pass, and prints {@link Counts#line()}.
 */
public final class ForgingProbe implements AutoCloseable {
    /** What the attacker captured and sent. */
    record Counts(long captured, long replays, long forgeries, long randomTags, long nextFrames) {
        /** Datagrams sent that must fail authentication. */
        long forged() {
            return forgeries + randomTags + nextFrames;
        }

        String line() {
            return "forging-probe: captured " + captured + " data frames, sent " + replays + " replays, " + forgeries
                    + " forgeries, " + randomTags + " random tags, " + nextFrames + " forged next frames";
        }

        static Counts parse(String line) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("forging-probe: captured (\\d+) data frames, sent (\\d+)"
                    + " replays, (\\d+) forgeries, (\\d+) random tags, (\\d+) forged next frames").matcher(line);
            if (!m.matches()) {
                return null;
            }
            return new Counts(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                    Long.parseLong(m.group(4)), Long.parseLong(m.group(5)));
        }
    }

    private static final int MAX_DATAGRAM = 65_536;

    private final InetSocketAddress group;
    private final DatagramChannel rx;
    private final DatagramChannel tx;
    private final SocketAddress self;
    private final SecureRandom random = new SecureRandom();
    private long captured;
    private long replays;
    private long forgeries;
    private long randomTags;
    private long nextFrames;

    private ForgingProbe(InetSocketAddress group, DatagramChannel rx, DatagramChannel tx) throws IOException {
        this.group = group;
        this.rx = rx;
        this.tx = tx;
        this.self = tx.getLocalAddress();
    }

    /**
     * Joins {@code group} on {@code nif} (whose IPv4 address is {@code local}) the way a peer does:
     * a socket bound to the group's port with SO_REUSEADDR, so it gets a copy of every frame; and a
     * sending socket with loopback on, so peers on this very host hear the forgeries too.
     */
    static ForgingProbe open(InetSocketAddress group, NetworkInterface nif, InetAddress local) throws IOException {
        DatagramChannel rx = DatagramChannel.open(StandardProtocolFamily.INET);
        DatagramChannel tx = null;
        try {
            rx.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            rx.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            rx.bind(new InetSocketAddress(group.getPort()));
            rx.join(group.getAddress(), nif);
            rx.configureBlocking(false);
            tx = DatagramChannel.open(StandardProtocolFamily.INET);
            tx.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
            tx.setOption(StandardSocketOptions.IP_MULTICAST_IF, nif);
            tx.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 1);
            tx.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            tx.bind(new InetSocketAddress(local, 0));
            return new ForgingProbe(group, rx, tx);
        } catch (IOException | RuntimeException e) {
            rx.close();
            if (tx != null) {
                tx.close();
            }
            throw e;
        }
    }

    /** Captures and forges while {@code goOn} says so and the deadline has not passed; returns the counts. */
    Counts attack(BooleanSupplier goOn, long deadlineNanos) throws IOException {
        ByteBuffer in = ByteBuffer.allocate(MAX_DATAGRAM).order(ByteOrder.LITTLE_ENDIAN);
        try (Selector selector = Selector.open()) {
            rx.register(selector, SelectionKey.OP_READ);
            while (goOn.getAsBoolean() && System.nanoTime() < deadlineNanos) {
                selector.select(50); // the timeout only re-checks goOn and the deadline
                selector.selectedKeys().clear();
                SocketAddress from;
                while ((from = rx.receive(in.clear())) != null) {
                    if (!from.equals(self)) { // our own sends loop back to us
                        forge(in.flip());
                    }
                }
            }
        }
        return counts();
    }

    synchronized Counts counts() {
        return new Counts(captured, replays, forgeries, randomTags, nextFrames);
    }

    private void forge(ByteBuffer frame) throws IOException {
        int n = frame.remaining();
        if (n < DataFrameDescriptor.TARGETS_OFFSET + FrameAuthenticator.TAG_BYTES
                || frame.getInt(BcastHeaderDescriptor.MAGIC_OFFSET) != BcastHeaderDescriptor.MAGIC
                || frame.get(BcastHeaderDescriptor.TYPE_OFFSET) != BcastHeaderDescriptor.TYPE_DATA) {
            return;
        }
        int size = frame.getShort(BcastHeaderDescriptor.SIZE_OFFSET) & 0xFFFF;
        int payload = DataFrameDescriptor.TARGETS_OFFSET + 8 * ((size + 63) >>> 6);
        int tag = n - FrameAuthenticator.TAG_BYTES;
        if (payload >= tag) {
            return; // an empty message: nothing to change but the header
        }
        byte[] original = new byte[n];
        frame.get(0, original);
        synchronized (this) {
            captured++;
        }

        send(original);
        synchronized (this) {
            replays++;
        }

        byte[] forged = original.clone();
        for (int i = payload; i < tag; i++) {
            forged[i] ^= 0x01; // "round 7 from rank 1" becomes "sntoe!6!gsnl!s`oj!0"
        }
        send(forged);
        synchronized (this) {
            forgeries++;
        }

        byte[] randomTag = original.clone();
        byte[] t = new byte[FrameAuthenticator.TAG_BYTES];
        random.nextBytes(t);
        System.arraycopy(t, 0, randomTag, tag, t.length);
        send(randomTag);
        synchronized (this) {
            randomTags++;
        }

        ByteBuffer next = ByteBuffer.wrap(forged.clone()).order(ByteOrder.LITTLE_ENDIAN);
        next.putLong(DataFrameDescriptor.PERSONAL_COUNT_OFFSET, next.getLong(DataFrameDescriptor.PERSONAL_COUNT_OFFSET) + 1);
        next.putLong(DataFrameDescriptor.POSITION_OFFSET, next.getLong(DataFrameDescriptor.POSITION_OFFSET) + size);
        send(next.array());
        synchronized (this) {
            nextFrames++;
        }
    }

    private void send(byte[] datagram) throws IOException {
        tx.send(ByteBuffer.wrap(datagram), group); // a full send buffer drops it, as the network may
    }

    @Override
    public void close() throws IOException {
        try {
            rx.close();
        } finally {
            tx.close();
        }
    }

    /** {@code GROUP:PORT SECONDS}: see the class comment. */
    public static void main(String[] args) throws Exception {
        String g = args[0];
        int colon = g.lastIndexOf(':');
        InetSocketAddress group = new InetSocketAddress(InetAddress.getByName(g.substring(0, colon)),
                Integer.parseInt(g.substring(colon + 1)));
        long deadline = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
        NetworkInterface nif = hostInterface();
        InetAddress local = nif.inetAddresses().filter(a -> a instanceof Inet4Address).findFirst()
                .orElseThrow(() -> new IOException(nif.getName() + " has no IPv4 address"));
        try (ForgingProbe probe = open(group, nif, local)) {
            // Standard input ending is the test's word that the job is over.
            Thread stdin = new Thread(() -> {
                try (InputStream s = System.in) {
                    s.transferTo(java.io.OutputStream.nullOutputStream());
                } catch (IOException ignored) {
                    // Gone either way.
                }
            }, "forging-probe-stdin");
            stdin.setDaemon(true);
            stdin.start();
            System.out.println("listening on " + nif.getName() + " " + local.getHostAddress());
            System.out.flush();
            Counts c = probe.attack(stdin::isAlive, deadline);
            System.out.println(c.line());
        }
    }

    /** The one interface of a box host that is up, not loopback and multicast-capable (eth0). */
    private static NetworkInterface hostInterface() throws IOException {
        for (NetworkInterface i : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (i.isUp() && !i.isLoopback() && i.supportsMulticast()) {
                return i;
            }
        }
        throw new IOException("no multicast-capable interface is up");
    }
}

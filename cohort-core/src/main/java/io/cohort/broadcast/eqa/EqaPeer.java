package io.cohort.broadcast.eqa;

import io.cohort.auth.FrameAuthenticator;
import io.cohort.profile.Profiling;
import io.cohort.transport.fault.DatagramPort;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.cohort.broadcast.eqa.EqaCounters.Counter.*;
import static io.cohort.broadcast.eqa.EqaHeaderDescriptor.*;

/**
 * One member of an EQA broadcast group: a broadcasting sender ({@link EqaSender}, with its one
 * {@link RetransmissionBuffer}) and a {@link ReceiveChannel} per other member, over one
 * {@link DatagramPort}. The program broadcasts with {@link #broadcast} and takes what others
 * broadcast, in each sender's order, with {@link #poll} / {@link #take}.
 *
 * <pre>
 *   program threads ── broadcast ──► outbox ──┐                 ┌──► deliveries ──► poll / take
 *                                             ▼                 │
 *   owner thread:  doWork(now) ─ receive ─► validate ─► ReceiveChannel / EqaSender ─► port.send
 * </pre>
 *
 * <p>Threads: {@link #broadcast}, {@link #poll}, {@link #take}, the counters and the memory
 * figures may be called by any thread. {@link #doWork} belongs to one owner thread at a time:
 * an {@link EqaAgentThread}, or a test or benchmark that drives several peers from one loop.
 */
public final class EqaPeer implements AutoCloseable {
    /** A delivered message: who broadcast it, its number in that sender's stream, its bytes. */
    public record Delivery(int source, long message, byte[] data) {
    }

    private record Queued(byte[] data, BroadcastMode mode) {
    }

    private final EqaContext ctx;
    private final long key;
    private final int rank;
    private final int size;
    private final DatagramPort port;
    /** Where datagrams arrive: {@link #port}, and the group's socket when the group has one. */
    private final DatagramPort[] receivePorts;
    /** Signs every frame sent and checks every datagram received, or null (an unauthenticated group: tests). */
    private final FrameAuthenticator auth;
    /** A frame and its tag, written whole before it is sent (owner thread); null without {@link #auth}. */
    private final ByteBuffer signed;
    private final SocketAddress[] addresses;
    private final SocketAddress groupAddress;
    private final EqaCounters counters = new EqaCounters();
    private final EqaFrameValidator validator;
    private final EqaSender sender;
    private final ReceiveChannel[] channels;
    private final ConcurrentLinkedQueue<Queued> outbox = new ConcurrentLinkedQueue<>();
    private final LinkedBlockingQueue<Delivery> deliveries = new LinkedBlockingQueue<>();
    private final ByteBuffer rx = ByteBuffer.allocate(DatagramPort.MAX_DATAGRAM_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer tx = ByteBuffer.allocate(PullFrameDescriptor.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private volatile Runnable wakeup = () -> { };
    private volatile boolean busy;

    /**
     * A member of a group of {@code addresses.length} peers, {@code rank} among them, sending and
     * receiving on {@code port} (bound to {@code addresses[rank]}). {@code groupAddress}, if not
     * null, is a multicast address every member has joined: a broadcast is then one datagram
     * instead of a unicast to each member.
     */
    public EqaPeer(EqaContext ctx, long key, int rank, DatagramPort port, SocketAddress[] addresses,
                   SocketAddress groupAddress) {
        this(ctx, key, rank, port, null, addresses, groupAddress, null);
    }

    /**
     * As above, in a job: broadcasts sent to {@code groupAddress} arrive on {@code groupPort} (a socket
     * bound to the group's port; null where they arrive on {@code port}), and every frame carries a tag
     * of {@code auth} (keyed from the job secret and this group) after its bytes. A datagram whose tag
     * does not verify is dropped and counted ({@link EqaCounters.Counter#DROPPED_FORGED}); before the
     * tag is checked only the magic number and the group key (offset 8, which only decides how a
     * drop is counted) are read, and nothing in the frame is believed until it verified. A tag
     * proves that a member of the group wrote the frame, not which member.
     */
    public EqaPeer(EqaContext ctx, long key, int rank, DatagramPort port, DatagramPort groupPort,
                   SocketAddress[] addresses, SocketAddress groupAddress, FrameAuthenticator auth) {
        this.ctx = Objects.requireNonNull(ctx, "ctx").validate();
        int n = addresses.length;
        if (n < 2 || n > 0xFFFF) {
            throw new IllegalArgumentException("an EQA group needs 2 to 65535 members, not " + n + ".");
        }
        if (rank < 0 || rank >= n) {
            throw new IllegalArgumentException("rank " + rank + " is not in a group of " + n + " members.");
        }
        Profiling.refresh(); // a recording started before this member records its NACKs and resends
        this.key = key;
        this.rank = rank;
        this.size = n;
        this.port = port;
        this.receivePorts = groupPort == null ? new DatagramPort[] {port} : new DatagramPort[] {groupPort, port};
        this.auth = auth;
        this.signed = auth == null ? null
                : ByteBuffer.allocate(DataFrameDescriptor.PAYLOAD_OFFSET + ctx.packetPayloadBytes() + FrameAuthenticator.TAG_BYTES)
                .order(ByteOrder.LITTLE_ENDIAN);
        this.addresses = addresses.clone();
        this.groupAddress = groupAddress;
        this.validator = new EqaFrameValidator(key, rank, this.addresses, ctx.maxMessageBytes(), counters);
        int[] receivers = new int[n - 1];
        for (int r = 0, i = 0; r < n; r++) {
            if (r != rank) {
                receivers[i++] = r;
            }
        }
        RetransmissionBuffer buffer = RetransmissionBuffer.create(ctx.bufferDesign(), n - 1, ctx.window());
        this.sender = new EqaSender(ctx, key, rank, n, receivers, buffer, new Output(), counters);
        this.channels = new ReceiveChannel[n];
        for (int r = 0; r < n; r++) {
            if (r != rank) {
                channels[r] = new ReceiveChannel(rank, ctx.ackEvery(), ctx.gapHoldMicros() * 1000);
            }
        }
    }

    /** Broadcasts {@code message} (not copied: do not change it afterwards) in the context's mode. */
    public void broadcast(byte[] message) {
        broadcast(message, ctx.mode());
    }

    /** Broadcasts {@code message} (not copied) in {@code mode}. */
    public void broadcast(byte[] message, BroadcastMode mode) {
        if (message.length > ctx.maxMessageBytes()) {
            throw new IllegalArgumentException("a message of " + message.length + " bytes is longer than "
                    + EqaContext.MAX_MESSAGE_BYTES_PROP_NAME + " = " + ctx.maxMessageBytes() + ".");
        }
        busy = true;
        outbox.add(new Queued(message, Objects.requireNonNull(mode, "mode")));
        wakeup.run();
    }

    /** The next delivered message, or null. */
    public Delivery poll() {
        return deliveries.poll();
    }

    /** The next delivered message, waiting up to {@code timeout}; null if none came. */
    public Delivery take(long timeout, TimeUnit unit) throws InterruptedException {
        return deliveries.poll(timeout, unit);
    }

    /** Owner thread: receives and handles what has arrived, sends what may go, runs timers; returns the work done. */
    public int doWork(long now) {
        int work = 0;
        Queued q;
        while ((q = outbox.poll()) != null) {
            sender.enqueue(q.data(), q.mode());
            work++;
        }
        for (DatagramPort p : receivePorts) {
            for (int i = 0; i < 256; i++) {
                rx.clear();
                SocketAddress source = p.receive(rx);
                if (source == null) {
                    break;
                }
                work++;
                int length = authentic(rx, rx.position());
                if (length >= 0 && validator.check(rx, length, source) == EqaFrameValidator.VALID) {
                    handle(rx, now);
                }
            }
        }
        work += sender.doWork(now);
        busy = !sender.idle() || !outbox.isEmpty();
        return work;
    }

    /**
     * The length of the frame in the datagram of {@code datagram} bytes at {@code b}'s index 0 once its
     * tag verified, or -1 (dropped and counted). Only the magic number and the group key are read
     * first, so that strangers' and other groups' traffic costs no hash; nothing they say is believed
     * until the tag verified. Without an authenticator every datagram is its frame.
     */
    private int authentic(ByteBuffer b, int datagram) {
        if (auth == null) {
            return datagram;
        }
        if (datagram < 4 || magic(b) != MAGIC) {
            counters.increment(DROPPED_FOREIGN);
            return -1;
        }
        int length = datagram - FrameAuthenticator.TAG_BYTES;
        if (length < HEADER_LENGTH) {
            counters.increment(DROPPED_TRUNCATED);
            return -1;
        }
        if (EqaHeaderDescriptor.key(b) != key) {
            // Another communicator's or job's group on the same socket (a fixed cohort.bcast.group):
            // the key only decides how the drop is counted, and saves the hash.
            counters.increment(DROPPED_OTHER_GROUP);
            return -1;
        }
        if (!auth.verify(b, 0, length)) {
            counters.increment(DROPPED_FORGED);
            return -1;
        }
        return length;
    }

    /** Sends {@code length} bytes of {@code frame} from index 0 to {@code to}, with its tag if the group signs. */
    private boolean send(ByteBuffer frame, int length, SocketAddress to) {
        if (auth == null) {
            return port.send(frame.duplicate().limit(length).position(0), to);
        }
        signed.clear();
        signed.put(0, frame.duplicate().limit(length), 0, length); // whatever the caller's limit
        auth.sign(signed, 0, length);
        return port.send(signed.limit(length + FrameAuthenticator.TAG_BYTES).position(0), to);
    }

    private void handle(ByteBuffer b, long now) {
        int from = EqaHeaderDescriptor.sender(b);
        switch (type(b)) {
            case TYPE_DATA -> onData(from, b, now);
            case TYPE_ACK -> sender.onAck(from, AckFrameDescriptor.next(b), (flags(b) & FLAG_GAP) != 0, now);
            case TYPE_PULL -> sender.onPull(from, PullFrameDescriptor.message(b), PullFrameDescriptor.next(b), now);
            default -> counters.increment(DROPPED_MALFORMED); // the validator lets no other type through
        }
    }

    private void onData(int from, ByteBuffer b, long now) {
        counters.increment(PACKETS_RECEIVED);
        ReceiveChannel ch = channels[from];
        int actions = ch.onData(b, now);
        if ((actions & ReceiveChannel.ACK_MALFORMED) != 0) {
            counters.increment(DROPPED_MALFORMED);
            return;
        }
        if ((actions & ReceiveChannel.REJECT) != 0) {
            counters.increment(DataFrameDescriptor.sequence(b) < ch.expected() ? DUPLICATES : OUT_OF_ORDER);
        } else {
            counters.increment(PACKETS_ACCEPTED);
        }
        if ((actions & ReceiveChannel.DELIVER) != 0) {
            deliveries.add(new Delivery(from, ch.completedMessage(), ch.takeCompleted()));
            counters.increment(MESSAGES_DELIVERED);
        }
        if ((actions & ReceiveChannel.SEND_PULL) != 0) {
            tx.clear();
            EqaHeaderDescriptor.write(tx, TYPE_PULL, 0, key, rank, size);
            EqaHeaderDescriptor.target(tx, from); // binds the PULL to from's stream (see EqaFrameValidator)
            PullFrameDescriptor.write(tx, ch.pullMessage(), ch.expected());
            send(tx, PullFrameDescriptor.LENGTH, addresses[from]);
            counters.increment(PULLS_SENT);
        }
        if ((actions & (ReceiveChannel.SEND_ACK | ReceiveChannel.SEND_GAP_ACK)) != 0) {
            boolean gap = (actions & ReceiveChannel.SEND_GAP_ACK) != 0;
            tx.clear();
            EqaHeaderDescriptor.write(tx, TYPE_ACK, gap ? FLAG_GAP : 0, key, rank, size);
            EqaHeaderDescriptor.target(tx, from); // binds the ACK to from's stream (see EqaFrameValidator)
            AckFrameDescriptor.write(tx, ch.expected());
            send(tx, AckFrameDescriptor.LENGTH, addresses[from]);
            counters.increment(gap ? GAP_ACKS_SENT : ACKS_SENT);
            if (gap) {
                // The gap ack is EQA's NACK: everything from the expected packet up to this one.
                Profiling.nack(EqaSender.TRANSPORT_NAME, from, DataFrameDescriptor.sequence(b) - ch.expected());
            }
        }
    }

    /** Sends of the sender: one multicast datagram, or a unicast to each other member. */
    private final class Output implements FrameOutput {
        @Override
        public int sendToAll(ByteBuffer frame, int length) {
            if (groupAddress != null) {
                return send(frame, length, groupAddress) ? 0 : size - 1;
            }
            int refused = 0;
            for (int r = 0; r < size; r++) {
                if (r != rank && !send(frame, length, addresses[r])) {
                    refused++;
                }
            }
            return refused;
        }

        @Override
        public boolean sendTo(int to, ByteBuffer frame, int length) {
            return send(frame, length, addresses[to]);
        }
    }

    /** True while something queued or sent is not yet acknowledged by every receiver (any thread; may be stale). */
    public boolean busy() {
        return busy || !outbox.isEmpty();
    }

    /** Owner thread (or after it stopped): true when every message broadcast so far is acknowledged by all. */
    public boolean senderIdle() {
        return outbox.isEmpty() && sender.idle();
    }

    /** The rank whose acknowledgements hold this sender's window back, or -1 (any thread; may be a moment old). */
    public int laggard() {
        return sender.laggard();
    }

    /** The sender's retransmission buffer (its byte figures may be read by any thread). */
    public RetransmissionBuffer retransmissionBuffer() {
        return sender.buffer();
    }

    /** Bytes the receive channels hold now (owner thread, or after it stopped). */
    public long receiveBytesHeld() {
        long sum = 0;
        for (ReceiveChannel c : channels) {
            sum += c == null ? 0 : c.bytesHeld();
        }
        return sum;
    }

    /** The sum of each receive channel's peak (owner thread, or after it stopped). */
    public long receivePeakBytes() {
        long sum = 0;
        for (ReceiveChannel c : channels) {
            sum += c == null ? 0 : c.peakBytesHeld();
        }
        return sum;
    }

    /** Called by {@link #broadcast} so that a blocked owner thread notices work (set by the agent). */
    void wakeup(Runnable r) {
        wakeup = r;
    }

    public EqaCounters counters() {
        return counters;
    }

    public int rank() {
        return rank;
    }

    /** The group's key, which every frame of the group carries. */
    long key() {
        return key;
    }

    public int size() {
        return size;
    }

    public DatagramPort port() {
        return port;
    }

    /** The sockets datagrams arrive on: the peer's own, and the group's where it has one. */
    public DatagramPort[] receivePorts() {
        return receivePorts.clone();
    }

    public EqaContext context() {
        return ctx;
    }

    /** Closes the ports; idempotent. */
    @Override
    public void close() {
        for (DatagramPort p : receivePorts) {
            p.close();
        }
    }
}

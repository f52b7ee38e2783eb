package io.cohort.transport.eqa;

import io.cohort.profile.Profiling;
import io.cohort.transport.fault.DatagramPort;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.cohort.transport.eqa.EqaCounters.Counter.*;
import static io.cohort.transport.eqa.EqaHeaderDescriptor.*;

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
        for (int i = 0; i < 256; i++) {
            rx.clear();
            SocketAddress source = port.receive(rx);
            if (source == null) {
                break;
            }
            work++;
            int length = rx.position();
            if (validator.check(rx, length, source) == EqaFrameValidator.VALID) {
                handle(rx, now);
            }
        }
        work += sender.doWork(now);
        busy = !sender.idle() || !outbox.isEmpty();
        return work;
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
            PullFrameDescriptor.write(tx, ch.pullMessage(), ch.expected());
            port.send(tx.limit(PullFrameDescriptor.LENGTH).position(0), addresses[from]);
            counters.increment(PULLS_SENT);
        }
        if ((actions & (ReceiveChannel.SEND_ACK | ReceiveChannel.SEND_GAP_ACK)) != 0) {
            boolean gap = (actions & ReceiveChannel.SEND_GAP_ACK) != 0;
            tx.clear();
            EqaHeaderDescriptor.write(tx, TYPE_ACK, gap ? FLAG_GAP : 0, key, rank, size);
            AckFrameDescriptor.write(tx, ch.expected());
            port.send(tx.limit(AckFrameDescriptor.LENGTH).position(0), addresses[from]);
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
                return port.send(frame.duplicate().limit(length).position(0), groupAddress) ? 0 : size - 1;
            }
            int refused = 0;
            for (int r = 0; r < size; r++) {
                if (r != rank && !port.send(frame.duplicate().limit(length).position(0), addresses[r])) {
                    refused++;
                }
            }
            return refused;
        }

        @Override
        public boolean sendTo(int to, ByteBuffer frame, int length) {
            return port.send(frame.duplicate().limit(length).position(0), addresses[to]);
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

    public int size() {
        return size;
    }

    public DatagramPort port() {
        return port;
    }

    public EqaContext context() {
        return ctx;
    }

    /** Closes the port; idempotent. */
    @Override
    public void close() {
        port.close();
    }
}

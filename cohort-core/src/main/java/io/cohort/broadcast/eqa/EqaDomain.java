package io.cohort.broadcast.eqa;

import io.cohort.BroadcastDomain;
import io.cohort.CohortException;
import io.cohort.DomainCounters;
import io.cohort.GlobalProgramException;
import io.cohort.broadcast.pcode.DomainEndpoints;
import io.cohort.broadcast.pcode.DomainFactory;
import io.cohort.stacks.PeerWait;
import io.cohort.stacks.PeerWaits;
import io.cohort.transport.fault.DatagramPort;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A communicator's broadcast domain over EQA ({@code cohort run --bcast-protocol eqa}): the
 * global program of {@link BroadcastDomain} on one {@link EqaPeer} per member, driven by its
 * {@link EqaAgentThread}. The collectives over the domain ({@code --collectives bcast}, and AUTO
 * where it picks the domain) run on it unchanged.
 *
 * <pre>
 *   multicast(m, T) ─► [targets T | m] ─► EqaPeer.broadcast ─► every member (EQA: reliable, FIFO per sender)
 *   request(s, T)   ◄─ first message of s to T ◄─ per-source queue ◄─ deliveries (members outside T drop it)
 * </pre>
 *
 * <p>EQA broadcasts to every member, so a multicast carries its target set in front of the data
 * ({@value #ALL_OTHERS} for "all but the sender", which is what the collectives use; otherwise the
 * ranks): a member outside it drops the message, and a target keeps it in its source's queue until
 * the request with that target set comes. So the k-th request from a source with a target set meets
 * the k-th multicast of that source to that set, as the interface says.
 *
 * <p>A call waits at most {@code callTimeoutNanos} ({@code cohort.bcast.callTimeoutMillis}) and then
 * fails with a {@link GlobalProgramException}; {@link #close} lingers, at most
 * {@code lingerNanos}, until every member acknowledged our broadcasts and the wire has been quiet
 * for a while (a member whose last ACK was lost is sent the packet again and must still answer).
 *
 * <p>Threads: one calling thread at a time for {@link #multicast}, {@link #request} and
 * {@link #close}; {@link #poll} and {@link #counters} from any thread.
 */
public final class EqaDomain implements BroadcastDomain {
    /** The target-set word of a multicast to every member but its sender. */
    static final int ALL_OTHERS = 0xFFFF;
    /** Bytes of the target-set word in front of every message. */
    static final int PREFIX_BYTES = 2;
    /** Multicasts a caller may have queued before its packets are all out; it waits beyond that. */
    static final int MAX_UNSENT_MESSAGES = 8;

    /** A message that arrived before its request: its targets (sorted; null: all others) and data. */
    private record Held(int[] targets, byte[] data) {
    }

    private final EqaPeer peer;
    private final EqaAgentThread agent;
    private final int rank;
    private final int size;
    private final long callTimeoutNanos;
    private final long lingerNanos;
    private final EqaAgentThread.Idle idle;
    /** Per source, what arrived and is not yet requested; the calling thread's. */
    private final ArrayDeque<Held>[] held;
    /** Multicasts handed to the peer so far; the calling thread's. */
    private long multicasts;
    /**
     * Set by the calling thread when a call gave up; volatile because the communicator's close may
     * ask {@link #failed()} from another thread (a world closed by a shutdown hook, say).
     */
    private volatile boolean failed;
    /**
     * Set once by the first {@link #close}: atomic because, like {@link #failed}, close may come
     * from another thread than the calls' (a world closed by a shutdown hook), and two closes must
     * not both run it and report this domain's drops twice.
     */
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    /**
     * Messages dropped for a malformed target prefix: written by the calling thread, read by
     * {@link #counters} from any thread, hence atomic.
     */
    private final java.util.concurrent.atomic.AtomicLong malformed = new java.util.concurrent.atomic.AtomicLong();
    /** Where this domain's drops go when it closes (the job's drop report), or null. */
    private final DomainFactory dropsTo;
    /** Told, once the domain has closed, what its buffers held at most ({@link #memoryReport}); may do nothing. */
    private final java.util.function.Consumer<String> closeReport;

    /**
     * Runs the domain on {@code peer}, which must not be driven by anyone else: starts its agent
     * ({@code cohort-eqa-<rank>}) idling as {@code idle} says.
     */
    public EqaDomain(EqaPeer peer, EqaAgentThread.Idle idle, long callTimeoutNanos, long lingerNanos)
            throws java.io.IOException {
        this(peer, idle, callTimeoutNanos, lingerNanos, null, s -> { });
    }

    /**
     * As above; {@code dropsTo}, if not null, is told this domain's drops when it closes, and
     * {@code closeReport} its {@link #memoryReport}.
     */
    @SuppressWarnings("unchecked")
    private EqaDomain(EqaPeer peer, EqaAgentThread.Idle idle, long callTimeoutNanos, long lingerNanos,
                      DomainFactory dropsTo, java.util.function.Consumer<String> closeReport) throws java.io.IOException {
        this.peer = peer;
        this.dropsTo = dropsTo;
        this.closeReport = closeReport;
        this.rank = peer.rank();
        this.size = peer.size();
        this.idle = idle;
        this.callTimeoutNanos = callTimeoutNanos;
        this.lingerNanos = lingerNanos;
        this.held = new ArrayDeque[size];
        for (int s = 0; s < size; s++) {
            held[s] = new ArrayDeque<>();
        }
        this.agent = new EqaAgentThread(peer, idle).start();
    }

    /**
     * Opens this peer's EQA domain on the sockets {@code binding} bound (the network, medium and
     * fault plan the PCODE domain would use, under {@link DomainFactory#forEqa()}'s key), once every
     * member's address is known: frames are signed with a key derived from the job secret and the
     * domain's scope ({@link DomainFactory#authenticator}), so no other job or communicator verifies
     * them. On failure the sockets are closed and one sentence says why.
     */
    public static EqaDomain open(DomainFactory.Binding binding, String[] addresses, EqaContext ctx,
                                 EqaAgentThread.Idle idle, long callTimeoutNanos, long lingerNanos) {
        return open(binding, addresses, ctx, idle, callTimeoutNanos, lingerNanos, s -> { });
    }

    /** As above, and {@code closeReport} is told the domain's {@link #memoryReport} once it has closed. */
    public static EqaDomain open(DomainFactory.Binding binding, String[] addresses, EqaContext ctx,
                                 EqaAgentThread.Idle idle, long callTimeoutNanos, long lingerNanos,
                                 java.util.function.Consumer<String> closeReport) {
        DomainFactory f = binding.factory();
        DomainEndpoints e = binding.endpoints(addresses);
        try {
            EqaPeer peer = new EqaPeer(ctx, f.key(), f.rank(), e.unicast(), e.group(), e.peers(), e.broadcastTarget(),
                    frameAuthenticator(f));
            return new EqaDomain(peer, idle, callTimeoutNanos, lingerNanos, f, closeReport);
        } catch (java.io.IOException | RuntimeException x) {
            for (DatagramPort p : new DatagramPort[] {e.unicast(), e.group()}) {
                if (p != null) {
                    p.close();
                }
            }
            throw new CohortException("cannot open the EQA broadcast domain of rank " + f.rank() + ": " + x.getMessage(), x);
        }
    }

    /**
     * The signer of the frames of {@code f}'s EQA domain (every member derives the same): keyed from
     * the job secret over the purpose {@code eqa} and the domain's whole scope, not its 64-bit key.
     */
    static io.cohort.auth.FrameAuthenticator frameAuthenticator(DomainFactory f) {
        return f.authenticator("eqa");
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    /**
     * Each member's rank in the world, for the stacks (a communicator's domain numbers its members
     * from 0); null: the domain's numbers are the world's. Set once, before the first call.
     */
    private volatile int[] worldRanks;

    /** Names the members by their world ranks in what the stacks show this domain's callers waiting for. */
    public void worldRanks(int[] ranks) {
        if (ranks.length != size) {
            throw new IllegalArgumentException(ranks.length + " world ranks for a domain of " + size);
        }
        this.worldRanks = ranks.clone();
    }

    /** What the calling thread waits for, for the stacks: {@code member} in the world's numbering. */
    private PeerWait waitFor(String operation, int member) {
        int[] w = worldRanks;
        return new PeerWait(operation, w == null ? member : w[member], -1, -1);
    }

    /** The EQA member under this domain (its counters, its buffer's memory figures). */
    public EqaPeer peer() {
        return peer;
    }

    @Override
    public void multicast(ByteBuffer message, int... targets) {
        int[] t = canonical(targets, rank, "multicast from rank " + rank);
        checkUsable("multicast");
        int length = message.remaining();
        if ((long) length + PREFIX_BYTES + 2L * size > peer.context().maxMessageBytes()) {
            throw new IllegalArgumentException("a multicast of " + length + " bytes is longer than "
                    + EqaContext.MAX_MESSAGE_BYTES_PROP_NAME + " = " + peer.context().maxMessageBytes() + " allows");
        }
        int prefix = t == null ? PREFIX_BYTES : PREFIX_BYTES + 2 * t.length;
        ByteBuffer b = ByteBuffer.allocate(prefix + length).order(ByteOrder.LITTLE_ENDIAN);
        if (t == null) {
            b.putShort((short) ALL_OTHERS);
        } else {
            b.putShort((short) t.length);
            for (int r : t) {
                b.putShort((short) r);
            }
        }
        b.put(message.duplicate());
        awaitRoom();
        peer.broadcast(b.array());
        multicasts++;
    }

    /**
     * Back-pressure: the peer's outbox is unbounded, so a caller that multicasts faster than the
     * window drains waits here until at most {@link #MAX_UNSENT_MESSAGES} of its multicasts have
     * packets not yet sent once. MESSAGES_SENT is written by the agent and read whole here (an
     * atomic array element): a stale read only makes the caller wait one more round.
     */
    private void awaitRoom() {
        long deadline = System.nanoTime() + callTimeoutNanos;
        PeerWaits.Slot waiting = null;
        int named = -1;
        try {
            while (multicasts - peer.counters().get(EqaCounters.Counter.MESSAGES_SENT) >= MAX_UNSENT_MESSAGES) {
                checkUsable("multicast");
                if (System.nanoTime() - deadline > 0) {
                    throw fail("multicast from rank " + rank + " waited " + TimeUnit.NANOSECONDS.toMillis(callTimeoutNanos)
                            + " ms for the members to acknowledge its earlier multicasts; one is stopped, cut off or gone"
                            + (peer.laggard() >= 0 ? " (the slowest: rank " + peer.laggard() + ")" : ""));
                }
                int behind = peer.laggard();
                if (behind >= 0 && behind != named) {
                    named = behind;
                    waiting = waiting == null ? PeerWaits.slot() : waiting;
                    waiting.set(waitFor(PeerWait.MULTICAST, behind));
                }
                pause();
            }
        } finally {
            if (waiting != null) {
                waiting.clear();
            }
        }
    }

    @Override
    public byte[] request(int source, int... targets) {
        if (source < 0 || source >= size || source == rank) {
            throw new IllegalArgumentException("rank " + rank + " cannot request from rank " + source
                    + " in a domain of " + size);
        }
        int[] t = canonical(targets, source, "request from rank " + source);
        if (t != null && Arrays.binarySearch(t, rank) < 0) {
            throw new IllegalArgumentException("rank " + rank + " requests a multicast whose targets "
                    + Arrays.toString(t) + " do not contain it");
        }
        checkUsable("request");
        byte[] first = take(source, t);
        if (first != null) {
            return first;
        }
        PeerWaits.Slot waiting = PeerWaits.slot();
        waiting.set(waitFor(PeerWait.REQUEST, source));
        try {
            return awaitMessage(source, t);
        } finally {
            waiting.clear();
        }
    }

    /** Files deliveries until one from {@code source} to {@code t} is there, or the call times out. */
    private byte[] awaitMessage(int source, int[] t) {
        long deadline = System.nanoTime() + callTimeoutNanos;
        while (true) {
            byte[] found = take(source, t);
            if (found != null) {
                return found;
            }
            EqaPeer.Delivery d;
            try {
                d = next(deadline);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CohortException("interrupted in a request from rank " + source + " of the EQA domain");
            }
            if (d != null) {
                keep(d);
            } else {
                checkUsable("request");
                if (System.nanoTime() - deadline > 0) {
                    throw fail("request from rank " + source + " to " + (t == null ? "all others" : Arrays.toString(t))
                            + " at rank " + rank + " found no matching multicast in "
                            + TimeUnit.NANOSECONDS.toMillis(callTimeoutNanos) + " ms: rank " + source
                            + " is stopped, cut off, or never made that multicast (an incorrect program)");
                }
            }
        }
    }

    /** The next delivery, waiting as the peer's idle strategy says, or null after a while. */
    private EqaPeer.Delivery next(long deadline) throws InterruptedException {
        if (idle == EqaAgentThread.Idle.BLOCK) {
            // The agent adds to a LinkedBlockingQueue, whose lock hands the delivery over and wakes us.
            long wait = Math.min(deadline - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(100));
            return peer.take(Math.max(0, wait), TimeUnit.NANOSECONDS);
        }
        EqaPeer.Delivery d = peer.poll();
        if (d == null) {
            pause();
        }
        return d;
    }

    private void pause() {
        switch (idle) {
            case SPIN -> Thread.onSpinWait();
            case YIELD -> Thread.yield();
            default -> LockSupport.parkNanos(50_000);
        }
    }

    /**
     * Files a delivery under its source, or drops it where this member is not among its targets. A
     * target prefix that is short, empty, unsorted, repeated, names the source or a rank beyond the
     * domain is dropped and counted as malformed ({@link #malformed}): only a member can sign such a
     * message, but nothing on the receive path throws or fails the domain for what arrived.
     */
    private void keep(EqaPeer.Delivery d) {
        byte[] m = d.data();
        ByteBuffer b = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
        if (m.length < PREFIX_BYTES) {
            malformed.incrementAndGet();
            return;
        }
        int count = Short.toUnsignedInt(b.getShort(0));
        int[] targets = null;
        int from = PREFIX_BYTES;
        if (count != ALL_OTHERS) {
            if (count == 0 || count > size - 1 || m.length < PREFIX_BYTES + 2 * count) {
                malformed.incrementAndGet();
                return;
            }
            targets = new int[count];
            for (int i = 0; i < count; i++) {
                int t = Short.toUnsignedInt(b.getShort(PREFIX_BYTES + 2 * i));
                if (t >= size || t == d.source() || i > 0 && t <= targets[i - 1]) {
                    malformed.incrementAndGet(); // binarySearch below needs them sorted and distinct
                    return;
                }
                targets[i] = t;
            }
            from += 2 * count;
            if (Arrays.binarySearch(targets, rank) < 0) {
                return; // not for us: every member hears every broadcast
            }
            if (count == size - 1) {
                targets = null; // every other member, spelt out: the same set as ALL_OTHERS
            }
        }
        held[d.source()].add(new Held(targets, Arrays.copyOfRange(m, from, m.length)));
    }

    /** The first held message of {@code source} to {@code targets}, removed; or null. */
    private byte[] take(int source, int[] targets) {
        for (Iterator<Held> it = held[source].iterator(); it.hasNext(); ) {
            Held h = it.next();
            if (Arrays.equals(h.targets(), targets)) {
                it.remove();
                return h.data();
            }
        }
        return null;
    }

    /** The target set sorted, or null where it is every member but {@code source}; checked. */
    private int[] canonical(int[] targets, int source, String call) {
        if (targets == null || targets.length == 0) {
            throw new IllegalArgumentException(call + " names no targets");
        }
        int[] t = targets.clone();
        Arrays.sort(t);
        for (int i = 0; i < t.length; i++) {
            if (t[i] < 0 || t[i] >= size || t[i] == source || i > 0 && t[i] == t[i - 1]) {
                throw new IllegalArgumentException(call + " names targets " + Arrays.toString(targets)
                        + ", which are not distinct members of a domain of " + size + " other than rank " + source);
            }
        }
        return t.length == size - 1 ? null : t;
    }

    private void checkUsable(String call) {
        if (closed.get()) {
            throw new IllegalStateException("a " + call + " on an EQA domain that is closed");
        }
        Throwable f = agent.failure();
        if (f != null) {
            failed = true;
            throw new CohortException("the EQA agent of rank " + rank + " stopped: " + f, f);
        }
    }

    private GlobalProgramException fail(String message) {
        failed = true;
        return new GlobalProgramException(message + " (EQA counters: " + peer.counters() + ")");
    }

    @Override
    public int messageBytesPerDatagram() {
        return peer.context().packetPayloadBytes() - PREFIX_BYTES;
    }

    /** The agent drives the peer; nothing to do here. */
    @Override
    public int poll() {
        return 0;
    }

    @Override
    public boolean failed() {
        return failed;
    }

    @Override
    public DomainCounters counters() {
        EqaCounters c = peer.counters();
        long[] v = new long[DomainCounters.Counter.values().length];
        v[DomainCounters.Counter.DATA_SENT.ordinal()] = c.get(EqaCounters.Counter.PACKETS_BROADCAST);
        v[DomainCounters.Counter.DATA_RECEIVED.ordinal()] = c.get(EqaCounters.Counter.PACKETS_RECEIVED);
        v[DomainCounters.Counter.DATA_ACCEPTED.ordinal()] = c.get(EqaCounters.Counter.PACKETS_ACCEPTED);
        v[DomainCounters.Counter.DUPLICATES.ordinal()] = c.get(EqaCounters.Counter.DUPLICATES);
        v[DomainCounters.Counter.RETRANSMISSIONS.ordinal()] = c.get(EqaCounters.Counter.PACKETS_RESENT);
        // A GAP ACK is EQA's NACK: the receiver names what it misses, point to point.
        v[DomainCounters.Counter.PERSONAL_NACKS_SENT.ordinal()] = c.get(EqaCounters.Counter.GAP_ACKS_SENT);
        v[DomainCounters.Counter.FLOW_STALLS.ordinal()] = c.get(EqaCounters.Counter.WINDOW_STALLS);
        v[DomainCounters.Counter.MESSAGES_DELIVERED.ordinal()] = c.get(EqaCounters.Counter.MESSAGES_DELIVERED);
        v[DomainCounters.Counter.OWN_ECHOES.ordinal()] = c.get(EqaCounters.Counter.OWN_ECHOES);
        // An ACK or PULL replayed to a sender it does not name is, like a spoofed rank, not from the peer it claims.
        v[DomainCounters.Counter.DROPPED_FOREIGN.ordinal()] = c.get(EqaCounters.Counter.DROPPED_FOREIGN)
                + c.get(EqaCounters.Counter.DROPPED_NOT_FOR_US);
        v[DomainCounters.Counter.DROPPED_OTHER_JOB.ordinal()] = c.get(EqaCounters.Counter.DROPPED_OTHER_GROUP);
        v[DomainCounters.Counter.DROPPED_VERSION.ordinal()] = c.get(EqaCounters.Counter.DROPPED_VERSION);
        v[DomainCounters.Counter.DROPPED_TRUNCATED.ordinal()] = c.get(EqaCounters.Counter.DROPPED_TRUNCATED);
        v[DomainCounters.Counter.DROPPED_MALFORMED.ordinal()] = c.get(EqaCounters.Counter.DROPPED_MALFORMED)
                + malformed.get(); // frames the peer dropped, and messages whose target prefix was malformed
        v[DomainCounters.Counter.DROPPED_FORGED.ordinal()] = c.get(EqaCounters.Counter.DROPPED_FORGED);
        return DomainCounters.of(v);
    }

    /**
     * Lingers, at most {@code lingerNanos} in all, until every member acknowledged our broadcasts,
     * then until nothing arrived for {@link #quietNanos()} (a member whose ACK was lost is sent our
     * packet again and must still answer it), then stops the agent and closes the sockets. A domain
     * that failed does not wait for anyone.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            if (!failed && agent.failure() == null) {
                long deadline = System.nanoTime() + lingerNanos;
                while (peer.busy() && System.nanoTime() - deadline < 0 && agent.failure() == null) {
                    LockSupport.parkNanos(100_000);
                }
                long quiet = quietNanos();
                long heard = peer.counters().get(EqaCounters.Counter.PACKETS_RECEIVED);
                long since = System.nanoTime();
                while (System.nanoTime() - deadline < 0 && System.nanoTime() - since < quiet && agent.failure() == null) {
                    LockSupport.parkNanos(quiet / 4);
                    long now = peer.counters().get(EqaCounters.Counter.PACKETS_RECEIVED);
                    if (now != heard) {
                        heard = now;
                        since = System.nanoTime();
                    }
                }
            }
        } finally {
            agent.close();
            peer.close();
            if (dropsTo != null) {
                dropsTo.countDrops(counters()); // the agent has stopped: these are final
            }
            closeReport.accept(memoryReport());
        }
    }

    /**
     * What this peer's buffers held at most, for the EQA paper's memory comparison in a real job:
     * the retransmission buffer of its one broadcast stream (shared by every receiver, or one per
     * channel) and its receive channels, in bytes (packet copies and their structures). Exact once
     * the domain has closed; a running domain's figures may be a moment old.
     */
    public String memoryReport() {
        RetransmissionBuffer b = peer.retransmissionBuffer();
        return "rank " + rank + " held at most " + b.peakBytesHeld() + " B for retransmission ("
                + peer.context().bufferDesign().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
                + " buffer, " + (size - 1) + " receivers, " + peer.counters().get(EqaCounters.Counter.MESSAGES_SENT)
                + " messages sent) and " + peer.receivePeakBytes() + " B in its receive channels";
    }

    /** How long the wire must be quiet before close: a few retransmit timeouts, at least 20 ms. */
    private long quietNanos() {
        return Math.max(20_000_000L, 8 * peer.context().retransmitTimeoutMicros() * 1000);
    }

    @Override
    public String toString() {
        return "EqaDomain[rank " + rank + " of " + size + ", " + peer.context().mode() + ", "
                + peer.context().bufferDesign() + "]";
    }
}

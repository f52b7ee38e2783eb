package io.cohort.broadcast.pcode;

import io.cohort.DomainCounters;
import io.cohort.auth.FrameAuthenticator;
import io.cohort.auth.JobSecret;

import io.cohort.GlobalProgramException;
import io.cohort.BroadcastDomain;
import io.cohort.idle.LocalPause;
import io.cohort.stacks.PeerWait;
import io.cohort.stacks.PeerWaits;
import io.cohort.profile.StallSpan;
import io.cohort.profile.Profiling;
import io.cohort.transport.fault.DatagramPort;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.cohort.DomainCounters.Counter.*;

/**
 * The PCODE broadcast domain: the calls of {@link BroadcastDomain} over the protocol of the paper's
 * sections 3-5. This class is the conductor: it runs the calls and their waits; receiving frames is
 * {@link PcodeReceiver}'s job, sending and resending {@link PcodeSender}'s, the timers
 * {@link PcodeTimers}', and each protocol ingredient is its own class:
 *
 * <pre>
 *   multicast ─► [flow control: FlowControl (gcv, FLOW_WINDOW)] ─► [room: SentMessageBuffer]
 *             ─► stamp GlobalCounter + personal count ─► PcodeSender ─► DatagramPort ─► group / peer
 *
 *   DatagramPort ─► FrameValidator ─► PcodeReceiver ─┬─ DATA:   pcv / InputSlot / EarlyMessageBuffer
 *                                                    ├─ NACK:   resend from SentMessageBuffer
 *                                                    └─ STATUS: PeerStatusTable ─► discard sent frames
 *   request ─► InputSlot ready? ─► deliver │ else NackTimer (REQUEST NACK after a delay, then periodic)
 * </pre>
 *
 * <p>All protocol state is guarded by one lock, {@link #lock}: the calling thread takes it for a
 * poll and releases it before it idles, so the progress agent's {@link #poll} can answer NACKs in
 * between. The sockets are thread-safe for sends.
 */
public final class PcodeDomain implements BroadcastDomain {
    /** The protocol's name in the profiler's events. */
    static final String TRANSPORT_NAME = "pcode";
    final int self;
    final int size;
    final long key;
    /**
     * Signs every frame this domain sends and checks every one it receives, under a key derived from
     * the job's secret and this domain's identity (so one communicator's frames never verify in
     * another's). Used under {@link #lock} only: a {@code Mac} is not thread-safe.
     */
    final FrameAuthenticator auth;
    final PcodeContext ctx;
    final DomainEndpoints endpoints;
    final PcodeCounters counters = new PcodeCounters();
    final Object lock = new Object();

    final PersonalCounterVector pcv;
    final PersonalCounterVector p2pReceived;
    final long[] p2pSentCount;
    final InputSlot[] slots;
    final SentMessageBuffer sent;
    final SentMessageBuffer[] p2pSent;
    final PeerStatusTable status;
    final GlobalCounter globalCounter = new GlobalCounter();
    final FlowControl flow;
    final EarlyMessageBuffer early;
    /** Highest personal count seen per stream (stream = sender, or size + sender for p2p). */
    final long[] highestSeen;
    final PcodeReceiver receiver;
    final PcodeSender sender;
    final PcodeTimers timers;
    final NackPacing pacing;

    private final DatagramPort[] receivePorts;
    private final ByteBuffer rx = ByteBuffer.allocate(DatagramPort.MAX_DATAGRAM_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final DomainIdler idler;
    /** The calling thread's pauses (the job suspended, a long GC): not counted against the call's time-out. */
    private final LocalPause pauses = new LocalPause(System.nanoTime());
    /** Calls made so far: the position in this peer's program (1 = first call). */
    private long position;
    private volatile boolean closed;
    /**
     * The program's thread is inside a call and polls by itself: the background {@link #poll} then
     * stays out, since a datagram it took would not wake the caller's selector.
     */
    private volatile boolean inCall;
    /** In {@link #close()}: every STATUS we send carries FLAG_CLOSING. */
    boolean closing;
    /** Last DATA or STATUS from a peer: a lingering peer leaves once the domain has been quiet. */
    long lastArrivalNanos;
    private volatile String failure;
    /** For the stacks: this domain's ranks in the world's numbering (null: the same numbering). */
    private volatile int[] worldRanks;
    /** Told the domain rank of a peer whose ended program a request waited for, before the request fails. */
    private volatile java.util.function.IntConsumer awaitedClosed;

    /**
     * A domain of {@code size} peers in which this one is {@code rank}. {@code key} names the domain
     * (the job's transport key, or a communicator's derived from it; a tag made from it goes on the
     * wire to tell jobs apart); {@code secret} is the job's, from which the domain's frame key is derived.
     */
    public PcodeDomain(int rank, int size, JobSecret secret, long key, PcodeContext ctx, DomainEndpoints endpoints) {
        this(rank, size, secret.authenticator("bcast", key), key, ctx, endpoints);
    }

    /**
     * As above, with the frame signer given: a job's domains are keyed over their whole scope
     * ({@link DomainFactory#authenticator}), not over the 64-bit {@code key}, which only spreads
     * groups and ports and tells jobs apart quickly.
     */
    PcodeDomain(int rank, int size, FrameAuthenticator auth, long key, PcodeContext ctx, DomainEndpoints endpoints) {
        ctx.validate(size);
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " is not in a broadcast domain of " + size + " peers");
        }
        if (endpoints.peers.length != size) {
            throw new IllegalArgumentException("the domain has " + size + " peers but " + endpoints.peers.length
                    + " unicast addresses");
        }
        this.self = rank;
        this.size = size;
        this.key = wireTag(key);
        this.auth = auth;
        this.ctx = ctx;
        this.endpoints = endpoints;
        this.pcv = new PersonalCounterVector(size);
        this.p2pReceived = new PersonalCounterVector(size);
        this.p2pSentCount = new long[size];
        this.slots = new InputSlot[2 * size];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new InputSlot();
        }
        this.sent = new SentMessageBuffer(ctx.sentBufferFrames);
        this.p2pSent = new SentMessageBuffer[size];
        for (int i = 0; i < size; i++) {
            p2pSent[i] = new SentMessageBuffer(ctx.p2pBufferFrames);
        }
        this.status = new PeerStatusTable(rank, size);
        this.flow = new FlowControl(rank, size, ctx.flowWindow);
        this.early = new EarlyMessageBuffer(2 * size, ctx.earlyBufferFrames);
        this.highestSeen = new long[2 * size];
        this.receivePorts = endpoints.receivePorts();
        this.receiver = new PcodeReceiver(this, new FrameValidator(this.key, size, rank, ctx.maxMessageBytes(size), counters, auth));
        this.sender = new PcodeSender(this);
        this.pacing = new NackPacing(ctx, 2 * size);
        this.timers = new PcodeTimers(this);
        this.idler = new DomainIdler(receivePorts, ctx.spins, ctx.yields);
    }

    /**
     * Tells the domain the world's rank of each of its peers (a communicator's domain numbers them
     * in the communicator), so that the stacks name the ranks a call waits for as the job does.
     */
    public void worldRanks(int[] ranks) {
        if (ranks.length != size) {
            throw new IllegalArgumentException("the domain has " + size + " peers but " + ranks.length + " world ranks");
        }
        this.worldRanks = ranks.clone();
    }

    /**
     * Tells {@code listener} the domain rank of a peer that ended its program while a request of this
     * peer waited for its multicast (the request then fails): the launcher's root cause follows it.
     */
    public void onAwaitedClosed(java.util.function.IntConsumer listener) {
        this.awaitedClosed = listener;
    }

    /** What the calling thread waits for, for the stacks: {@code peer} in the world's numbering. */
    private PeerWait waitFor(String operation, int peer) {
        int[] w = worldRanks;
        return new PeerWait(operation, w == null ? peer : w[peer], -1, -1);
    }

    /**
     * The tag frames carry instead of the key: two different mixes of the key xor-ed, so the tag
     * separates jobs without handing the key itself to everyone on the segment. Not authentication:
     * that is {@link #auth}'s.
     */
    static long wireTag(long key) {
        return mix(key ^ 0x5043_4F44_455F_4243L) ^ mix(~key + 0x9E37_79B9_7F4A_7C15L);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public int rank() {
        return self;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public DomainCounters counters() {
        return counters.snapshot();
    }

    @Override
    public int messageBytesPerDatagram() {
        return ctx.fragmentBytes(size);
    }

    // ---- multicast ------------------------------------------------------------------------------

    @Override
    public void multicast(ByteBuffer message, int... targets) {
        long[] t = TargetSet.of(targets, size, "multicast's target set");
        if (TargetSet.count(t) == 0) {
            throw new IllegalArgumentException("multicast needs at least one target");
        }
        if (TargetSet.contains(t, self)) {
            throw new IllegalArgumentException("multicast's target set " + TargetSet.describe(t)
                    + " contains the sender, rank " + self + "; a peer never multicasts to itself");
        }
        int length = message.remaining();
        if (length > ctx.maxMessageBytes(size)) {
            throw new IllegalArgumentException("a message of " + length + " bytes exceeds this domain's limit of "
                    + ctx.maxMessageBytes(size) + " bytes; raise " + PcodeContext.SENT_BUFFER_FRAMES_PROP_NAME
                    + " and " + PcodeContext.P2P_BUFFER_FRAMES_PROP_NAME);
        }
        boolean p2p = TargetSet.count(t) == 1;
        int dest = p2p ? TargetSet.single(t) : -1;
        long pos;
        synchronized (lock) {
            checkUsable();
            pos = ++position;
        }
        int fragment = ctx.fragmentBytes(size);
        int offset = 0;
        long start = System.nanoTime();
        pauses.reset(start);
        inCall = true;
        try {
            do {
                int n = Math.min(fragment, length - offset);
                start = awaitRoom(p2p, dest, pos, length, t, start);
                synchronized (lock) {
                    sender.sendData(message, offset, n, length, pos, t, p2p, dest);
                }
                offset += n;
            } while (offset < length);
        } finally {
            inCall = false;
        }
    }

    /**
     * Waits until one more frame may be sent: room in the sent buffer, and (broadcast) an open flow
     * window. A wait is a stall for the profiler, from the first closed look to the open one.
     * Returns the call's start, moved later by the pauses of this process meanwhile.
     */
    private long awaitRoom(boolean p2p, int dest, long pos, int length, long[] t, long start) {
        idler.reset();
        boolean stalled = false;
        StallSpan stall = null;
        PeerWaits.Slot waiting = null;
        int laggard = -1;
        try {
            for (;;) {
                long now = System.nanoTime();
                start += pauses.look(now);
                long due;
                int work;
                synchronized (lock) {
                    checkUsable();
                    work = pollLocked(now);
                    boolean room = p2p ? p2pSent[dest].hasRoom() : sent.hasRoom();
                    boolean open = p2p || flow.mayStamp(globalCounter.value() + 1);
                    if (room && open) {
                        timers.stalled(false, now);
                        return start;
                    }
                    if (!stalled) {
                        stalled = true;
                        counters.increment(room ? FLOW_STALLS : BUFFER_STALLS);
                        stall = Profiling.startStall(TRANSPORT_NAME, p2p ? dest : -1);
                    }
                    timers.stalled(true, now); // ask the others for STATUS / PROGRESS now and then
                    if (now - start - ctx.callTimeoutNanos >= 0) {
                        throw fail(stallMessage(p2p, dest, pos, length, t, room, now - start));
                    }
                    due = Math.min(start + ctx.callTimeoutNanos, nextDue(now));
                    int holder = p2p ? dest : !room ? status.firstLaggingBehind(sent.oldest())
                            : flow.firstLaggard(globalCounter.value() + 1);
                    if (holder >= 0 && holder != laggard) {
                        laggard = holder;
                        waiting = waiting == null ? PeerWaits.slot() : waiting;
                        waiting.set(waitFor(PeerWait.MULTICAST, holder));
                    }
                }
                if (work > 0) {
                    idler.reset();
                } else {
                    idler.idle(due);
                }
            }
        } finally {
            if (stall != null) {
                stall.finish();
            }
            if (waiting != null) {
                waiting.clear();
            }
        }
    }

    private String stallMessage(boolean p2p, int dest, long pos, int length, long[] t, boolean room, long waited) {
        String call = "rank " + self + ", call #" + pos + ": multicast(" + length + " bytes, targets "
                + TargetSet.describe(t) + ") waited " + waited / 1_000_000 + " ms ";
        if (!room) {
            String who = p2p ? "[" + dest + "]" : status.laggingBehind(sent.oldest());
            return call + "for room in the sent buffer: ranks " + who
                    + " have not confirmed our earlier frames; the global program is incorrect or those peers"
                    + " stopped (does each target request every multicast addressed to it?)";
        }
        return call + "for flow control: ranks " + flow.laggards(globalCounter.value() + 1) + " are more than "
                + ctx.flowWindow + " global counters behind; they stopped or their program does not match";
    }

    // ---- request --------------------------------------------------------------------------------

    @Override
    public byte[] request(int source, int... targets) {
        if (source < 0 || source >= size) {
            throw new IllegalArgumentException("request names source rank " + source + ", which is not in this domain of "
                    + size + " peers");
        }
        if (source == self) {
            throw new IllegalArgumentException("rank " + self + " cannot request its own multicast");
        }
        long[] t = TargetSet.of(targets, size, "request's target set");
        if (!TargetSet.contains(t, self) || TargetSet.contains(t, source)) {
            throw new IllegalArgumentException("request's target set " + TargetSet.describe(t)
                    + " must contain the requester, rank " + self + ", and not the source, rank " + source);
        }
        boolean p2p = TargetSet.count(t) == 1;
        int stream = p2p ? size + source : source;
        InputSlot slot = slots[stream];
        long pos;
        synchronized (lock) {
            checkUsable();
            pos = ++position;
        }
        inCall = true;
        try {
            return awaitMessage(source, t, p2p, stream, slot, pos);
        } finally {
            inCall = false;
        }
    }

    private byte[] awaitMessage(int source, long[] t, boolean p2p, int stream, InputSlot slot, long pos) {
        long start = System.nanoTime();
        pauses.reset(start);
        idler.reset();
        PeerWaits.Slot waiting = null;
        try {
            for (;;) {
                long now = System.nanoTime();
                start += pauses.look(now);
                long due;
                int work;
                synchronized (lock) {
                    checkUsable();
                    work = pollLocked(now);
                    if (!slot.isFree() && !TargetSet.same(slot.targets(), t)) {
                        throw fail("rank " + self + ", call #" + pos + ": request(source " + source + ", targets "
                                + TargetSet.describe(t) + ") met rank " + source + "'s multicast #" + slot.position()
                                + " to targets " + TargetSet.describe(slot.targets())
                                + "; the global program is incorrect: each target must request a multicast with its target set");
                    }
                    if (slot.isReady()) {
                        timers.requestSatisfied();
                        byte[] m = slot.take();
                        counters.increment(MESSAGES_DELIVERED);
                        receiver.drainEarly(stream, now); // the slot is free: a waiting frame may move in
                        return m;
                    }
                    timers.requestPending(stream, now);
                    if (!p2p && status.isClosed(source) && slot.isFree() && !receiver.hasGap(stream)
                            && highestSeen[stream] <= pcv.get(source)) {
                        java.util.function.IntConsumer told = awaitedClosed;
                        if (told != null) {
                            told.accept(source);
                        }
                        throw fail("rank " + self + ", call #" + pos + ": request(source " + source + ", targets "
                                + TargetSet.describe(t) + ") cannot be satisfied: rank " + source + " has ended its program after "
                                + pcv.get(source) + " broadcast frames, all handled here. The global program is incorrect: rank "
                                + source + " must call multicast(m, " + TargetSet.describe(t) + ") at this point");
                    }
                    if (now - start - ctx.callTimeoutNanos >= 0) {
                        throw fail(requestTimeoutMessage(source, t, pos, p2p, now - start));
                    }
                    due = Math.min(start + ctx.callTimeoutNanos, nextDue(now));
                }
                if (work > 0) {
                    idler.reset();
                } else {
                    if (waiting == null) {
                        waiting = PeerWaits.slot();
                        waiting.set(waitFor(PeerWait.REQUEST, source));
                    }
                    idler.idle(due);
                }
            }
        } finally {
            if (waiting != null) {
                waiting.clear();
            }
        }
    }

    private String requestTimeoutMessage(int source, long[] t, long pos, boolean p2p, long waited) {
        int stream = p2p ? size + source : source;
        PersonalCounterVector v = p2p ? p2pReceived : pcv;
        StringBuilder b = new StringBuilder("rank ").append(self).append(", call #").append(pos)
                .append(": request(source ").append(source).append(", targets ").append(TargetSet.describe(t))
                .append(") found no matching multicast within ").append(waited / 1_000_000).append(" ms; ")
                .append("rank ").append(source).append("'s ").append(p2p ? "point-to-point" : "broadcast")
                .append(" frames handled here: ").append(v.get(source)).append(", highest seen: ")
                .append(highestSeen[stream]);
        InputSlot other = slots[p2p ? source : size + source];
        if (!other.isFree()) {
            b.append("; its multicast #").append(other.position()).append(" to ")
                    .append(TargetSet.describe(other.targets())).append(" is waiting here instead");
        }
        // A rank that is stopped (SIGSTOP) or cut off looks the same from here as one that skipped the call.
        return b.append(". Either rank ").append(source).append(" is stopped or unreachable, or the global program is"
                + " incorrect: rank ").append(source).append(" must call multicast(m, ")
                .append(TargetSet.describe(t)).append(") at this point").toString();
    }

    // ---- progress -------------------------------------------------------------------------------

    @Override
    public int poll() {
        if (inCall) {
            return 0;
        }
        synchronized (lock) {
            // Again under the lock: a caller that entered between the look above and the lock has
            // polled (under the lock) and may now sleep in its selector; a datagram taken here
            // would leave it asleep until its next timer. The caller sets inCall before it locks.
            if (closed || inCall) {
                return 0;
            }
            return pollLocked(System.nanoTime());
        }
    }

    /** Receives what is waiting on every port, then runs the timers. Caller holds the lock. */
    int pollLocked(long now) {
        int work = 0;
        for (DatagramPort port : receivePorts) {
            for (int i = 0; i < 256; i++) {
                rx.clear();
                if (port.receive(rx) == null) {
                    break;
                }
                work++;
                receiver.onDatagram(rx, rx.position(), now);
            }
        }
        return work + timers.run(now);
    }

    /** When the poll must run again at the latest: a protocol timer, or a datagram a fault layer holds back. */
    private long nextDue(long now) {
        long due = timers.nextDue(now);
        for (DatagramPort p : receivePorts) {
            long d = p.nextDueNanos();
            if (d != Long.MAX_VALUE && d - due < 0) {
                due = d;
            }
        }
        return due;
    }

    @Override
    public boolean failed() {
        return failure != null;
    }

    private void checkUsable() {
        if (failure != null) {
            throw new GlobalProgramException("this broadcast domain stopped after an earlier error: " + failure);
        }
        if (closed) {
            throw new IllegalStateException("the broadcast domain of rank " + self + " is closed");
        }
    }

    private GlobalProgramException fail(String message) {
        failure = message;
        timers.requestSatisfied(); // no more REQUEST NACKs for a call that has ended
        return new GlobalProgramException(message);
    }

    /** Frames held for retransmission (broadcast and point-to-point), for tests. */
    public int framesHeld() {
        synchronized (lock) {
            int n = sent.size();
            for (SentMessageBuffer b : p2pSent) {
                n += b.size();
            }
            return n;
        }
    }

    /** Frames waiting in the early-message buffer, for tests. */
    public int earlyFramesHeld() {
        synchronized (lock) {
            return early.size();
        }
    }

    /** Most frames the sent buffer ever held, for tests. */
    public long sentHighWater() {
        synchronized (lock) {
            return sent.highWater();
        }
    }

    /**
     * Goodbye, in three steps: a STATUS with FLAG_CLOSING tells the others we need none of their
     * frames (they may discard them for us and stop counting us in flow control); then we linger,
     * answering NACKs, until every peer has confirmed our frames; and we stay until no DATA or
     * STATUS has arrived for four NACK intervals, because a peer that has not heard our goodbye
     * keeps asking for PROGRESS and must get an answer. LINGER bounds all of it.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        long start = System.nanoTime();
        long quiet = 4 * ctx.nackIntervalNanos;
        inCall = true;
        try {
            synchronized (lock) {
                closing = true;
                if (failure == null) {
                    sender.sendStatus(BcastHeaderDescriptor.FLAG_PROGRESS_REQUEST, start);
                }
            }
            long lastGoodbye = start;
            lastArrivalNanos = start;
            pauses.reset(start);
            idler.reset();
            while (failure == null) {
                long now = System.nanoTime();
                long paused = pauses.look(now);
                start += paused; // the linger and the quiet are the domain's time, not ours asleep
                lastArrivalNanos += paused;
                long due;
                int work;
                synchronized (lock) {
                    work = pollLocked(now);
                    boolean confirmed = framesHeldLocked() == 0;
                    // Even when every other peer said goodbye we wait for quiet: one of them may not have
                    // heard ours, and it keeps asking (a PROGRESS request) until it does.
                    if ((confirmed && now - lastArrivalNanos >= quiet)
                            || now - start - ctx.lingerNanos >= 0) {
                        break;
                    }
                    if (!confirmed && now - lastGoodbye - ctx.nackIntervalNanos >= 0) {
                        lastGoodbye = now; // the goodbye may be lost; repeat it while frames are unconfirmed
                        sender.sendStatus(BcastHeaderDescriptor.FLAG_PROGRESS_REQUEST, now);
                    }
                    due = Math.min(Math.min(lastGoodbye + ctx.nackIntervalNanos, lastArrivalNanos + quiet), nextDue(now));
                }
                if (work > 0) {
                    idler.reset();
                } else {
                    idler.idle(due);
                }
            }
        } finally {
            synchronized (lock) {
                closed = true;
            }
            inCall = false;
            idler.close();
            endpoints.close();
        }
        String undelivered = undeliveredMessages();
        if (undelivered != null && failure == null) {
            throw fail("rank " + self + " ended its program after call #" + position + " with " + undelivered
                    + " never requested; the global program is incorrect: every target must request each multicast addressed to it");
        }
    }

    /** Messages accepted into a slot and never requested, or null. */
    private String undeliveredMessages() {
        synchronized (lock) {
            StringBuilder b = null;
            for (int stream = 0; stream < slots.length; stream++) {
                InputSlot s = slots[stream];
                if (!s.isFree()) {
                    b = b == null ? new StringBuilder() : b.append(", ");
                    b.append("rank ").append(stream % size).append("'s multicast #").append(s.position()).append(" to ")
                            .append(TargetSet.describe(s.targets()));
                }
            }
            return b == null ? null : b.toString();
        }
    }

    private int framesHeldLocked() {
        int n = sent.size();
        for (SentMessageBuffer b : p2pSent) {
            n += b.size();
        }
        return n;
    }

    @Override
    public String toString() {
        return "PcodeDomain[rank " + self + " of " + size + ", " + counters + "]";
    }
}

package io.cohort.transport.udp;

import io.cohort.CohortException;
import io.cohort.auth.FrameAuthenticator;
import io.cohort.auth.JobSecret;
import io.cohort.idle.LocalPause;
import io.cohort.transport.InboundSink;
import io.cohort.transport.SendCompletion;
import io.cohort.transport.Transport;
import io.cohort.transport.fault.DatagramPort;
import io.cohort.transport.fault.FaultCounters;
import io.cohort.transport.fault.FaultInjectingPort;
import io.cohort.transport.fault.FaultPlan;
import io.cohort.transport.fault.NioDatagramPort;
import io.cohort.transport.fault.PortCounters;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

/**
 * PSE's UDP option, made reliable in the library: one non-blocking datagram socket per peer for all
 * its pairs, and per pair a sliding window with sequence numbers, piggy-backed cumulative and
 * selective acks, selective retransmission on an adaptive timer, fragmentation to the pair's MTU
 * and reassembly into the receive's own buffer ({@link UdpChannel}).
 *
 * <pre>
 *  construct (binds, port 0) ─► publish {@link #localEndpoint()} ─► {@link #connect} with everyone's
 *  ─► traffic ─► {@link #startClose()}: a BYE after the last message ─► every BYE in and ours acked
 *  ─► {@link #close()}
 * </pre>
 *
 * <ul>
 *   <li>Receive: {@link #poll()} drains up to {@value #RECEIVE_BATCH} datagrams, checks each
 *       ({@link UdpFrameDescriptor#check}: magic, version, job tag, rank; then the frame's tag with
 *       the key of the pair it claims; then that it came from that rank's socket), hands it to its
 *       pair, and after the batch sends the acks that are urgent. What fails a check is dropped and
 *       counted in {@link #counters()}, never thrown.</li>
 *   <li>Authentication: every datagram ends with a {@value FrameAuthenticator#TAG_BYTES}-byte tag
 *       (HMAC-SHA256 over the whole frame) keyed per ordered pair, derived from the job's
 *       {@link JobSecret}: only a member can make a frame the pair accepts, and a frame of one pair
 *       does not verify for another ({@link UdpChannel}).</li>
 *   <li>Block: {@link #block} first polls the socket {@link UdpSettings#pollsBeforeBlock()} times
 *       (PSE: many {@code recvfrom} calls before one {@code select}), then waits in a selector, but
 *       never past the next protocol timer or a datagram the fault layer holds.</li>
 *   <li>Liveness: UDP cannot see a dead peer. The launcher's word ({@link #peerGone}) and an
 *       inactivity time-out (keepalives flow on idle pairs) report it, naming the peer.</li>
 *   <li>Faults: with a {@link FaultPlan} the socket is wrapped in a {@link FaultInjectingPort}
 *       seeded with the plan's seed mixed with this rank.</li>
 * </ul>
 *
 * <p>Threads: as {@link Transport}. {@link #send} takes the pair's monitor and may transmit on the
 * caller's thread; poll, block, timers and delivery run on the progress owner.
 */
public final class UdpTransport implements Transport {
    /** The transport's name, in the transport matrix and the profiler's events. */
    public static final String NAME = "udp";
    /** Datagrams one poll takes from the socket before it looks at timers. */
    public static final int RECEIVE_BATCH = 64;
    private static final long NONE = Long.MAX_VALUE;
    private static final long MILLI = 1_000_000;

    private final int rank;
    private final int size;
    /** The job's tag ({@link JobSecret#jobTag()}): tells other jobs' datagrams apart; no proof of anything. */
    private final long jobTag;
    /** Each pair's keys are derived from it in {@link #connect}. */
    private final JobSecret secret;
    private final UdpSettings settings;
    private final NioDatagramPort socket;
    private final DatagramPort port;
    private final FaultInjectingPort faultPort;
    private final Selector selector;
    private final UdpEndpoint local;
    private final UdpChannel[] channels;
    private final UdpCounters counters = new UdpCounters();
    private final AtomicLong overflowBytes = new AtomicLong();
    /** The earliest instant any pair wants its timers run; lowered by any thread, reset by the owner. */
    private final AtomicLong nextTimerDue = new AtomicLong(NONE);
    /** While the owner waits in the selector: until when (a sender arming an earlier timer wakes it). */
    private volatile long blockedUntil = NONE;
    private final ByteBuffer rx = ByteBuffer.allocateDirect(DatagramPort.MAX_DATAGRAM_BYTES + 1)
            .order(ByteOrder.LITTLE_ENDIAN);
    private UdpChannel[] active = new UdpChannel[0];
    private UdpChannel[] touched = new UdpChannel[0];
    private boolean[] isTouched;
    private int touchedCount;
    /** The owner's pauses: a suspended job must not find its peers silent for the time it slept itself. */
    private final LocalPause pauses = new LocalPause(System.nanoTime());
    /** Set by whoever closes; read by the owner's poll and block, which must then do nothing. */
    private volatile boolean closed;

    /**
     * Binds a socket on {@code bindAddress} (port 0 for an ephemeral one). Every frame is signed and
     * checked with keys derived from {@code secret}, the same in every peer of the job.
     * {@code faults} may be {@link FaultPlan#NONE}.
     */
    public UdpTransport(int rank, int size, JobSecret secret, InetSocketAddress bindAddress, UdpSettings settings,
                        FaultPlan faults) throws IOException {
        this(rank, size, secret, bindAddress, settings, faults, UnaryOperator.identity());
    }

    /** As above, with the port wrapped once more by {@code decorate} (tests inject datagrams that way). */
    UdpTransport(int rank, int size, JobSecret secret, InetSocketAddress bindAddress, UdpSettings settings,
                 FaultPlan faults, UnaryOperator<DatagramPort> decorate) throws IOException {
        this.rank = rank;
        this.size = size;
        this.secret = secret;
        this.jobTag = secret.jobTag();
        this.settings = settings;
        this.socket = NioDatagramPort.open(bindAddress, settings.socketBufferBytes());
        this.faultPort = faults.isNone() ? null : new FaultInjectingPort(socket, faults, faults.seedFor(rank));
        this.port = decorate.apply(faultPort == null ? socket : faultPort);
        try {
            this.selector = Selector.open();
            socket.channel().register(selector, SelectionKey.OP_READ);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        InetSocketAddress bound = (InetSocketAddress) socket.localAddress();
        this.local = new UdpEndpoint(bound, UdpEndpoint.interfaceMtu(bound.getAddress()));
        this.channels = new UdpChannel[size];
        this.isTouched = new boolean[size];
    }

    /** What to publish: the socket's address and its interface's MTU. */
    public UdpEndpoint localEndpoint() {
        return local;
    }

    /**
     * Sets up a pair with each rank marked in {@code wanted} (the pairs that use udp);
     * {@code peerNames[i]} describes rank i in error messages. No packets are exchanged: both
     * sockets exist before anyone learns the other's address.
     */
    public void connect(UdpEndpoint[] endpoints, boolean[] wanted, String[] peerNames, InboundSink sink) {
        long now = System.nanoTime();
        int receiveBuffer = socket.receiveBufferBytes();
        for (int i = 0; i < size; i++) {
            if (i != rank && wanted[i]) {
                int d = UdpEndpoint.datagramBytes(settings.datagramBytes(), local, endpoints[i]);
                channels[i] = new UdpChannel(this, i, peerNames[i], endpoints[i].address(), d,
                        settings.windowFrames(receiveBuffer), settings.windowBytesFor(receiveBuffer), sink, now,
                        UdpChannel.signer(secret, rank, i), UdpChannel.verifier(secret, rank, i));
            }
        }
        active = IntStream.range(0, size).filter(i -> channels[i] != null).mapToObj(i -> channels[i])
                .toArray(UdpChannel[]::new);
        touched = new UdpChannel[active.length];
        armTimer(now);
    }

    /** Sets up every other rank. */
    public void connect(UdpEndpoint[] endpoints, String[] peerNames, InboundSink sink) {
        boolean[] all = new boolean[size];
        java.util.Arrays.fill(all, true);
        connect(endpoints, all, peerNames, sink);
    }

    /** The ranks this transport reaches, for {@code ProgressEngine.attach}. */
    public int[] peers() {
        return IntStream.range(0, size).filter(i -> channels[i] != null).toArray();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void send(int dest, int context, int tag, ByteBuffer payload, SendCompletion completion) {
        UdpChannel c = dest >= 0 && dest < size ? channels[dest] : null;
        if (c == null) {
            completion.failed(new CohortException("no udp pair with rank " + dest));
            return;
        }
        c.send(context, tag, payload, completion);
    }

    // ---- progress (the owner) -----------------------------------------------------------------------

    @Override
    public int poll() {
        if (closed) {
            return 0;
        }
        long now = System.nanoTime();
        long paused = pauses.look(now);
        if (paused > 0) {
            for (UdpChannel c : active) {
                c.forgivePause(paused, now);
            }
        }
        int work = receive(now, RECEIVE_BATCH);
        runTimers(now);
        return work;
    }

    private int receive(long now, int budget) {
        int n = 0;
        ByteBuffer b = rx;
        while (n < budget) {
            b.clear();
            SocketAddress source = port.receive(b);
            if (source == null) {
                break;
            }
            n++;
            b.flip();
            dispatch(b, b.limit(), source, now);
        }
        if (touchedCount > 0) {
            for (int i = 0; i < touchedCount; i++) {
                UdpChannel c = touched[i];
                touched[i] = null;
                isTouched[c.peer] = false;
                c.afterBatch(now);
            }
            touchedCount = 0;
        }
        return n;
    }

    /**
     * Checks one datagram at {@code [0, length)} of {@code b} and hands it to its pair. The order is
     * the security argument: only the cheap header fields that find the key (magic, version, job tag,
     * rank, and the lengths that say where the frame ends) are read before the tag is verified; its
     * acks, sequence number and window are believed only after. The tag comes before the source
     * address: whatever socket a forgery came from, it is counted as one; the address check after it
     * is defence in depth (a member's genuine frame replayed from another socket).
     */
    private void dispatch(ByteBuffer b, int length, SocketAddress source, long now) {
        int frame = length - FrameAuthenticator.TAG_BYTES; // negative for a runt: check calls it truncated
        int r = UdpFrameDescriptor.check(b, frame, jobTag, size);
        if (r < 0) {
            switch (r) {
                case UdpFrameDescriptor.TRUNCATED -> counters.truncated.incrementAndGet();
                case UdpFrameDescriptor.NOT_COHORT -> counters.notCohort.incrementAndGet();
                case UdpFrameDescriptor.WRONG_VERSION -> counters.wrongVersion.incrementAndGet();
                case UdpFrameDescriptor.WRONG_JOB -> counters.wrongJob.incrementAndGet();
                default -> counters.malformed.incrementAndGet();
            }
            return;
        }
        UdpChannel c = channels[r];
        if (c == null) {
            counters.unknownSender.incrementAndGet(); // a rank of the job this peer has no udp pair with (or itself)
            return;
        }
        if (!c.authentic(b, frame)) {
            counters.forged.incrementAndGet(); // not made with this pair's key: a stranger, another pair's frame, a bit flipped
            return;
        }
        if (!c.address.equals(source)) {
            counters.unknownSender.incrementAndGet(); // genuine, but not from the socket of the rank it claims
            return;
        }
        c.onDatagram(b, frame, now);
    }

    /** A pair received frames in this batch; it decides about acks after the batch. */
    void touched(UdpChannel c) {
        if (!isTouched[c.peer]) {
            isTouched[c.peer] = true;
            touched[touchedCount++] = c;
        }
    }

    private void runTimers(long now) {
        long due = nextTimerDue.get();
        if (due == NONE || now - due < 0) {
            return;
        }
        // Reset before the scan: a sender arming a timer meanwhile lowers it again and is not lost.
        nextTimerDue.set(NONE);
        long next = NONE;
        for (UdpChannel c : active) {
            next = UdpChannel.earlier(next, c.onTimer(now));
        }
        armTimer(next);
    }

    /** Asks for the timers to run by {@code due}; any thread. Wakes a blocked owner that would sleep past it. */
    void armTimer(long due) {
        if (due == NONE) {
            return;
        }
        for (;;) {
            long current = nextTimerDue.get();
            if (current != NONE && current - due <= 0) {
                break;
            }
            if (nextTimerDue.compareAndSet(current, due)) {
                break;
            }
        }
        long until = blockedUntil; // read after the CAS: the owner sets it before reading nextTimerDue
        if (until != NONE && due - until < 0) {
            selector.wakeup();
        }
    }

    @Override
    public boolean canBlock() {
        return true;
    }

    @Override
    public void block(long nanos) {
        for (int i = 0; i < settings.pollsBeforeBlock(); i++) {
            if (poll() > 0) {
                return;
            }
            Thread.onSpinWait();
        }
        if (closed) {
            return;
        }
        long now = System.nanoTime();
        for (UdpChannel c : active) {
            c.flushDelayedAck(now);
        }
        // The longest the selector may sleep (the idle period rounded up to its millisecond), published
        // before reading the timers: see armTimer.
        blockedUntil = now + MILLI * ceilMillis(nanos);
        pauses.waitingUntil(blockedUntil);
        try {
            long timers = UdpChannel.earlier(nextTimerDue.get(), port.nextDueNanos());
            long millis = selectMillis(nanos, timers == NONE ? NONE : timers - now);
            if (millis <= 0) {
                // Due within the selector's resolution: yield (a peer sharing this core runs) and poll again.
                Thread.yield();
                return;
            }
            selector.select(k -> { }, millis);
        } catch (IOException | ClosedSelectorException e) {
            if (!closed) {
                throw new CohortException("udp selector failed: " + e.getMessage(), e);
            }
        } finally {
            blockedUntil = NONE;
        }
    }

    /**
     * How many milliseconds {@link #block} may wait in the selector, whose resolution is one: the idle
     * period {@code nanos} is rounded up (an arrival wakes the selector early, so sleeping on costs
     * nothing), but the time left until the next protocol timer or held datagram, {@code timerInNanos}
     * ({@link Long#MAX_VALUE}: none), is rounded down, because nothing wakes the selector when a timer
     * falls due. 0 means "do not block": something is due within a millisecond. Rounding that wait up
     * made a retransmission time-out of 1 ms fire up to a millisecond late.
     */
    static long selectMillis(long nanos, long timerInNanos) {
        long millis = ceilMillis(nanos);
        if (timerInNanos != NONE && timerInNanos / MILLI < millis) {
            millis = Math.max(0, timerInNanos) / MILLI;
        }
        return millis;
    }

    /** {@code nanos} in whole milliseconds, rounded up, at least one (the selector's 0 means "forever"). */
    private static long ceilMillis(long nanos) {
        return nanos <= MILLI ? 1 : nanos / MILLI + (nanos % MILLI == 0 ? 0 : 1);
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public void peerGone(int peer, String reason) {
        UdpChannel c = peer >= 0 && peer < size ? channels[peer] : null;
        if (c == null || c.isEnded()) {
            return;
        }
        // Whatever the peer sent before it died is in the socket buffer: take it first.
        long now = System.nanoTime();
        while (receive(now, RECEIVE_BATCH) > 0) {
            now = System.nanoTime();
        }
        c.peerGone(reason);
    }

    // ---- close ----------------------------------------------------------------------------------

    @Override
    public void startClose() {
        for (UdpChannel c : active) {
            c.startClose();
        }
    }

    @Override
    public boolean isCloseComplete() {
        long now = System.nanoTime();
        for (UdpChannel c : active) {
            if (!c.closeComplete(now)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        closed = true;
        for (UdpChannel c : active) {
            c.endQuietly();
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing useful to do when closing fails at the end
        }
        port.close();
    }

    // ---- for the pairs ------------------------------------------------------------------------------

    DatagramPort port() {
        return port;
    }

    UdpSettings settings() {
        return settings;
    }

    long jobTag() {
        return jobTag;
    }

    int rank() {
        return rank;
    }

    /** Takes {@code bytes} from the overflow allowance; false (nothing taken) if that would exceed the limit. */
    boolean reserveOverflow(int bytes) {
        if (overflowBytes.addAndGet(bytes) > settings.overflowLimitBytes()) {
            overflowBytes.addAndGet(-bytes);
            return false;
        }
        return true;
    }

    void releaseOverflow(int bytes) {
        overflowBytes.addAndGet(-bytes);
    }

    // ---- observing ----------------------------------------------------------------------------------

    /** What the protocol did: drops by reason, retransmissions, acks. */
    public UdpCounters counters() {
        return counters;
    }

    /** What the socket moved. */
    public PortCounters portCounters() {
        return socket.counters();
    }

    /** What the fault layer did, or null when no faults are injected. */
    public FaultCounters faultCounters() {
        return faultPort == null ? null : faultPort.faults();
    }

    /** Whether {@code peer}'s goodbye has been delivered (for tests and diagnosis). */
    public boolean byeReceived(int peer) {
        return channels[peer] != null && channels[peer].byeReceived();
    }

    /** The datagram size used towards {@code peer}. */
    public int datagramBytes(int peer) {
        return channels[peer].datagramBytes();
    }

    /** The window (frames) of the pair with {@code peer}. */
    public int windowFrames(int peer) {
        return channels[peer].windowFrames();
    }

    /** Bytes of copied messages waiting for acknowledgement (counted against the overflow limit). */
    public long overflowBytes() {
        return overflowBytes.get();
    }

    /** One line per pair, for diagnosis. */
    public String describe() {
        StringBuilder b = new StringBuilder("udp rank " + rank + " at " + local + ": " + counters + "\n");
        for (UdpChannel c : active) {
            b.append("  ").append(c.describe()).append('\n');
        }
        return b.toString();
    }
}

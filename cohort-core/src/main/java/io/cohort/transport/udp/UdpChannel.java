package io.cohort.transport.udp;

import io.cohort.CohortException;
import io.cohort.PeerFailedException;
import io.cohort.auth.FrameAuthenticator;
import io.cohort.auth.JobSecret;
import io.cohort.profile.StallSpan;
import io.cohort.profile.Profiling;
import io.cohort.transport.InboundSink;
import io.cohort.transport.RttEstimator;
import io.cohort.transport.SendCompletion;
import io.cohort.transport.fault.DatagramPort;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;

/**
 * One pair of peers over UDP: PSE's per-peer send and receive rings made reliable.
 *
 * <pre>
 *  send(msg) ─► overflow queue ─► Fragmenter ─► SendWindow ─► frame ─► DatagramPort
 *                (waits while the window is full)   ▲  │ retransmit what RACK or the timer says
 *                                                   │  ▼
 *  DatagramPort ─► frame ─► ack fields ─────────────┘ SendWindow.onAck ─► completions
 *                     └───► sequenced part ─► InboundSequencer ─► in order ─► Reassembler ─► InboundSink
 *                                                   └─► early: held in a slot; AckTracker says when to ack
 * </pre>
 *
 * <p>Threads and locking: the monitor of this object guards the send side (overflow queue, send
 * window, timers, staging buffer) and the acknowledgement state that every outgoing frame carries;
 * any sending thread takes it to queue and transmit. The receive side ({@link InboundSequencer})
 * belongs to the progress owner alone and runs outside the monitor, so the engine's
 * matching is never entered with it held; the owner publishes the new acknowledgement under the
 * monitor after each frame. Completions and failure reports run outside the monitor.
 *
 * <p>Authentication: every datagram is the frame followed by a {@value FrameAuthenticator#TAG_BYTES}-byte
 * tag over all of it, keyed per ordered pair ({@link #signer}, {@link #verifier}): the key binds
 * sender and receiver, so a frame of this pair replayed to another peer (or reflected back to its
 * sender) does not verify, and nothing in the header needs to change. A {@link FrameAuthenticator}
 * is not thread-safe; each of the two here has one user at a time, said at its field.
 */
final class UdpChannel {
    private static final long NONE = Long.MAX_VALUE;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    /**
     * How long a finished pair keeps resending its goodbye for an ack that does not come. The ack may
     * have been lost after the peer closed: the peer needed our goodbye to close, so it has it. If
     * instead every resend was lost, the peer waits for its inactivity time-out; two seconds of
     * resends every millisecond or two make that a vanishing case.
     */
    static final long LINGER_NANOS = 2_000_000_000L;

    final int peer;
    final String peerName;
    final InetSocketAddress address;
    private final UdpTransport transport;
    private final DatagramPort port;
    private final InboundSink sink;
    private final UdpCounters counters;
    private final UdpSettings settings;
    private final long jobTag;
    private final int rank;
    private final int datagramBytes;
    private final Fragmenter fragmenter;
    /**
     * Signs what this peer sends to the pair: used by {@link #transmit} and {@link #sendAck} only,
     * both of which hold the monitor, which makes its users one at a time (and publishes its state
     * from one to the next), whichever thread sends.
     */
    private final FrameAuthenticator signer;
    /**
     * Checks what arrives claiming to be the peer's: used by {@link #authentic} only, which the
     * progress owner alone calls (the transport's dispatch, under poll, block or peerGone), one
     * thread at a time by the {@link io.cohort.transport.Transport} contract.
     */
    private final FrameAuthenticator verifier;

    // ---- send side: guarded by this ----
    private final SendWindow sendWindow;
    private final ArrayDeque<OutboundMessage> overflow = new ArrayDeque<>();
    private final AckTracker ackTracker;
    private final RttEstimator rtt;
    private final ByteBuffer staging;
    private int publishedAck;
    private long publishedSack;
    private long rtoDue = NONE;
    private long lossCheckDue = NONE;
    private long lingerDue = NONE;
    private long lastSentAt;
    private boolean byeQueued;
    private String endReason;
    /** Written under the monitor, read without it by the close check and the owner's fast paths. */
    private volatile boolean ended;
    /** The profiler's event while messages wait behind a full window (and a recording wants it). */
    private StallSpan stall;

    // ---- receive side: the progress owner only ----
    private final InboundSequencer inbound;
    private final SendWindow.AckOutcome ackOutcome = new SendWindow.AckOutcome();
    private long lastHeardAt;

    UdpChannel(UdpTransport transport, int peer, String peerName, InetSocketAddress address, int datagramBytes,
               int windowFrames, long windowBytes, InboundSink sink, long now, FrameAuthenticator signer,
               FrameAuthenticator verifier) {
        this.transport = transport;
        this.peer = peer;
        this.peerName = peerName;
        this.address = address;
        this.port = transport.port();
        this.sink = sink;
        this.counters = transport.counters();
        this.settings = transport.settings();
        this.jobTag = transport.jobTag();
        this.rank = transport.rank();
        this.datagramBytes = datagramBytes;
        this.signer = signer;
        this.verifier = verifier;
        // The tag rides in every datagram: frames get what is left, so no datagram exceeds the pair's size.
        this.fragmenter = new Fragmenter(datagramBytes - FrameAuthenticator.TAG_BYTES);
        this.sendWindow = new SendWindow(Integer.highestOneBit(windowFrames - 1) << 1);
        this.sendWindow.limit(windowFrames);
        this.sendWindow.byteLimit(windowBytes);
        this.inbound = new InboundSequencer(peer, peerName, windowFrames, sink, counters);
        this.ackTracker = new AckTracker(settings.ackDelayNanos(),
                (int) Math.max(2, Math.min(windowFrames, windowBytes / datagramBytes) / 8));
        this.rtt = new RttEstimator(settings.rtoInitialNanos(), settings.rtoMinNanos(), settings.rtoMaxNanos());
        this.staging = ByteBuffer.allocateDirect(Math.max(datagramBytes, UdpFrameDescriptor.HEADER_LENGTH
                + UdpFrameDescriptor.MAX_EXTRA + FrameAuthenticator.TAG_BYTES)).order(ByteOrder.LITTLE_ENDIAN);
        this.lastHeardAt = now;
        this.lastSentAt = now;
    }

    /** The key this peer ({@code rank}) signs its frames to {@code peer} with. */
    static FrameAuthenticator signer(JobSecret secret, int rank, int peer) {
        return secret.authenticator("udp", rank, peer);
    }

    /** The key {@code peer} signs its frames to this peer ({@code rank}) with: the peer's {@link #signer}. */
    static FrameAuthenticator verifier(JobSecret secret, int rank, int peer) {
        return secret.authenticator("udp", peer, rank);
    }

    int datagramBytes() {
        return datagramBytes;
    }

    int windowFrames() {
        return inbound.windowFrames();
    }

    // ---- sending (any thread) ---------------------------------------------------------------------

    void send(int context, int tag, ByteBuffer payload, SendCompletion completion) {
        int length = payload.remaining();
        boolean copy = length <= UdpSettings.COPY_MAX_BYTES && transport.reserveOverflow(length);
        OutboundMessage m;
        if (copy) {
            ByteBuffer c = ByteBuffer.allocate(length);
            c.put(0, payload, payload.position(), length);
            m = new OutboundMessage(UdpFrameDescriptor.TYPE_DATA, context, tag, c, 0, length, length, null);
        } else {
            if (length <= UdpSettings.COPY_MAX_BYTES) {
                counters.backPressured.incrementAndGet();
            }
            // Kept by reference until acknowledged: a duplicate so the caller's position and limit stay theirs.
            m = new OutboundMessage(UdpFrameDescriptor.TYPE_DATA, context, tag, payload.duplicate(), payload.position(),
                    length, 0, completion);
        }
        CohortException refused = null;
        synchronized (this) {
            if (ended) {
                refused = endReason != null ? new PeerFailedException(peer, endReason) : closing();
            } else if (byeQueued) {
                refused = closing();
            } else {
                overflow.add(m);
                counters.messagesSent.incrementAndGet();
                pump(System.nanoTime());
            }
        }
        if (refused != null) {
            if (copy) {
                transport.releaseOverflow(length);
            }
            completion.failed(refused);
        } else if (copy) {
            completion.sent(); // our copy is queued: the caller's memory is free
        }
    }

    private CohortException closing() {
        return new CohortException("cannot send to rank " + peer + ": this peer is closing its communicator");
    }

    /** Queues the goodbye after everything sent so far. */
    void startClose() {
        synchronized (this) {
            if (ended || byeQueued) {
                return;
            }
            byeQueued = true;
            overflow.add(new OutboundMessage(UdpFrameDescriptor.TYPE_BYE, 0, 0, EMPTY, 0, 0, 0, null));
            pump(System.nanoTime());
        }
    }

    /** Sends what is due again, then new frames while the window has room. Holds the monitor. */
    private void pump(long now) {
        pumpFrames(now);
        if (stall != null || (!overflow.isEmpty() && !sendWindow.hasRoom())) {
            noteStall();
        }
    }

    /**
     * For the profiler: a stall begins when messages wait and the window has no room, and ends
     * when it lets the next frame go (or nothing waits any more). Holds the monitor.
     */
    private void noteStall() {
        boolean stalled = !overflow.isEmpty() && !sendWindow.hasRoom() && !ended;
        if (stalled && stall == null) {
            stall = Profiling.startStall(UdpTransport.NAME, peer);
        } else if (!stalled && stall != null) {
            StallSpan e = stall;
            stall = null;
            e.finish();
        }
    }

    private void pumpFrames(long now) {
        if (sendWindow.dueCount() > 0) {
            for (int s = sendWindow.base(); s != sendWindow.next() && sendWindow.dueCount() > 0; s++) {
                if (sendWindow.isDue(s) && !transmit(s, now)) {
                    return;
                }
            }
        }
        while (!overflow.isEmpty() && sendWindow.hasRoom()) {
            OutboundMessage m = overflow.peek();
            int offset = m.fragmented;
            boolean first = !m.started;
            int length = fragmenter.next(m);
            boolean last = m.fullyFragmented();
            if (last) {
                overflow.poll();
            }
            int seq = sendWindow.add(m, offset, length, first, last);
            if (!transmit(seq, now)) {
                return; // the socket is full: the frame stays due, the owner retries
            }
        }
    }

    /** Builds frame {@code seq} with the current acknowledgement and hands it to the port. Holds the monitor. */
    private boolean transmit(int seq, long now) {
        OutboundMessage m = sendWindow.message(seq);
        boolean first = m.type == UdpFrameDescriptor.TYPE_DATA && sendWindow.isFirst(seq);
        int length = sendWindow.length(seq);
        ByteBuffer b = staging;
        b.clear();
        UdpFrameDescriptor.writeHeader(b, m.type, first ? UdpFrameDescriptor.FLAG_FIRST : 0, jobTag, rank, seq,
                publishedAck, publishedSack, inbound.windowFrames(), 0);
        if (first) {
            UdpFrameDescriptor.writeMessageHeader(b, m.context, m.tag, m.length);
        }
        if (length > 0) {
            int p = b.position();
            b.put(p, m.data, m.start + sendWindow.offset(seq), length);
            b.position(p + length);
        }
        seal(b);
        int datagram = b.remaining();
        if (!port.send(b, address)) {
            transport.armTimer(now); // socket buffer full: the owner tries again on its next poll
            return false;
        }
        if (sendWindow.transmissions(seq) == 0) {
            counters.framesSent.incrementAndGet();
        } else {
            counters.retransmissions.incrementAndGet();
            Profiling.retransmission(UdpTransport.NAME, peer, Integer.toUnsignedLong(seq), datagram);
        }
        sendWindow.sent(seq, now);
        ackTracker.sent(); // every frame carries the current acknowledgement
        lastSentAt = now;
        if (rtoDue == NONE) {
            rtoDue = now + rtt.rtoNanos();
            transport.armTimer(rtoDue);
        }
        return true;
    }

    /** Sends an ACK frame with the full selective map. Owner only (the map is the owner's), holds the monitor. */
    private void sendAck(long now) {
        int extra = inbound.extraBytes();
        ByteBuffer b = staging;
        b.clear();
        UdpFrameDescriptor.writeHeader(b, UdpFrameDescriptor.TYPE_ACK, (short) 0, jobTag, rank, sendWindow.next(),
                publishedAck, publishedSack, inbound.windowFrames(), extra);
        inbound.writeExtra(b, extra);
        seal(b);
        if (port.send(b, address)) {
            ackTracker.sent();
            lastSentAt = now;
            counters.acksSent.incrementAndGet();
        } else {
            transport.armTimer(now);
        }
    }

    /**
     * Appends the tag to the frame written in {@code [0, position)} of the staging buffer and flips it
     * to the datagram. Signed last, after every field is final (the acks included). Holds the monitor.
     */
    private void seal(ByteBuffer b) {
        int frame = b.position();
        signer.sign(b, 0, frame);
        b.limit(frame + FrameAuthenticator.TAG_BYTES).position(0);
    }

    // ---- receiving (the progress owner) -------------------------------------------------------------

    /**
     * Whether the frame at {@code [0, frameLength)} of {@code b} carries the peer's tag right after it.
     * Owner only (see {@link #verifier}).
     */
    boolean authentic(ByteBuffer b, int frameLength) {
        return verifier.verify(b, 0, frameLength);
    }

    /**
     * A frame from this peer that passed {@link UdpFrameDescriptor#check} and {@link #authentic}, at
     * {@code [0, length)} of {@code b} (its tag excluded).
     */
    void onDatagram(ByteBuffer b, int length, long now) {
        if (ended) {
            counters.afterEnd.incrementAndGet();
            return;
        }
        byte type = UdpFrameDescriptor.type(b);
        int seq = UdpFrameDescriptor.seq(b);
        if (type != UdpFrameDescriptor.TYPE_ACK && inbound.outOfWindow(seq)) {
            counters.outOfWindow.incrementAndGet(); // dropped before its acks are believed
            return;
        }
        synchronized (this) {
            int extra = type == UdpFrameDescriptor.TYPE_ACK ? UdpFrameDescriptor.extra(b) : 0;
            if (sendWindow.onAck(UdpFrameDescriptor.ack(b), UdpFrameDescriptor.sack(b), b,
                    UdpFrameDescriptor.HEADER_LENGTH, extra, now, ackOutcome) == SendWindow.INVALID) {
                counters.badAck.incrementAndGet();
                return;
            }
            lastHeardAt = now;
            sendWindow.limit(UdpFrameDescriptor.window(b));
            if (ackOutcome.rttSampleNanos >= 0) {
                rtt.sample(ackOutcome.rttSampleNanos);
            }
            if (ackOutcome.advanced) {
                // RFC 6298 5.3: restart the timer when new data is acknowledged.
                rtoDue = sendWindow.isEmpty() ? NONE : now + rtt.rtoNanos();
            }
            if (ackOutcome.newlyAcked > 0) {
                sendWindow.detectLosses(now, rtt.srttNanos(), reorderAllowance());
                lossCheckDue = sendWindow.nextLossCheck();
            }
            pump(now);
        }
        completeAcknowledged();
        if (type == UdpFrameDescriptor.TYPE_ACK) {
            return;
        }
        int r = inbound.accept(seq, b, length);
        if (r == InboundSequencer.BROKEN) {
            lost(inbound.failure());
            return;
        }
        synchronized (this) {
            publishedAck = inbound.ack();
            publishedSack = inbound.sackBits();
            if (r == InboundSequencer.DUPLICATE) {
                ackTracker.urgent(); // our ack was probably lost: repeat it
            } else {
                // A gap (an early frame) or the goodbye: the peer should hear of it now.
                ackTracker.arrived(now, r == InboundSequencer.EARLY || inbound.byeJustReceived());
            }
        }
        transport.touched(this);
    }

    /** Tells the senders of fully acknowledged messages; outside the monitor. Owner only. */
    private void completeAcknowledged() {
        SendWindow.AckOutcome o = ackOutcome;
        for (int i = 0; i < o.completedCount; i++) {
            OutboundMessage m = o.completed[i];
            if (m.copiedBytes > 0) {
                transport.releaseOverflow(m.copiedBytes);
            }
            SendCompletion c = m.completion;
            if (c != null) {
                m.completion = null;
                c.sent();
            }
        }
        o.reset();
    }

    /** The owner is about to block: an ack that waits for data to ride on would wait for nothing. Owner. */
    void flushDelayedAck(long now) {
        synchronized (this) {
            if (!ended && ackTracker.dueAt(now) != AckTracker.NONE) {
                sendAck(now);
            }
        }
    }

    /** After a batch of datagrams: send the ACK the peer needs now, or arm the delayed-ack timer. Owner. */
    void afterBatch(long now) {
        long due = NONE;
        boolean byeArrived;
        synchronized (this) {
            if (ended) {
                return;
            }
            byeArrived = inbound.takeByeJustReceived();
            if (byeArrived) {
                // The goodbye's ack is the last word the peer waits for: say it twice against loss.
                sendAck(now);
                sendAck(now);
            } else {
                if (ackTracker.isUrgent()) {
                    sendAck(now);
                    int missing = inbound.missing();
                    if (missing > 0) {
                        Profiling.nack(UdpTransport.NAME, peer, missing); // its selective map names the gaps
                    }
                }
                due = ackTracker.dueAt(now);
                if (lingerDue == NONE && finishing()) {
                    due = now; // start resending our goodbye without waiting for its retransmission timer
                }
            }
        }
        if (byeArrived) {
            // Outside the lock: the engine fails the receives that wait for this peer.
            sink.peerClosed(peer); // delivered in sequence: everything the peer sent is in
        } else if (due != NONE) {
            transport.armTimer(due);
        }
    }

    /**
     * This process did not run for {@code pauseNanos} ({@link io.cohort.idle.LocalPause}): the peer's silence over
     * that time is not held against it, so the inactivity time-out starts again from where it was.
     * Owner only.
     */
    void forgivePause(long pauseNanos, long now) {
        long moved = lastHeardAt + pauseNanos;
        lastHeardAt = moved - now > 0 ? now : moved;
    }

    /**
     * Timers: inactivity, retransmission, loss re-check, delayed ack, keepalive, goodbye linger.
     * Owner only. Returns when it wants to be called again ({@link Long#MAX_VALUE}: never).
     */
    long onTimer(long now) {
        if (ended) {
            return NONE;
        }
        if (now - lastHeardAt >= settings.inactivityTimeoutNanos()) {
            lost(peerName + " sent nothing for " + settings.inactivityTimeoutNanos() / 1_000_000 + " ms"
                    + " (UDP inactivity time-out, " + UdpSettings.INACTIVITY_TIMEOUT_MILLIS_PROP_NAME
                    + "); it is presumed dead or unreachable");
            return NONE;
        }
        synchronized (this) {
            if (ended) {
                return NONE;
            }
            if (rtoDue != NONE && now - rtoDue >= 0) {
                if (sendWindow.isEmpty()) {
                    rtoDue = NONE;
                } else {
                    counters.timeouts.incrementAndGet();
                    // Every frame that has outlived the time-out is presumed lost (the base always has).
                    sendWindow.resendSentBefore(now - rtt.rtoNanos());
                    sendWindow.resend(sendWindow.base());
                    rtt.backoff();
                    rtoDue = now + rtt.rtoNanos();
                }
            }
            if (lossCheckDue != NONE && now - lossCheckDue >= 0) {
                sendWindow.detectLosses(now, rtt.srttNanos(), reorderAllowance());
                lossCheckDue = sendWindow.nextLossCheck();
            }
            pump(now);
            if (ackTracker.due(now) || now - lastSentAt >= settings.keepaliveNanos()) {
                sendAck(now); // a delayed ack, or the keepalive of an idle pair
            }
            long byeResendDue = NONE;
            if (finishing()) {
                // Only our goodbye's ack is missing, and the peer may be waiting for the goodbye: resend it
                // steadily, without backoff (close time, one small frame), until acked or the linger ends.
                if (lingerDue == NONE) {
                    lingerDue = now + LINGER_NANOS;
                }
                long every = Math.max(1_000_000L, 2 * rtt.srttNanos());
                long last = sendWindow.lastSent(sendWindow.base());
                if (now - last >= every && sendWindow.resend(sendWindow.base())) {
                    pump(now);
                    last = now;
                }
                byeResendDue = last + every;
            }
            long due = earlier(rtoDue, lossCheckDue);
            due = earlier(due, ackTracker.dueAt(now));
            due = earlier(due, lastSentAt + settings.keepaliveNanos());
            due = earlier(due, lastHeardAt + settings.inactivityTimeoutNanos());
            due = earlier(due, lingerDue);
            due = earlier(due, byeResendDue);
            if (sendWindow.dueCount() > 0) {
                due = earlier(due, now + 100_000); // the socket refused: try again soon
            }
            return due;
        }
    }

    /** How long a frame may trail a later one before it counts as lost: a quarter round trip, at least 50 µs. */
    private long reorderAllowance() {
        return Math.max(50_000, rtt.srttNanos() / 4);
    }

    /**
     * Everything is done but the ack of our goodbye: the peer's goodbye is in, every message of ours is
     * acknowledged. Holds the monitor.
     */
    private boolean finishing() {
        return inbound.byeReceived() && overflow.isEmpty() && sendWindow.inFlight() == 1
                && sendWindow.message(sendWindow.base()).type == UdpFrameDescriptor.TYPE_BYE;
    }

    static long earlier(long a, long b) {
        if (a == NONE) {
            return b;
        }
        if (b == NONE) {
            return a;
        }
        return a - b < 0 ? a : b;
    }

    // ---- ending -------------------------------------------------------------------------------------

    /** True once this pair may be closed without losing anything. Any thread. */
    boolean closeComplete(long now) {
        if (ended) {
            return true;
        }
        if (!inbound.byeReceived()) {
            return false;
        }
        synchronized (this) {
            if (!overflow.isEmpty()) {
                return false;
            }
            if (sendWindow.isEmpty()) {
                return true; // our goodbye and everything before it are acknowledged
            }
            return lingerDue != NONE && now - lingerDue >= 0;
        }
    }

    boolean byeReceived() {
        return inbound.byeReceived();
    }

    boolean isEnded() {
        return ended;
    }

    /** The launcher says the peer's process is gone (its datagrams were drained first). Owner. */
    void peerGone(String reason) {
        if (ended) {
            return;
        }
        if (inbound.byeReceived()) {
            endQuietly();
        } else {
            lost(reason);
        }
    }

    /** The peer is gone: fail what waits on it, tell the engine. The first end wins. */
    void lost(String reason) {
        OutboundMessage[] pending;
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            endReason = reason;
            pending = drain();
        }
        PeerFailedException cause = new PeerFailedException(peer, reason);
        for (OutboundMessage m : pending) {
            if (m.copiedBytes > 0) {
                transport.releaseOverflow(m.copiedBytes);
            }
            SendCompletion c = m.completion;
            if (c != null) {
                m.completion = null;
                c.failed(cause);
            }
        }
        sink.peerFailed(peer, reason);
    }

    /** A normal end after the goodbyes. */
    void endQuietly() {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            drain();
        }
    }

    private OutboundMessage[] drain() {
        OutboundMessage[] inWindow = sendWindow.clear();
        OutboundMessage[] all = java.util.Arrays.copyOf(inWindow, inWindow.length + overflow.size());
        int n = inWindow.length;
        for (OutboundMessage m : overflow) {
            if (n == 0 || all[n - 1] != m) {
                all[n++] = m;
            }
        }
        overflow.clear();
        return java.util.Arrays.copyOf(all, n);
    }

    /** For tests and diagnosis. */
    synchronized String describe() {
        return peerName + ": window " + sendWindow.inFlight() + "/" + sendWindow.limit() + " in flight, " + overflow.size()
                + " queued, rto " + rtt.rtoNanos() / 1000 + " us, srtt " + rtt.srttNanos() / 1000 + " us, held "
                + inbound.held() + ", bye " + (byeQueued ? "sent" : "-") + "/" + (inbound.byeReceived() ? "received" : "-")
                + (ended ? ", ended" : "");
    }
}

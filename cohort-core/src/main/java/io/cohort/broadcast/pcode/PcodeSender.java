package io.cohort.broadcast.pcode;

import io.cohort.auth.FrameAuthenticator;
import io.cohort.profile.Profiling;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Iterator;

import static io.cohort.broadcast.pcode.BcastHeaderDescriptor.*;
import static io.cohort.DomainCounters.Counter.*;

/**
 * Builds and sends frames: DATA (the paper's {@code communicate}, figure 4), NACKs
 * ({@code IssueNack}, figure 5, in three kinds), STATUS, and retransmissions from the sent buffers.
 * Broadcast frames go to the group (one datagram reaches every peer); point-to-point DATA, the
 * unicast NACKs and every retransmission go to one peer's address (5.6).
 *
 * <p>Every frame leaves with its tag ({@link PcodeDomain#auth}) after its last byte. A send the
 * socket refuses (its buffer is full) counts as a loss: the frame is in the sent buffer and a NACK
 * brings it back. Runs under the domain's lock, which is also what lets the domain's one
 * {@link FrameAuthenticator} serve every send and receive.
 */
final class PcodeSender {
    private final PcodeDomain d;
    private final ByteBuffer control;

    PcodeSender(PcodeDomain domain) {
        this.d = domain;
        this.control = ByteBuffer.allocate(domain.ctx.datagramBytes).order(ByteOrder.LITTLE_ENDIAN); // a frame and its tag
    }

    /** Sends one fragment of a multicast and keeps it for retransmission; the caller checked room and flow. */
    void sendData(ByteBuffer message, int offset, int n, int length, long position, long[] targets, boolean p2p, int dest) {
        int payload = DataFrameDescriptor.payloadOffset(d.size);
        byte[] bytes = new byte[payload + n + FrameAuthenticator.TAG_BYTES];
        ByteBuffer f = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long g;
        long pc;
        if (p2p) {
            g = d.globalCounter.value(); // non-original: a unicast frame is not seen by all
            pc = ++d.p2pSentCount[dest];
        } else {
            g = d.globalCounter.next();
            pc = d.pcv.advance(d.self);
        }
        write(f, TYPE_DATA, p2p ? FLAG_P2P : 0, g);
        DataFrameDescriptor.write(f, pc, position, length, offset, n, targets);
        message.get(message.position() + offset, bytes, payload, n);
        d.auth.sign(f, 0, payload + n); // signed once, kept signed in the sent buffer
        if (p2p) {
            d.p2pSent[dest].add(new SentMessageBuffer.SentFrame(pc, g, bytes));
            d.endpoints.unicast.send(ByteBuffer.wrap(bytes), d.endpoints.peers[dest]);
        } else {
            d.sent.add(new SentMessageBuffer.SentFrame(pc, g, bytes));
            d.endpoints.unicast.send(ByteBuffer.wrap(bytes), d.endpoints.broadcastTarget);
            d.timers.sentOriginal();
        }
        d.counters.increment(DATA_SENT);
    }

    /** Answers a validated NACK from {@code from}: resends the frames it misses, at most a burst. */
    void resend(ByteBuffer nack, int from) {
        int kind = NackFrameDescriptor.kind(nack);
        boolean p2p = (flags(nack) & FLAG_P2P) != 0;
        SentMessageBuffer buffer = p2p ? d.p2pSent[from] : d.sent;
        long after;
        long upTo;
        long gcFrom = Long.MIN_VALUE;
        long gcTo = Long.MAX_VALUE;
        if (kind == NackFrameDescriptor.KIND_GLOBAL_GAP) {
            if (p2p) {
                return;
            }
            after = NackFrameDescriptor.pcv(nack, d.self);
            upTo = Long.MAX_VALUE;
            gcFrom = NackFrameDescriptor.from(nack);
            gcTo = NackFrameDescriptor.to(nack);
        } else {
            if (NackFrameDescriptor.about(nack) != d.self) {
                return;
            }
            after = NackFrameDescriptor.lastReceived(nack);
            upTo = NackFrameDescriptor.to(nack);
        }
        SocketAddress to = d.endpoints.peers[from];
        long now = System.nanoTime();
        int sent = 0;
        for (Iterator<SentMessageBuffer.SentFrame> it = buffer.iterator(); it.hasNext() && sent < d.ctx.resendBurst; ) {
            SentMessageBuffer.SentFrame f = it.next();
            if (f.personalCount <= after || f.globalCounter < gcFrom || f.globalCounter > gcTo) {
                continue;
            }
            if (f.personalCount > upTo) {
                break;
            }
            if (!f.mayResendTo(from, d.size, now, d.ctx.resendHoldNanos)) {
                d.counters.increment(RESENDS_HELD);
                continue;
            }
            ByteBuffer copy = ByteBuffer.wrap(f.bytes.clone()).order(ByteOrder.LITTLE_ENDIAN);
            flags(copy, flags(copy) | FLAG_RESEND);
            d.auth.sign(copy, 0, copy.capacity() - FrameAuthenticator.TAG_BYTES); // the flag changed a signed byte
            d.endpoints.unicast.send(copy, to);
            Profiling.retransmission(PcodeDomain.TRANSPORT_NAME, from, f.personalCount, f.bytes.length);
            sent++;
        }
        d.counters.add(RETRANSMISSIONS, sent);
    }

    /** A REQUEST or PERSONAL_GAP NACK, by unicast to {@code about} (5.6). */
    void sendPersonalNack(int kind, int about, boolean p2p, long lastReceived, long upTo) {
        write(control, TYPE_NACK, p2p ? FLAG_P2P : 0, d.globalCounter.value());
        NackFrameDescriptor.write(control, kind, about, lastReceived, 0, upTo);
        send(NackFrameDescriptor.LENGTH, d.endpoints.peers[about]);
        d.counters.increment(kind == NackFrameDescriptor.KIND_REQUEST ? REQUEST_NACKS_SENT : PERSONAL_NACKS_SENT);
        // A request with nothing early asks for "whatever comes next": one frame, at least.
        Profiling.nack(PcodeDomain.TRANSPORT_NAME, about, upTo == Long.MAX_VALUE ? 1 : Math.max(1, upTo - lastReceived));
    }

    /** A GLOBAL_GAP NACK, broadcast: whoever stamped a missing counter resends (5.3). */
    void sendGlobalNack(long from, long to) {
        write(control, TYPE_NACK, 0, d.globalCounter.value());
        NackFrameDescriptor.write(control, NackFrameDescriptor.KIND_GLOBAL_GAP, -1, 0, from, to);
        long[] v = d.pcv.view();
        for (int i = 0; i < d.size; i++) {
            control.putLong(NackFrameDescriptor.PCV_OFFSET + 8 * i, v[i]);
        }
        send(NackFrameDescriptor.length(NackFrameDescriptor.KIND_GLOBAL_GAP, d.size), d.endpoints.broadcastTarget);
        d.counters.increment(GLOBAL_NACKS_SENT);
        Profiling.nack(PcodeDomain.TRANSPORT_NAME, -1, to - from + 1);
    }

    /** The augmented STATUS (5.5): what we handled, and our counter as PROGRESS; broadcast. */
    void sendStatus(int flags, long now) {
        if (d.closing) {
            flags |= FLAG_CLOSING; // whoever asks while we linger learns that we need nothing more
        }
        write(control, TYPE_STATUS, flags, d.globalCounter.value());
        StatusFrameDescriptor.write(control, d.pcv.view(), d.p2pReceived.view());
        send(StatusFrameDescriptor.length(d.size), d.endpoints.broadcastTarget);
        d.counters.increment(STATUS_SENT);
        if ((flags & FLAG_PROGRESS_REQUEST) != 0) {
            d.counters.increment(PROGRESS_REQUESTS_SENT);
        }
        d.timers.statusSent(now);
    }

    private void write(ByteBuffer f, int type, int flags, long g) {
        f.clear(); // the control buffer's limit is that of the previous frame
        BcastHeaderDescriptor.write(f, type, flags, d.key, d.self, d.size, g);
    }

    private void send(int length, SocketAddress to) {
        d.auth.sign(control, 0, length);
        control.clear().limit(length + FrameAuthenticator.TAG_BYTES);
        d.endpoints.unicast.send(control, to);
    }
}

package io.cohort.broadcast.pcode;

import io.cohort.auth.FrameAuthenticator;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.cohort.broadcast.pcode.BcastHeaderDescriptor.*;
import static io.cohort.DomainCounters.Counter.*;

/**
 * Handles received frames (the paper's procedure {@code handle}, figure 3, grown by sections 4-5):
 *
 * <ul>
 *   <li>DATA with the next personal count is accepted: a non-target only advances {@code pcv}; a
 *       target also needs its input slot for the sender to take the fragment. A frame that is
 *       early (a gap) or finds the slot full goes to the {@link EarlyMessageBuffer}; a gap arms a
 *       PERSONAL_GAP NACK. Its original global counter feeds the {@link GlobalCounter}, whose gaps
 *       arm a GLOBAL_GAP NACK (5.3).</li>
 *   <li>NACK: resend what the NACK's sender misses ({@link PcodeSender#resend}).</li>
 *   <li>STATUS: what its sender handled lets us discard sent frames (P1), its counter is PROGRESS
 *       for the gcv (5.2), and a PROGRESS request makes us answer with our own STATUS.</li>
 * </ul>
 *
 * Runs under the domain's lock; never throws on any input ({@link FrameValidator} ran first).
 */
final class PcodeReceiver {
    private final PcodeDomain d;
    private final FrameValidator validator;
    private final int payloadOffset;

    PcodeReceiver(PcodeDomain domain, FrameValidator validator) {
        this.d = domain;
        this.validator = validator;
        this.payloadOffset = DataFrameDescriptor.payloadOffset(domain.size);
    }

    /** A datagram of {@code datagram} bytes at index 0 of {@code b}: a frame and its tag. */
    void onDatagram(ByteBuffer b, int datagram, long now) {
        if (validator.check(b, datagram) != FrameValidator.VALID) {
            return;
        }
        int length = datagram - FrameAuthenticator.TAG_BYTES; // the frame, without its checked tag
        int from = sender(b);
        long g = globalCounter(b);
        if (type(b) != TYPE_NACK) {
            d.lastArrivalNanos = now; // NACKs do not count: they want answers, not our presence
        }
        d.flow.observe(from, g);
        switch (type(b)) {
            case TYPE_DATA:
                onData(b, length, from, g, now);
                break;
            case TYPE_NACK:
                noteNonOriginal(g, now);
                d.counters.increment(NACKS_RECEIVED);
                d.sender.resend(b, from);
                break;
            default:
                noteNonOriginal(g, now);
                onStatus(b, from, now);
                break;
        }
    }

    private void noteNonOriginal(long g, long now) {
        if (d.globalCounter.onNonOriginal(g)) {
            d.timers.globalGap(now);
        }
    }

    private void onData(ByteBuffer b, int length, int from, long g, long now) {
        d.counters.increment(DATA_RECEIVED);
        boolean p2p = (flags(b) & FLAG_P2P) != 0;
        if (p2p) {
            noteNonOriginal(g, now); // point-to-point frames are not seen by all, so they originate nothing
        } else if (d.globalCounter.onOriginal(g)) {
            d.timers.globalGap(now);
        }
        int stream = p2p ? d.size + from : from;
        PersonalCounterVector v = p2p ? d.p2pReceived : d.pcv;
        long pc = DataFrameDescriptor.personalCount(b);
        if (pc > d.highestSeen[stream]) {
            d.highestSeen[stream] = pc;
        }
        d.pacing.arrived(stream, pc, (flags(b) & FLAG_RESEND) != 0, now);
        if (pc <= v.get(from)) {
            d.counters.increment(DUPLICATES);
            return;
        }
        if (pc == v.expected(from) && accept(b, stream)) {
            v.advance(from);
            d.counters.increment(DATA_ACCEPTED);
            d.timers.handled();
            drainEarly(stream, now);
            return;
        }
        // Too early (a gap) or the slot is still full: keep a copy if there is room (5.4).
        byte[] copy = new byte[length];
        b.get(0, copy, 0, length);
        if (d.early.put(stream, pc, copy)) {
            d.counters.increment(EARLY_KEPT);
        } else {
            d.counters.increment(EARLY_IGNORED);
        }
        if (pc > v.expected(from)) {
            d.timers.personalGap(stream, now);
        }
    }

    /** Takes the frame into the sender's slot if this peer is a target; false if the slot cannot take it. */
    private boolean accept(ByteBuffer b, int stream) {
        long[] targets = new long[DataFrameDescriptor.targetWords(d.size)];
        for (int w = 0; w < targets.length; w++) {
            targets[w] = DataFrameDescriptor.targetWord(b, w);
        }
        if (!TargetSet.contains(targets, d.self)) {
            return true; // a non-target only counts it, so its pcv stays consecutive
        }
        InputSlot slot = d.slots[stream];
        if (!slot.accepts(DataFrameDescriptor.fragmentOffset(b), DataFrameDescriptor.messageLength(b),
                DataFrameDescriptor.position(b))) {
            return false;
        }
        slot.put(b, payloadOffset, targets);
        return true;
    }

    /** Accepts frames of {@code stream} waiting in the early buffer for as long as they are next in line. */
    void drainEarly(int stream, long now) {
        int from = stream < d.size ? stream : stream - d.size;
        PersonalCounterVector v = stream < d.size ? d.pcv : d.p2pReceived;
        byte[] f;
        while ((f = d.early.peek(stream, v.expected(from))) != null) {
            ByteBuffer fb = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
            if (!accept(fb, stream)) {
                break;
            }
            d.early.remove(stream, v.expected(from));
            v.advance(from);
            d.counters.increment(DATA_ACCEPTED);
            d.timers.handled();
        }
        d.early.dropThrough(stream, v.get(from));
    }

    /** Whether frames of {@code stream} are missing: seen beyond what was handled, and the next one is not here. */
    boolean hasGap(int stream) {
        int from = stream < d.size ? stream : stream - d.size;
        PersonalCounterVector v = stream < d.size ? d.pcv : d.p2pReceived;
        return d.highestSeen[stream] > v.get(from) && d.early.peek(stream, v.expected(from)) == null;
    }

    private void onStatus(ByteBuffer b, int from, long now) {
        d.counters.increment(STATUS_RECEIVED);
        int f = flags(b);
        if ((f & FLAG_CLOSING) != 0) {
            // Its program has ended: it needs none of our frames and sends no more of its own.
            d.status.closed(from, now);
            d.flow.observe(from, Long.MAX_VALUE);
        } else {
            d.status.update(from, StatusFrameDescriptor.pcv(b, d.self), StatusFrameDescriptor.p2p(b, d.size, d.self), now);
        }
        // What it told us about its own sending reveals gaps without waiting for its next DATA.
        long itsBroadcast = StatusFrameDescriptor.pcv(b, from);
        if (itsBroadcast > d.highestSeen[from]) {
            d.highestSeen[from] = itsBroadcast;
            if (hasGap(from)) {
                d.timers.personalGap(from, now);
            }
        }
        d.sent.discardThrough(d.status.handledByAll());
        d.p2pSent[from].discardThrough(d.status.p2pHandled(from));
        if ((f & FLAG_PROGRESS_REQUEST) != 0) {
            d.timers.progressRequested();
        }
    }
}

package io.cohort.broadcast.eqa;

import java.nio.ByteBuffer;

/**
 * A receiver's end of one sender's broadcast stream (the paper's receive-only DP): the next
 * expected sequence number, the message being assembled, and when to acknowledge. Go-back-N: a
 * packet is accepted only in order; one after a gap is dropped and answered with a GAP ACK (at
 * most once per gap hold), so the sender resends from the gap; an old one is a duplicate.
 *
 * <pre>
 *   onData ─┬─ seq &lt; expected ─► duplicate ─► ACK if the sender asked (ACK_REQUEST / PUSH_END)
 *           ├─ seq &gt; expected ─► dropped ───► GAP ACK(expected), held back for gapHold
 *           └─ seq = expected ─► copy payload, expected++ ─► message complete? deliver
 *                                 └─► ACK every ackEvery packets, at a message's end, or on request;
 *                                     PULL instead when this is the designated receiver's PUSH_END
 * </pre>
 *
 * <p>Threads: the peer's owner thread only.
 */
final class ReceiveChannel {
    /** Bits of what {@link #onData} asks the peer to do. */
    static final int NOTHING = 0;
    static final int SEND_ACK = 1;
    static final int SEND_GAP_ACK = 2;
    static final int SEND_PULL = 4;
    static final int DELIVER = 8;
    static final int REJECT = 16;

    private final int self;
    private final int ackEvery;
    private final long gapHoldNanos;
    private long expected;
    private int sinceAck;
    private long lastGapFor = -1;
    private long lastGapAt;
    private long pullMessage = -1;
    /** When an old packet was last answered with an ACK or PULL, or {@link #NEVER}. */
    private long dupRepliedAt = NEVER;
    private static final long NEVER = Long.MIN_VALUE;

    private byte[] assembling;
    private long assemblingMessage = -1;
    private int assembled;
    private byte[] completed;
    private long completedMessage;
    private long peakBytes;

    ReceiveChannel(int self, int ackEvery, long gapHoldNanos) {
        this.self = self;
        this.ackEvery = ackEvery;
        this.gapHoldNanos = gapHoldNanos;
    }

    /** Handles a validated DATA frame in {@code b}; returns a mask of the actions above. */
    int onData(ByteBuffer b, long now) {
        long seq = DataFrameDescriptor.sequence(b);
        int flags = EqaHeaderDescriptor.flags(b);
        boolean pushEndForMe = (flags & EqaHeaderDescriptor.FLAG_PUSH_END) != 0
                && DataFrameDescriptor.designated(b) == self;
        if (seq < expected) {
            int reply = pushEndForMe ? SEND_PULL // our PULL was lost: the sender nudged us with the push again
                    : (flags & EqaHeaderDescriptor.FLAG_ACK_REQUEST) != 0 ? SEND_ACK : NOTHING;
            if (reply == NOTHING) {
                return REJECT;
            }
            // At most one answer to old packets per gap hold: a replayed old frame (signed, so it
            // verifies) must not buy an ACK or PULL each. The sender's nudges and timeout resends
            // come every retransmit timeout, longer than the hold, so every real one is answered.
            if (dupRepliedAt != NEVER && now - dupRepliedAt < gapHoldNanos) {
                return REJECT;
            }
            dupRepliedAt = now;
            if (pushEndForMe) {
                pullMessage = DataFrameDescriptor.message(b);
            }
            return reply | REJECT;
        }
        if (seq > expected) {
            if (expected != lastGapFor || now - lastGapAt >= gapHoldNanos) {
                lastGapFor = expected;
                lastGapAt = now;
                return SEND_GAP_ACK | REJECT;
            }
            return REJECT;
        }
        long message = DataFrameDescriptor.message(b);
        int total = DataFrameDescriptor.messageLength(b);
        int offset = DataFrameDescriptor.fragmentOffset(b);
        int length = DataFrameDescriptor.fragmentLength(b);
        if (offset == 0) {
            assembling = new byte[total];
            assemblingMessage = message;
            assembled = 0;
        } else if (message != assemblingMessage || offset != assembled || total != assembling.length) {
            return REJECT | ACK_MALFORMED; // a well-keyed sender broke its own stream: drop, do not advance
        }
        b.get(DataFrameDescriptor.PAYLOAD_OFFSET, assembling, offset, length);
        assembled += length;
        expected++;
        sinceAck++;
        peakBytes = Math.max(peakBytes, assembling.length);
        int actions = NOTHING;
        if (assembled == total) {
            completed = assembling;
            completedMessage = message;
            assembling = null;
            assemblingMessage = -1;
            actions |= DELIVER | SEND_ACK;
        }
        if (pushEndForMe) {
            pullMessage = message;
            actions |= SEND_PULL;
            actions &= ~SEND_ACK; // the PULL acknowledges too
        } else if (sinceAck >= ackEvery || (flags & EqaHeaderDescriptor.FLAG_ACK_REQUEST) != 0) {
            actions |= SEND_ACK;
        }
        if ((actions & (SEND_ACK | SEND_PULL)) != 0) {
            sinceAck = 0;
        }
        return actions;
    }

    /** Marks a frame that was in order but did not continue the message it claimed to. */
    static final int ACK_MALFORMED = 32;

    /** The first sequence number not yet received: what an ACK carries. */
    long expected() {
        return expected;
    }

    /** The message a PULL should name (the last PUSH_END this receiver was designated for). */
    long pullMessage() {
        return pullMessage;
    }

    /** The message just completed (after {@link #DELIVER}); hands it over once. */
    byte[] takeCompleted() {
        byte[] m = completed;
        completed = null;
        return m;
    }

    long completedMessage() {
        return completedMessage;
    }

    /** Bytes this channel holds now: the message under assembly (the paper's pushed buffer) and its state. */
    long bytesHeld() {
        return STATE_BYTES + (assembling == null ? 0 : assembling.length);
    }

    /** The most {@link #bytesHeld()} ever was. */
    long peakBytesHeld() {
        return STATE_BYTES + peakBytes;
    }

    /** Counters and sequence numbers of a channel, by field size. */
    static final int STATE_BYTES = 64;
}

package io.cohort.transport.udp;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The send side of one pair's sliding window: the frames sent and not yet acknowledged, each
 * remembered (message, offset, length) until the peer has it, so that exactly what was lost is sent
 * again (selective repeat, not go-back-N).
 *
 * <pre>
 *        base                      sentUpTo              next            base + limit
 *   ──────┼─────────────────────────────┼─────────────────────┼──────────────────┼─────
 *   acked │ in flight: sent, waiting;   │ cut, never sent yet │ room left in the │
 *         │ some selectively acked (S), │ (the socket was     │ window           │
 *         │ some due again (R)          │ full)               │                  │
 * </pre>
 *
 * <ul>
 *   <li>Acks: a cumulative number (every frame below it arrived) plus a bit map of frames above it
 *       that arrived ({@link #onAck}). An ack for a frame never sent is invalid: the whole datagram
 *       is dropped.</li>
 *   <li>Loss (RACK-style, {@link #detectLosses}): a frame is lost when one sent after it has been
 *       acknowledged and a round trip plus a reordering allowance has passed since it was sent.
 *       The retransmission timer covers the tail, where nothing later can be acknowledged.</li>
 *   <li>A slot is a frame: parallel arrays indexed by {@code seq & mask}, no object per frame.</li>
 * </ul>
 *
 * <p>Threads: guarded by the pair's lock (sending threads cut and send frames, the owner applies
 * acks and timers).
 */
final class SendWindow {
    static final int OK = 0;
    static final int INVALID = -1;

    private static final byte SACKED = 1;
    private static final byte FIRST = 1 << 1;
    private static final byte LAST = 1 << 2;
    private static final byte DUE = 1 << 3;

    /** What one ack did; reused, read by the caller right after {@link #onAck}. */
    static final class AckOutcome {
        /** Messages whose every frame is now acknowledged, in order. */
        OutboundMessage[] completed = new OutboundMessage[8];
        int completedCount;
        /** Frames newly known to have arrived (cumulatively or selectively). */
        int newlyAcked;
        /** Whether the cumulative ack moved. */
        boolean advanced;
        /** A round-trip sample (Karn: from a frame sent once), or -1. */
        long rttSampleNanos;

        void reset() {
            Arrays.fill(completed, 0, completedCount, null);
            completedCount = 0;
            newlyAcked = 0;
            advanced = false;
            rttSampleNanos = -1;
        }

        void complete(OutboundMessage m) {
            if (completedCount == completed.length) {
                completed = Arrays.copyOf(completed, completedCount * 2);
            }
            completed[completedCount++] = m;
        }
    }

    private final int capacity;
    private final int mask;
    private final OutboundMessage[] messages;
    private final int[] offsets;
    private final int[] lengths;
    private final byte[] flags;
    private final long[] sentAt;
    private final int[] transmissions;
    private int base;
    private int sentUpTo;
    private int next;
    private int limit;
    private long bytesInFlight;
    private long byteLimit = Long.MAX_VALUE;
    private int due;
    private boolean deliveredAny;
    /** Send time and number of the most recently sent frame known to have arrived (RACK's reference). */
    private long newestDeliveredSentAt;
    private int newestDeliveredSeq;

    /** {@code capacity}: the most frames ever in flight; a power of two. */
    SendWindow(int capacity) {
        this(capacity, 0);
    }

    /** Starting at sequence number {@code first} (the protocol starts at 0; tests start near the wrap). */
    SendWindow(int capacity, int first) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.messages = new OutboundMessage[capacity];
        this.offsets = new int[capacity];
        this.lengths = new int[capacity];
        this.flags = new byte[capacity];
        this.sentAt = new long[capacity];
        this.transmissions = new int[capacity];
        this.limit = capacity;
        this.base = first;
        this.sentUpTo = first;
        this.next = first;
    }

    /** The peer's advertised window caps how far beyond the ack we may go. */
    void limit(int peerWindow) {
        this.limit = Math.max(1, Math.min(capacity, peerWindow));
    }

    int limit() {
        return limit;
    }

    /** Caps the bytes of frames in flight (header included); at least one frame may always go. */
    void byteLimit(long bytes) {
        this.byteLimit = bytes;
    }

    long bytesInFlight() {
        return bytesInFlight;
    }

    boolean hasRoom() {
        return next - base < limit && (bytesInFlight < byteLimit || next == base);
    }

    boolean isEmpty() {
        return next == base;
    }

    int inFlight() {
        return next - base;
    }

    int base() {
        return base;
    }

    int next() {
        return next;
    }

    /** Adds a frame (due to be sent) and returns its sequence number. Only while {@link #hasRoom()}. */
    int add(OutboundMessage m, int offset, int length, boolean first, boolean last) {
        int seq = next++;
        int i = seq & mask;
        messages[i] = m;
        offsets[i] = offset;
        lengths[i] = length;
        flags[i] = (byte) (DUE | (first ? FIRST : 0) | (last ? LAST : 0));
        transmissions[i] = 0;
        due++;
        bytesInFlight += length + UdpFrameDescriptor.FIRST_HEADER_LENGTH;
        return seq;
    }

    OutboundMessage message(int seq) {
        return messages[seq & mask];
    }

    int offset(int seq) {
        return offsets[seq & mask];
    }

    int length(int seq) {
        return lengths[seq & mask];
    }

    boolean isFirst(int seq) {
        return (flags[seq & mask] & FIRST) != 0;
    }

    int transmissions(int seq) {
        return transmissions[seq & mask];
    }

    /** When frame {@code seq} was last sent. */
    long lastSent(int seq) {
        return sentAt[seq & mask];
    }

    /** Frames waiting to be sent (new ones the socket refused, and retransmissions). */
    int dueCount() {
        return due;
    }

    /** Whether frame {@code seq} (in the window) waits to be sent. */
    boolean isDue(int seq) {
        return (flags[seq & mask] & DUE) != 0;
    }

    /** The frame went out now. */
    void sent(int seq, long now) {
        int i = seq & mask;
        if ((flags[i] & DUE) != 0) {
            flags[i] &= ~DUE;
            due--;
        }
        sentAt[i] = now;
        transmissions[i]++;
        if (seq - sentUpTo >= 0) {
            sentUpTo = seq + 1; // frames go out for the first time in order
        }
    }

    /** Marks a frame to be sent again. Returns false if it was already due or has arrived. */
    boolean resend(int seq) {
        int i = seq & mask;
        if (seq - base < 0 || seq - sentUpTo >= 0 || (flags[i] & (DUE | SACKED)) != 0) {
            return false;
        }
        flags[i] |= DUE;
        due++;
        return true;
    }

    /**
     * The retransmission timer expired: marks as due every frame still unacknowledged that was last
     * sent at or before {@code sentBy} (the frames that have each outlived the time-out), so a burst
     * lost at the tail, where nothing later can reveal it, is recovered in one time-out, not one per
     * frame. Returns how many were marked.
     */
    int resendSentBefore(long sentBy) {
        int marked = 0;
        for (int s = base; s != sentUpTo; s++) {
            int i = s & mask;
            if ((flags[i] & (SACKED | DUE)) == 0 && sentAt[i] - sentBy <= 0) {
                flags[i] |= DUE;
                due++;
                marked++;
            }
        }
        return marked;
    }

    /**
     * Applies the ack fields of a received frame: {@code ack} (all below arrived), the 64-bit map
     * {@code sack} (bit i = ack+1+i) and, for ACK frames, {@code extra} bytes at {@code ext[extAt]}
     * (bit j of byte k = ack+65+8k+j). Returns {@link #INVALID} without changing anything if it
     * acknowledges a frame never sent.
     */
    int onAck(int ack, long sack, ByteBuffer ext, int extAt, int extra, long now, AckOutcome out) {
        out.reset();
        if (ack - sentUpTo > 0) {
            return INVALID;
        }
        if (sack != 0 && (ack + 1 + (63 - Long.numberOfLeadingZeros(sack))) - sentUpTo >= 0) {
            return INVALID;
        }
        int extHighest = -1;
        for (int k = extra - 1; k >= 0 && extHighest < 0; k--) {
            int b = ext.get(extAt + k) & 0xFF;
            if (b != 0) {
                extHighest = 8 * k + 31 - Integer.numberOfLeadingZeros(b);
            }
        }
        if (extHighest >= 0 && (ack + 1 + UdpFrameDescriptor.SACK_BITS + extHighest) - sentUpTo >= 0) {
            return INVALID;
        }
        long sampleSentAt = 0;
        boolean sampled = false;
        if (ack - base > 0) {
            for (int s = base; s != ack; s++) {
                int i = s & mask;
                if ((flags[i] & SACKED) == 0) {
                    out.newlyAcked++;
                    if (transmissions[i] == 1 && (!sampled || sentAt[i] - sampleSentAt > 0)) {
                        sampleSentAt = sentAt[i];
                        sampled = true;
                    }
                    delivered(s);
                }
                if ((flags[i] & DUE) != 0) {
                    due--;
                }
                if ((flags[i] & LAST) != 0) {
                    out.complete(messages[i]);
                }
                bytesInFlight -= lengths[i] + UdpFrameDescriptor.FIRST_HEADER_LENGTH;
                messages[i] = null;
                flags[i] = 0;
            }
            base = ack;
            out.advanced = true;
        }
        long bits = sack;
        while (bits != 0) {
            int b = Long.numberOfTrailingZeros(bits);
            bits &= bits - 1;
            int s = ack + 1 + b;
            if (s - base >= 0 && markSacked(s)) {
                out.newlyAcked++;
                int i = s & mask;
                if (transmissions[i] == 1 && (!sampled || sentAt[i] - sampleSentAt > 0)) {
                    sampleSentAt = sentAt[i];
                    sampled = true;
                }
            }
        }
        for (int k = 0; k < extra; k++) {
            int byteBits = ext.get(extAt + k) & 0xFF;
            while (byteBits != 0) {
                int j = Integer.numberOfTrailingZeros(byteBits);
                byteBits &= byteBits - 1;
                int s = ack + 1 + UdpFrameDescriptor.SACK_BITS + 8 * k + j;
                if (s - base >= 0 && markSacked(s)) {
                    out.newlyAcked++;
                    int i = s & mask;
                    if (transmissions[i] == 1 && (!sampled || sentAt[i] - sampleSentAt > 0)) {
                        sampleSentAt = sentAt[i];
                        sampled = true;
                    }
                }
            }
        }
        if (sampled) {
            out.rttSampleNanos = now - sampleSentAt;
        }
        return OK;
    }

    private boolean markSacked(int seq) {
        int i = seq & mask;
        if ((flags[i] & SACKED) != 0) {
            return false;
        }
        flags[i] |= SACKED;
        if ((flags[i] & DUE) != 0) {
            flags[i] &= ~DUE; // it arrived after all: no need to send it again
            due--;
        }
        delivered(seq);
        return true;
    }

    private void delivered(int seq) {
        if (transmissions[seq & mask] != 1) {
            // Karn's rule for the loss reference too: the ack may be for the original, sent long before
            // the retransmission; taking the retransmission's time would condemn frames still on their way.
            return;
        }
        long t = sentAt[seq & mask];
        if (!deliveredAny || sentAfterNewest(t, seq)) {
            newestDeliveredSentAt = t;
            newestDeliveredSeq = seq;
            deliveredAny = true;
        }
    }

    /**
     * Whether a frame sent at {@code t} as number {@code seq} went out after the newest delivered one.
     * Frames of one burst share a clock reading; among them the higher number went out later.
     */
    private boolean sentAfterNewest(long t, int seq) {
        long d = t - newestDeliveredSentAt;
        return d > 0 || (d == 0 && seq - newestDeliveredSeq > 0);
    }

    /**
     * Marks as due the frames that count as lost: sent no later than the newest frame known to have
     * arrived, and unacknowledged for {@code srtt + reorder}. Returns how many were marked; the
     * instant to look again (or {@link Long#MAX_VALUE}) is then in {@link #nextLossCheck()}.
     */
    int detectLosses(long now, long srtt, long reorder) {
        lossCheckAt = Long.MAX_VALUE;
        if (!deliveredAny) {
            return 0;
        }
        int marked = 0;
        long wait = srtt + reorder;
        for (int s = base; s != sentUpTo; s++) {
            int i = s & mask;
            byte f = flags[i];
            if ((f & (SACKED | DUE)) != 0) {
                continue;
            }
            if (s == newestDeliveredSeq && sentAt[i] == newestDeliveredSentAt) {
                continue;
            }
            if (sentAfterNewest(sentAt[i], s)) {
                if (transmissions[i] == 1) {
                    break; // first transmissions go out in order: every later frame was sent later still
                }
                continue; // retransmitted after the newest arrival: not judged yet
            }
            if (now - sentAt[i] >= wait) {
                flags[i] |= DUE;
                due++;
                marked++;
            } else {
                long at = sentAt[i] + wait;
                if (lossCheckAt == Long.MAX_VALUE || at - lossCheckAt < 0) {
                    lossCheckAt = at;
                }
            }
        }
        return marked;
    }

    private long lossCheckAt = Long.MAX_VALUE;

    /** When {@link #detectLosses} should run again for frames still within their allowance. */
    long nextLossCheck() {
        return lossCheckAt;
    }

    /** Drops everything (the peer is gone); returns the messages that were not complete. */
    OutboundMessage[] clear() {
        OutboundMessage[] pending = new OutboundMessage[next - base];
        int n = 0;
        OutboundMessage last = null;
        for (int s = base; s != next; s++) {
            int i = s & mask;
            if (messages[i] != null && messages[i] != last) {
                last = messages[i];
                pending[n++] = last;
            }
            messages[i] = null;
            flags[i] = 0;
        }
        base = next;
        sentUpTo = next;
        due = 0;
        bytesInFlight = 0;
        return Arrays.copyOf(pending, n);
    }
}

package io.cohort.transport.udp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The receive side of one pair's sliding window: which sequence number comes next in order, and
 * a ring of slots holding frames that arrived early, until the gap before them is filled.
 *
 * <pre>
 *        expected                                   expected + window
 *   ──────┼───┬───┬───┬───┬───┬──── ... ─────────────────┼──────
 *   done  │ _ │ F │ _ │ F │ F │                          │ out of window: dropped
 *         gap  held           (F = frame held in a slot, _ = still missing)
 * </pre>
 *
 * A frame with the expected number is delivered straight from the socket buffer (no copy into a
 * slot); a later one within the window is copied into its slot; an earlier one is a duplicate;
 * anything else is out of the window and dropped. A slot's memory is allocated when a frame is held
 * and dropped when it is delivered: out-of-order frames are the exception (loss, reordering), and a
 * ring of 4096 slots must not keep 4096 large datagrams alive.
 *
 * <p>Threads: the progress owner only. What senders need for piggy-backed acks is published by
 * the pair under its lock ({@link #ack()} and {@link #sackBits()} are read at that moment).
 */
final class ReceiveWindow {
    static final int IN_ORDER = 0;
    static final int EARLY = 1;
    static final int DUPLICATE = 2;
    static final int OUT_OF_WINDOW = 3;
    /** How far behind {@code expected} a number still counts as a duplicate rather than absurd. */
    static final int DUPLICATE_HORIZON = 1 << 20;

    private final int window;
    private final int mask;
    private final ByteBuffer[] slots;
    private final int[] lengths;
    private final boolean[] present;
    private int expected;
    private int held;
    private int highest;

    /** {@code window}: frames accepted beyond the expected one (at most 64 + 8 * MAX_EXTRA). */
    ReceiveWindow(int window) {
        this(window, 0);
    }

    /** Expecting sequence number {@code first} (the protocol starts at 0; tests start near the wrap). */
    ReceiveWindow(int window, int first) {
        int max = UdpFrameDescriptor.SACK_BITS + 8 * UdpFrameDescriptor.MAX_EXTRA;
        if (window < 1 || window > max) {
            throw new IllegalArgumentException("window must be 1 to " + max + " frames: " + window);
        }
        this.window = window;
        int capacity = Integer.highestOneBit(window - 1) << 1;
        this.mask = Math.max(1, capacity) - 1;
        this.slots = new ByteBuffer[mask + 1];
        this.lengths = new int[mask + 1];
        this.present = new boolean[mask + 1];
        this.expected = first;
    }

    int window() {
        return window;
    }

    /** The next sequence number in order: every frame below it has arrived (the cumulative ack). */
    int ack() {
        return expected;
    }

    /** Frames held out of order. */
    int held() {
        return held;
    }

    /** Frames missing before the newest held one: the gaps an ack's selective map asks for. */
    int missing() {
        return held == 0 ? 0 : highest - expected + 1 - held;
    }

    int classify(int seq) {
        int d = seq - expected;
        if (d == 0) {
            return IN_ORDER;
        }
        if (d > 0 && d < window) {
            return present[seq & mask] ? DUPLICATE : EARLY;
        }
        if (d < 0 && d >= -DUPLICATE_HORIZON) {
            return DUPLICATE;
        }
        return OUT_OF_WINDOW;
    }

    /** Holds an early frame: copies datagram bytes {@code [0, length)} of {@code from} into its slot. */
    void hold(int seq, ByteBuffer from, int length) {
        int i = seq & mask;
        ByteBuffer slot = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        slot.put(0, from, 0, length);
        slots[i] = slot;
        lengths[i] = length;
        present[i] = true;
        if (held++ == 0 || seq - highest > 0) {
            highest = seq;
        }
    }

    /** The in-order frame has been delivered: move past it. */
    void advance() {
        expected++;
    }

    /** The held frame with the expected number (limit = its length), or null if it has not arrived. */
    ByteBuffer nextHeld() {
        if (held == 0) {
            return null;
        }
        int i = expected & mask;
        return present[i] ? slots[i] : null;
    }

    /** The frame returned by {@link #nextHeld()} has been delivered: free its slot, move past it. */
    void releaseHeld() {
        int i = expected & mask;
        present[i] = false;
        slots[i] = null;
        held--;
        expected++;
    }

    /** Bit i set = frame {@code ack() + 1 + i} is held. */
    long sackBits() {
        if (held == 0) {
            return 0;
        }
        long bits = 0;
        int span = Math.min(UdpFrameDescriptor.SACK_BITS, highest - expected);
        for (int i = 0; i < span; i++) {
            if (present[(expected + 1 + i) & mask]) {
                bits |= 1L << i;
            }
        }
        return bits;
    }

    /** Bytes of extended SACK map needed beyond the 64 header bits (0 when the header covers every held frame). */
    int extraBytes() {
        if (held == 0) {
            return 0;
        }
        int beyond = highest - expected - UdpFrameDescriptor.SACK_BITS;
        return beyond <= 0 ? 0 : (beyond + 7) / 8;
    }

    /** Writes {@link #extraBytes()} bytes of extended SACK map at {@code b}'s position, advancing it. */
    void writeExtra(ByteBuffer b, int bytes) {
        for (int k = 0; k < bytes; k++) {
            int v = 0;
            for (int j = 0; j < 8; j++) {
                int seq = expected + 1 + UdpFrameDescriptor.SACK_BITS + 8 * k + j;
                if (seq - highest <= 0 && present[seq & mask]) {
                    v |= 1 << j;
                }
            }
            b.put((byte) v);
        }
    }
}

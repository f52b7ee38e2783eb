package io.cohort.broadcast.eqa;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * EQA's shared retransmission buffer (the paper's Figure 2): one ring of packet copies (BUF) that
 * the sender fills (HMS: {@link #nextSequence()}), and one small cursor per receiver (the LMS of
 * each lightweight directed point) instead of a buffer per receiver. A packet is stored once
 * whatever the number of receivers, and freed when every cursor has passed it; a cursor costs
 * 8 bytes, so the buffer's memory is constant in N but for those 8 bytes a receiver.
 *
 * <p>The paper's reference count per entry becomes the lowest cursor: go-back-N cursors only move
 * forward, so "every cursor has passed entry s" is "lowest cursor &gt; s", one comparison.
 *
 * <p>Threads: as {@link RetransmissionBuffer}: one owner thread.
 */
public final class SharedRetransmissionBuffer implements RetransmissionBuffer {
    private final byte[][] slots;
    private final long[] cursors;
    private long next;
    private long lowest;
    private long packetBytes;
    private volatile long peak;

    /** A buffer for {@code receivers} cursors and {@code window} packets. */
    public SharedRetransmissionBuffer(int receivers, int window) {
        if (receivers < 1) {
            throw new IllegalArgumentException("a retransmission buffer needs at least 1 receiver, not " + receivers + ".");
        }
        if (window < 1) {
            throw new IllegalArgumentException("a retransmission buffer needs a window of at least 1, not " + window + ".");
        }
        this.slots = new byte[window][];
        this.cursors = new long[receivers];
        this.peak = structureBytes();
    }

    @Override
    public int receivers() {
        return cursors.length;
    }

    @Override
    public int window() {
        return slots.length;
    }

    @Override
    public long nextSequence() {
        return next;
    }

    @Override
    public long lowestCursor() {
        return lowest;
    }

    @Override
    public long cursor(int receiver) {
        return cursors[receiver];
    }

    @Override
    public long store(ByteBuffer packet) {
        if (!hasRoom()) {
            throw new IllegalStateException("the retransmission window of " + slots.length
                    + " packets is full; wait until the lowest cursor (" + lowest + ") moves.");
        }
        byte[] copy = new byte[packet.remaining()];
        packet.get(packet.position(), copy);
        slots[(int) (next % slots.length)] = copy;
        packetBytes += copy.length;
        long held = bytesHeld();
        if (held > peak) {
            peak = held;
        }
        return next++;
    }

    @Override
    public int copy(int receiver, long sequence, ByteBuffer into) {
        if (sequence < cursors[receiver] || sequence >= next) {
            return -1;
        }
        byte[] p = slots[(int) (sequence % slots.length)];
        into.put(p);
        return p.length;
    }

    @Override
    public int acknowledge(int receiver, long ack) {
        long c = cursors[receiver];
        if (ack <= c || ack > next) {
            return -1;
        }
        cursors[receiver] = ack;
        if (c != lowest) {
            return 0; // another cursor still holds the lowest entry
        }
        long min = Long.MAX_VALUE;
        for (long x : cursors) {
            min = Math.min(min, x);
        }
        int freed = 0;
        for (long s = lowest; s < min; s++) {
            int i = (int) (s % slots.length);
            packetBytes -= slots[i].length;
            slots[i] = null;
            freed++;
        }
        lowest = min;
        return freed;
    }

    /** Packets held now. */
    public int packetsHeld() {
        return (int) (next - lowest);
    }

    @Override
    public long bytesHeld() {
        return packetBytes + structureBytes();
    }

    /** The ring's slots and the cursors: what the buffer holds with no packet in it. */
    private long structureBytes() {
        return (long) slots.length * REFERENCE_BYTES + 8L * cursors.length;
    }

    @Override
    public long peakBytesHeld() {
        return peak;
    }

    @Override
    public String toString() {
        return "shared buffer: next " + next + ", cursors " + Arrays.toString(cursors) + ", " + bytesHeld() + " bytes";
    }
}

package io.cohort.broadcast.eqa;

import java.nio.ByteBuffer;

/**
 * The baseline EQA replaces: one retransmission buffer per channel, as when a broadcast is built
 * from N - 1 reliable point-to-point channels (the paper's "P2P"). Every packet is copied into
 * each receiver's buffer, and each buffer frees its copy when its own receiver acknowledges, so
 * memory grows with the number of receivers. Same contract as {@link SharedRetransmissionBuffer},
 * so the same protocol runs over either and the memory report measures both.
 *
 * <p>Threads: as {@link RetransmissionBuffer}: one owner thread.
 */
public final class PerChannelRetransmissionBuffers implements RetransmissionBuffer {
    /** One channel's own ring of copies and its cursor. */
    private static final class Channel {
        final byte[][] slots;
        long cursor;

        Channel(int window) {
            slots = new byte[window][];
        }
    }

    private final Channel[] channels;
    private final int window;
    private long next;
    private long lowest;
    private long packetBytes;
    private volatile long peak;

    /** A buffer per receiver, {@code receivers} of them, each of {@code window} packets. */
    public PerChannelRetransmissionBuffers(int receivers, int window) {
        if (receivers < 1) {
            throw new IllegalArgumentException("a retransmission buffer needs at least 1 receiver, not " + receivers + ".");
        }
        if (window < 1) {
            throw new IllegalArgumentException("a retransmission buffer needs a window of at least 1, not " + window + ".");
        }
        this.window = window;
        this.channels = new Channel[receivers];
        for (int i = 0; i < receivers; i++) {
            channels[i] = new Channel(window);
        }
        this.peak = structureBytes();
    }

    @Override
    public int receivers() {
        return channels.length;
    }

    @Override
    public int window() {
        return window;
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
        return channels[receiver].cursor;
    }

    @Override
    public long store(ByteBuffer packet) {
        if (!hasRoom()) {
            throw new IllegalStateException("the retransmission window of " + window
                    + " packets is full; wait until the lowest cursor (" + lowest + ") moves.");
        }
        int length = packet.remaining();
        int i = (int) (next % window);
        for (Channel c : channels) {
            byte[] copy = new byte[length]; // each channel keeps its own copy, as independent channels do
            packet.get(packet.position(), copy);
            c.slots[i] = copy;
            packetBytes += length;
        }
        long held = bytesHeld();
        if (held > peak) {
            peak = held;
        }
        return next++;
    }

    @Override
    public int copy(int receiver, long sequence, ByteBuffer into) {
        Channel c = channels[receiver];
        if (sequence < c.cursor || sequence >= next) {
            return -1;
        }
        byte[] p = c.slots[(int) (sequence % window)];
        into.put(p);
        return p.length;
    }

    @Override
    public int acknowledge(int receiver, long ack) {
        Channel c = channels[receiver];
        if (ack <= c.cursor || ack > next) {
            return -1;
        }
        for (long s = c.cursor; s < ack; s++) {
            int i = (int) (s % window);
            packetBytes -= c.slots[i].length;
            c.slots[i] = null;
        }
        c.cursor = ack;
        long min = Long.MAX_VALUE;
        for (Channel x : channels) {
            min = Math.min(min, x.cursor);
        }
        int freed = (int) (min - lowest); // entries that no channel holds any more
        lowest = min;
        return freed;
    }

    @Override
    public long bytesHeld() {
        return packetBytes + structureBytes();
    }

    private long structureBytes() {
        return (long) channels.length * (window * (long) REFERENCE_BYTES + 8);
    }

    @Override
    public long peakBytesHeld() {
        return peak;
    }
}

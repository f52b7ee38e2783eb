package io.cohort.collective;

import io.cohort.Request;

import java.nio.ByteBuffer;

/**
 * One collective call's messages: the channel plus a tag base made from the call's sequence
 * number, so that two collectives in flight never match each other's messages. A tag is
 * {@code (sequence mod 2^23) << 8 | phase}: an algorithm has 256 phases (tag values) to keep its own
 * rounds apart, and the sequence wraps only after 8 million collectives, far beyond any that can be
 * in flight at once.
 *
 * <p>Threads: used by the one thread that runs the collective.
 */
final class Exchange {
    static final int PHASES = 256;
    private static final byte[] EMPTY = new byte[0];

    final CollectiveChannel channel;
    final int rank;
    final int size;
    private final int tagBase;
    private final int firstPhase;

    Exchange(CollectiveChannel channel, long sequence) {
        this(channel, (int) ((sequence & 0x7FFFFFL) << 8), 0);
    }

    private Exchange(CollectiveChannel channel, int tagBase, int firstPhase) {
        this.channel = channel;
        this.rank = channel.rank();
        this.size = channel.size();
        this.tagBase = tagBase;
        this.firstPhase = firstPhase;
    }

    /** The same call's messages with phases from {@code first} on: for a collective made of two algorithms. */
    Exchange from(int first) {
        return new Exchange(channel, tagBase, firstPhase + first);
    }

    int tag(int phase) {
        int p = firstPhase + phase;
        if (phase < 0 || p >= PHASES) {
            throw new IllegalStateException("phase " + p + " is outside 0 to " + (PHASES - 1));
        }
        return tagBase | p;
    }

    Request send(int dest, int phase, byte[] payload) {
        return channel.isend(dest, tag(phase), ByteBuffer.wrap(payload));
    }

    Request irecv(int source, int phase) {
        return channel.irecv(source, tag(phase));
    }

    byte[] recv(int source, int phase) {
        Request r = irecv(source, phase);
        r.await();
        return r.message().bytes();
    }

    static byte[] bytes(Request doneReceive) {
        doneReceive.await();
        return doneReceive.message().bytes();
    }

    /** Sends to {@code dest} and receives from {@code source} at once (the receive is posted first). */
    byte[] sendrecv(int dest, byte[] payload, int source, int phase) {
        Request r = irecv(source, phase);
        Request s = send(dest, phase, payload);
        Request.awaitAll(r, s);
        return r.message().bytes();
    }

    static byte[] empty() {
        return EMPTY;
    }
}

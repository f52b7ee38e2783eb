package io.cohort.collective;

import io.cohort.MessageTruncatedException;
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
    /** The collective's number on its communicator, from 0. */
    final long sequence;
    private final int tagBase;
    private final int firstPhase;
    /** The communicator's reusable memory (only the thread running this collective touches it). */
    final Scratch scratch;

    Exchange(CollectiveChannel channel, long sequence, Scratch scratch) {
        this(channel, sequence, (int) ((sequence & 0x7FFFFFL) << 8), 0, scratch);
    }

    private Exchange(CollectiveChannel channel, long sequence, int tagBase, int firstPhase, Scratch scratch) {
        this.channel = channel;
        this.sequence = sequence;
        this.rank = channel.rank();
        this.size = channel.size();
        this.tagBase = tagBase;
        this.firstPhase = firstPhase;
        this.scratch = scratch;
    }

    /** The same call's messages with phases from {@code first} on: for a collective made of two algorithms. */
    Exchange from(int first) {
        return new Exchange(channel, sequence, tagBase, firstPhase + first, scratch);
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

    Request send(int dest, int phase, ByteBuffer payload, int offset, int length) {
        return channel.isend(dest, tag(phase), payload, offset, length);
    }

    Request irecv(int source, int phase, ByteBuffer into, int offset, int capacity) {
        return channel.irecv(source, tag(phase), into, offset, capacity);
    }

    byte[] recv(int source, int phase) {
        Request r = irecv(source, phase);
        r.await();
        return r.message().bytes();
    }

    /**
     * Swaps element ranges with {@code peer}: sends {@code n} elements of {@code work} from
     * {@code off} and writes the {@code count} elements the peer sends into {@code into} from
     * {@code intoOff}. Primitive elements go through the scratch buffers, encoded once and decoded
     * once, with no array made; objects are serialized as ever. {@code what} names the operation
     * in the error a message of the wrong length raises.
     */
    void swapInto(int peer, Object work, int off, int n, Object into, int intoOff, int count, int phase, String what) {
        int w = Buffers.elementBytes(work);
        long sendBytes = (long) n * w;
        long recvBytes = (long) count * w;
        if (w == 0 || Math.max(sendBytes, recvBytes) > Integer.MAX_VALUE) {
            Buffers.decode(sendrecv(peer, Buffers.encode(work, off, n), peer, phase), into, intoOff, count,
                    what + " from rank " + peer);
            return;
        }
        ByteBuffer out = scratch.send((int) sendBytes);
        ByteBuffer in = scratch.recv((int) recvBytes);
        Buffers.encodeInto(work, off, n, out, 0);
        Request r = irecv(peer, phase, in, 0, (int) recvBytes);
        Request s = send(peer, phase, out, 0, (int) sendBytes);
        int got = awaitPair(r, s);
        if (got != recvBytes) {
            throw Buffers.wrongLength(what + " from rank " + peer, got, into, count);
        }
        Buffers.decodeFrom(in, 0, into, intoOff, count);
    }

    /**
     * Waits for a receive into a buffer and a send that runs beside it; returns the length of the
     * message received, also when it did not fit (the caller compares it with what it expects). If
     * the receive fails, the send is waited for first, since it may still read a buffer the caller
     * is about to reuse.
     */
    static int awaitPair(Request receive, Request send) {
        int got;
        try {
            got = receive.await().length();
        } catch (MessageTruncatedException e) {
            got = e.status().length();
        } catch (RuntimeException e) {
            try {
                send.await();
            } catch (RuntimeException f) {
                e.addSuppressed(f);
            }
            throw e;
        }
        send.await();
        return got;
    }

    /** Sends {@code n} elements of {@code work} from {@code off} to {@code dest} and waits until they are out. */
    void sendRange(int dest, Object work, int off, int n, int phase) {
        int w = Buffers.elementBytes(work);
        long bytes = (long) n * w;
        if (w == 0 || bytes > Integer.MAX_VALUE) {
            send(dest, phase, Buffers.encode(work, off, n)).await();
            return;
        }
        ByteBuffer out = scratch.send((int) bytes);
        Buffers.encodeInto(work, off, n, out, 0);
        send(dest, phase, out, 0, (int) bytes).await();
    }

    /** Receives {@code count} elements from {@code source} into {@code into} from {@code intoOff}; {@code what} as for {@link #swapInto}. */
    void recvRange(int source, Object into, int intoOff, int count, int phase, String what) {
        int w = Buffers.elementBytes(into);
        long bytes = (long) count * w;
        if (w == 0 || bytes > Integer.MAX_VALUE) {
            Buffers.decode(recv(source, phase), into, intoOff, count, what + " from rank " + source);
            return;
        }
        ByteBuffer in = scratch.recv((int) bytes);
        int got;
        try {
            got = irecv(source, phase, in, 0, (int) bytes).await().length();
        } catch (MessageTruncatedException e) {
            got = e.status().length();
        }
        if (got != bytes) {
            throw Buffers.wrongLength(what + " from rank " + source, got, into, count);
        }
        Buffers.decodeFrom(in, 0, into, intoOff, count);
    }

    /** As {@link #recvRange}, into an array of exactly {@code count} elements like {@code like}, from {@code slot} of the scratch. */
    Object recvArray(int source, Object like, int count, int phase, int slot, String what) {
        Object into = Buffers.elementBytes(like) == 0 ? Buffers.newArrayLike(like, count)
                : scratch.array(slot, like, count);
        recvRange(source, into, 0, count, phase, what);
        return into;
    }

    /** As {@link #swapInto}, the peer's {@code count} elements into an array of exactly that length from {@code slot} of the scratch. */
    Object swap(int peer, Object work, int off, int n, int count, int phase, int slot, String what) {
        Object theirs = Buffers.elementBytes(work) == 0 ? Buffers.newArrayLike(work, count)
                : scratch.array(slot, work, count);
        swapInto(peer, work, off, n, theirs, 0, count, phase, what);
        return theirs;
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

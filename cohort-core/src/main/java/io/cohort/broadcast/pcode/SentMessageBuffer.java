package io.cohort.broadcast.pcode;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The buffer of sent messages (P0), made finite (P1): every DATA frame this peer sent, kept
 * byte for byte with its personal and global counter until STATUS frames show that every peer
 * has handled it ({@link #discardThrough}). A multicast that finds it full waits (and asks for
 * STATUS), which is what bounds memory; a frame is never dropped unconfirmed, since a NACK may
 * still want it.
 *
 * <p>Threads: the domain's lock.
 */
final class SentMessageBuffer {
    /** One sent frame. */
    static final class SentFrame {
        final long personalCount;
        final long globalCounter;
        final byte[] bytes;
        /** When it last went to each peer (the first send went to all); null until resent once. */
        private long[] sentAt;
        private final long firstSentAt;

        SentFrame(long personalCount, long globalCounter, byte[] bytes) {
            this(personalCount, globalCounter, bytes, System.nanoTime());
        }

        SentFrame(long personalCount, long globalCounter, byte[] bytes, long now) {
            this.personalCount = personalCount;
            this.globalCounter = globalCounter;
            this.bytes = bytes;
            this.firstSentAt = now;
        }

        /**
         * True, and noted, if the frame may go to {@code peer} again: it has not been sent there
         * within {@code holdNanos}. A NACK that crossed our last copy on the wire, or arrives before
         * that copy could, gets nothing; without this, a slow link's queue fills with copies that
         * later NACKs multiply (a retransmission storm).
         */
        boolean mayResendTo(int peer, int peers, long now, long holdNanos) {
            long last = sentAt == null ? firstSentAt : sentAt[peer];
            if (now - last < holdNanos) {
                return false;
            }
            if (sentAt == null) {
                sentAt = new long[peers];
                java.util.Arrays.fill(sentAt, firstSentAt);
            }
            sentAt[peer] = now;
            return true;
        }
    }

    private final ArrayDeque<SentFrame> frames = new ArrayDeque<>();
    private final int capacity;
    private long highWater;

    SentMessageBuffer(int capacity) {
        this.capacity = capacity;
    }

    boolean hasRoom() {
        return frames.size() < capacity;
    }

    int size() {
        return frames.size();
    }

    int capacity() {
        return capacity;
    }

    /** Most frames ever held at once. */
    long highWater() {
        return highWater;
    }

    void add(SentFrame f) {
        if (frames.size() >= capacity) {
            throw new IllegalStateException("sent buffer full");
        }
        frames.addLast(f);
        highWater = Math.max(highWater, frames.size());
    }

    /** Discards every frame up to and including {@code personalCount}; returns how many. */
    int discardThrough(long personalCount) {
        int n = 0;
        SentFrame f;
        while ((f = frames.peekFirst()) != null && f.personalCount <= personalCount) {
            frames.pollFirst();
            n++;
        }
        return n;
    }

    /** The lowest personal count still held, or -1. */
    long oldest() {
        SentFrame f = frames.peekFirst();
        return f == null ? -1 : f.personalCount;
    }

    Iterator<SentFrame> iterator() {
        return frames.iterator();
    }
}

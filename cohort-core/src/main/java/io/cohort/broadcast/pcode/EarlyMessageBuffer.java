package io.cohort.broadcast.pcode;

import java.util.Map;
import java.util.TreeMap;

/**
 * The buffer of early messages (section 5.4): DATA frames that arrived before they could be
 * accepted, because their personal count left a gap or because their sender's input slot was
 * still full, kept until they are next in line so that they need not be sent again. Bounded by a
 * frame count over all senders and streams; a frame that finds it full is ignored as in P0/P1 and
 * comes back on a NACK.
 *
 * <p>Threads: the domain's lock.
 */
final class EarlyMessageBuffer {
    private final TreeMap<Long, byte[]>[] byStream;
    private final int capacity;
    private int size;
    private long highWater;

    @SuppressWarnings("unchecked")
    EarlyMessageBuffer(int streams, int capacity) {
        this.byStream = new TreeMap[streams];
        this.capacity = capacity;
    }

    /** Keeps a copy of a frame; false if full (or already held). */
    boolean put(int stream, long personalCount, byte[] frame) {
        if (size >= capacity) {
            return false;
        }
        TreeMap<Long, byte[]> m = byStream[stream];
        if (m == null) {
            m = new TreeMap<>();
            byStream[stream] = m;
        }
        if (m.putIfAbsent(personalCount, frame) != null) {
            return false;
        }
        size++;
        highWater = Math.max(highWater, size);
        return true;
    }

    /** The frame with this count, left in place, or null. */
    byte[] peek(int stream, long personalCount) {
        TreeMap<Long, byte[]> m = byStream[stream];
        return m == null ? null : m.get(personalCount);
    }

    void remove(int stream, long personalCount) {
        TreeMap<Long, byte[]> m = byStream[stream];
        if (m != null && m.remove(personalCount) != null) {
            size--;
        }
    }

    /** Drops frames at or below {@code personalCount} (duplicates of accepted ones). */
    void dropThrough(int stream, long personalCount) {
        TreeMap<Long, byte[]> m = byStream[stream];
        Map.Entry<Long, byte[]> e;
        while (m != null && (e = m.firstEntry()) != null && e.getKey() <= personalCount) {
            m.pollFirstEntry();
            size--;
        }
    }

    /** The lowest count held for a stream, or {@code Long.MAX_VALUE}. */
    long lowest(int stream) {
        TreeMap<Long, byte[]> m = byStream[stream];
        return m == null || m.isEmpty() ? Long.MAX_VALUE : m.firstKey();
    }

    int size() {
        return size;
    }

    int capacity() {
        return capacity;
    }

    long highWater() {
        return highWater;
    }
}

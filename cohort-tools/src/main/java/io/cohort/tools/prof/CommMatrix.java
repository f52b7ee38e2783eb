package io.cohort.tools.prof;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Bytes and messages sent from each rank (row) to each rank (column) over the whole job, in world
 * ranks whatever the communicator. Built from the senders' Send events; for a rank whose recording
 * is missing, its row comes from the receivers' Receive events instead, so a crashed peer's traffic
 * still shows where others received it. Dense for small jobs, sparse for large ones
 * ({@link #DENSE_MAX_RANKS}). One thread.
 */
public final class CommMatrix {
    /**
     * Up to this many ranks the matrix is two dense arrays (16 bytes a cell, 64 MiB at 2048 ranks);
     * above, a hash table of the pairs that exchanged messages (about 40 bytes a pair), so a large job
     * costs what its traffic does rather than its size squared.
     */
    static final int DENSE_MAX_RANKS = 2048;

    private final int size;
    /** Dense form: messages and bytes of (from, to) at from * size + to; null in the sparse form. */
    private final long[] denseMessages;
    private final long[] denseBytes;
    /** Sparse form: open addressing on from * size + to, -1 for a free slot. */
    private long[] keys;
    private long[] sparseMessages;
    private long[] sparseBytes;
    private int used;
    private final long[] sentBytes;
    private final long[] receivedBytes;

    /** One pair of ranks that exchanged messages. */
    public record Pair(int from, int to, long messages, long bytes) {
    }

    private CommMatrix(int size) {
        this.size = size;
        this.sentBytes = new long[size];
        this.receivedBytes = new long[size];
        if (size <= DENSE_MAX_RANKS) {
            denseMessages = new long[size * size];
            denseBytes = new long[size * size];
        } else {
            denseMessages = null;
            denseBytes = null;
            allocate(1024);
        }
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        java.util.Arrays.fill(keys, -1);
        sparseMessages = new long[capacity];
        sparseBytes = new long[capacity];
        used = 0;
    }

    public static CommMatrix of(ProfileSet set) {
        int size = set.jobSize();
        for (PeerProfile p : set.peers()) {
            for (CommEvent e : p.comms()) {
                if (e.kind() == CommKind.SEND || e.kind() == CommKind.RECEIVE) {
                    size = Math.max(size, e.peer() + 1);
                }
            }
            for (Totals.CommTotal t : p.totals().comms()) {
                if (t.kind() == CommKind.SEND || t.kind() == CommKind.RECEIVE) {
                    size = Math.max(size, t.peer() + 1);
                }
            }
        }
        CommMatrix m = new CommMatrix(size);
        Set<Integer> recorded = new TreeSet<>();
        set.peers().forEach(p -> recorded.add(p.rank()));
        for (PeerProfile p : set.peers()) {
            for (CommEvent e : p.comms()) {
                if (e.peer() < 0) {
                    continue;
                }
                if (e.kind() == CommKind.SEND) {
                    m.add(p.rank(), e.peer(), e.bytes());
                } else if (e.kind() == CommKind.RECEIVE && !recorded.contains(e.peer())) {
                    m.add(e.peer(), p.rank(), e.bytes());
                }
            }
            for (Totals.CommTotal t : p.totals().comms()) {
                if (t.peer() < 0) {
                    continue;
                }
                if (t.kind() == CommKind.SEND) {
                    m.add(p.rank(), t.peer(), t.count(), t.bytes());
                } else if (t.kind() == CommKind.RECEIVE && !recorded.contains(t.peer())) {
                    m.add(t.peer(), p.rank(), t.count(), t.bytes());
                }
            }
        }
        return m;
    }

    private void add(int from, int to, long b) {
        add(from, to, 1, b);
    }

    private void add(int from, int to, long count, long b) {
        long bytes = Math.max(0, b);
        sentBytes[from] += bytes;
        receivedBytes[to] += bytes;
        long key = (long) from * size + to;
        if (denseMessages != null) {
            denseMessages[(int) key] += count;
            denseBytes[(int) key] += bytes;
            return;
        }
        int slot = slot(key);
        if (keys[slot] < 0) {
            if (2 * (used + 1) > keys.length) {
                grow();
                slot = slot(key);
            }
            keys[slot] = key;
            used++;
        }
        sparseMessages[slot] += count;
        sparseBytes[slot] += bytes;
    }

    /** The slot holding {@code key}, or the free one where it would go. */
    private int slot(long key) {
        int mask = keys.length - 1;
        int i = (int) (mix(key) & mask);
        while (keys[i] >= 0 && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private static long mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 29);
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldMessages = sparseMessages;
        long[] oldBytes = sparseBytes;
        allocate(oldKeys.length * 2);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] >= 0) {
                int slot = slot(oldKeys[i]);
                keys[slot] = oldKeys[i];
                sparseMessages[slot] = oldMessages[i];
                sparseBytes[slot] = oldBytes[i];
                used++;
            }
        }
    }

    public int size() {
        return size;
    }

    public long bytes(int from, int to) {
        long key = (long) from * size + to;
        if (denseBytes != null) {
            return denseBytes[(int) key];
        }
        int slot = slot(key);
        return keys[slot] < 0 ? 0 : sparseBytes[slot];
    }

    public long messages(int from, int to) {
        long key = (long) from * size + to;
        if (denseMessages != null) {
            return denseMessages[(int) key];
        }
        int slot = slot(key);
        return keys[slot] < 0 ? 0 : sparseMessages[slot];
    }

    /** The pairs that exchanged messages, by sender, then receiver. */
    public List<Pair> pairs() {
        List<Pair> out = new ArrayList<>();
        if (denseMessages != null) {
            for (int k = 0; k < denseMessages.length; k++) {
                if (denseMessages[k] != 0 || denseBytes[k] != 0) {
                    out.add(new Pair(k / size, k % size, denseMessages[k], denseBytes[k]));
                }
            }
            return out;
        }
        long[] present = new long[used];
        int n = 0;
        for (long k : keys) {
            if (k >= 0) {
                present[n++] = k;
            }
        }
        Arrays.sort(present);
        for (long k : present) {
            int slot = slot(k);
            out.add(new Pair((int) (k / size), (int) (k % size), sparseMessages[slot], sparseBytes[slot]));
        }
        return out;
    }

    public long maxBytes() {
        return Arrays.stream(denseBytes != null ? denseBytes : sparseBytes).max().orElse(0);
    }

    public long maxMessages() {
        return Arrays.stream(denseMessages != null ? denseMessages : sparseMessages).max().orElse(0);
    }

    public long bytesSentBy(int rank) {
        return sentBytes[rank];
    }

    public long bytesReceivedBy(int rank) {
        return receivedBytes[rank];
    }
}

package io.cohort.tools.prof;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Bytes and messages sent from each rank (row) to each rank (column) over the whole job, in world
 * ranks whatever the communicator. Built from the senders' Send events; for a rank whose recording
 * is missing, its row comes from the receivers' Receive events instead, so a crashed peer's traffic
 * still shows where others received it. Sparse: only pairs that exchanged messages take memory, so a
 * job of 65536 ranks costs what its traffic does, not 65536 squared cells. One thread.
 */
public final class CommMatrix {
    private final int size;
    /** (from << 32 | to) to {messages, bytes}: ordered by sender, then receiver. */
    private final TreeMap<Long, long[]> pairs = new TreeMap<>();
    private final long[] sentBytes;
    private final long[] receivedBytes;

    /** One pair of ranks that exchanged messages. */
    public record Pair(int from, int to, long messages, long bytes) {
    }

    private CommMatrix(int size) {
        this.size = size;
        this.sentBytes = new long[size];
        this.receivedBytes = new long[size];
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
        long[] cell = pairs.computeIfAbsent(key(from, to), k -> new long[2]);
        cell[0] += count;
        cell[1] += Math.max(0, b);
        sentBytes[from] += Math.max(0, b);
        receivedBytes[to] += Math.max(0, b);
    }

    private static long key(int from, int to) {
        return (long) from << 32 | to;
    }

    public int size() {
        return size;
    }

    public long bytes(int from, int to) {
        long[] cell = pairs.get(key(from, to));
        return cell == null ? 0 : cell[1];
    }

    public long messages(int from, int to) {
        long[] cell = pairs.get(key(from, to));
        return cell == null ? 0 : cell[0];
    }

    /** The pairs that exchanged messages, by sender, then receiver. */
    public Iterable<Pair> pairs() {
        return () -> pairs.entrySet().stream().map(CommMatrix::pair).iterator();
    }

    private static Pair pair(Map.Entry<Long, long[]> e) {
        long k = e.getKey();
        return new Pair((int) (k >>> 32), (int) k, e.getValue()[0], e.getValue()[1]);
    }

    public long maxBytes() {
        return pairs.values().stream().mapToLong(c -> c[1]).max().orElse(0);
    }

    public long maxMessages() {
        return pairs.values().stream().mapToLong(c -> c[0]).max().orElse(0);
    }

    public long bytesSentBy(int rank) {
        return sentBytes[rank];
    }

    public long bytesReceivedBy(int rank) {
        return receivedBytes[rank];
    }
}

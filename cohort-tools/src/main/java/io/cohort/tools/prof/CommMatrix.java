package io.cohort.tools.prof;

import java.util.Set;
import java.util.TreeSet;

/**
 * Bytes and messages sent from each rank (row) to each rank (column) over the whole job, in world
 * ranks whatever the communicator. Built from the senders' Send events; for a rank whose recording
 * is missing, its row comes from the receivers' Receive events instead, so a crashed peer's traffic
 * still shows where others received it.
 */
public final class CommMatrix {
    private final int size;
    private final long[][] bytes;
    private final long[][] messages;

    private CommMatrix(int size) {
        this.size = size;
        this.bytes = new long[size][size];
        this.messages = new long[size][size];
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
        messages[from][to] += count;
        bytes[from][to] += Math.max(0, b);
    }

    public int size() {
        return size;
    }

    public long bytes(int from, int to) {
        return bytes[from][to];
    }

    public long messages(int from, int to) {
        return messages[from][to];
    }

    public long maxBytes() {
        long m = 0;
        for (long[] row : bytes) {
            for (long b : row) {
                m = Math.max(m, b);
            }
        }
        return m;
    }

    public long maxMessages() {
        long m = 0;
        for (long[] row : messages) {
            for (long c : row) {
                m = Math.max(m, c);
            }
        }
        return m;
    }

    public long bytesSentBy(int rank) {
        long s = 0;
        for (long b : bytes[rank]) {
            s += b;
        }
        return s;
    }

    public long bytesReceivedBy(int rank) {
        long s = 0;
        for (long[] row : bytes) {
            s += row[rank];
        }
        return s;
    }
}

package io.cohort.broadcast.pcode;

/**
 * What STATUS frames told this peer (P1): for each peer, the highest count of our frames it
 * has handled, on the broadcast stream and on our point-to-point stream to it. The minimum over
 * all peers is what the broadcast sent buffer may discard; every peer, not only the targets,
 * must have handled a frame, since non-targets need it to keep their pcv consecutive.
 *
 * <p>Threads: the domain's lock.
 */
final class PeerStatusTable {
    private final int self;
    private final long[] broadcastHandled;
    private final long[] p2pHandled;
    private final long[] lastHeardNanos;
    private final boolean[] closed;

    PeerStatusTable(int self, int size) {
        this.self = self;
        this.broadcastHandled = new long[size];
        this.p2pHandled = new long[size];
        this.lastHeardNanos = new long[size];
        this.closed = new boolean[size];
    }

    /** {@code peer} said its program has ended (a STATUS with FLAG_CLOSING). */
    void closed(int peer, long now) {
        closed[peer] = true;
        update(peer, Long.MAX_VALUE, Long.MAX_VALUE, now);
    }

    boolean isClosed(int peer) {
        return closed[peer];
    }

    /** Applies a STATUS from {@code peer}; counts only grow (STATUS frames may arrive out of order). */
    void update(int peer, long broadcast, long p2p, long now) {
        if (broadcast > broadcastHandled[peer]) {
            broadcastHandled[peer] = broadcast;
        }
        if (p2p > p2pHandled[peer]) {
            p2pHandled[peer] = p2p;
        }
        lastHeardNanos[peer] = now;
    }

    /** The highest broadcast count every other peer has handled. */
    long handledByAll() {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < broadcastHandled.length; i++) {
            if (i != self) {
                min = Math.min(min, broadcastHandled[i]);
            }
        }
        return min == Long.MAX_VALUE ? Long.MAX_VALUE : min;
    }

    long broadcastHandled(int peer) {
        return broadcastHandled[peer];
    }

    long p2pHandled(int peer) {
        return p2pHandled[peer];
    }

    /** The lowest peer that has not confirmed our broadcast frame {@code personalCount}, or -1: for the stacks. */
    int firstLaggingBehind(long personalCount) {
        for (int i = 0; i < broadcastHandled.length; i++) {
            if (i != self && broadcastHandled[i] < personalCount) {
                return i;
            }
        }
        return -1;
    }

    /** Peers that have not confirmed our broadcast frame {@code personalCount}, for an error message. */
    String laggingBehind(long personalCount) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < broadcastHandled.length; i++) {
            if (i != self && broadcastHandled[i] < personalCount) {
                if (b.length() > 1) {
                    b.append(", ");
                }
                b.append(i);
            }
        }
        return b.append(']').toString();
    }
}

package io.cohort.broadcast.pcode;

/**
 * Flow control by the gcv (section 5.2): {@code gcv[i]} is the highest global counter seen on any
 * frame from peer {@code i} (own entry: our own counter). When the spread between the highest and
 * lowest entry exceeds FLOW_WINDOW, some peer is far behind (it lost frames, or it computes and
 * does not send), so this peer sends no new broadcast DATA and asks for PROGRESS instead, until the
 * laggard's STATUS narrows the spread.
 *
 * <p>Threads: the domain's lock.
 */
final class FlowControl {
    private final int self;
    private final long[] gcv;
    private final int window;

    FlowControl(int self, int size, int window) {
        this.self = self;
        this.gcv = new long[size];
        this.window = window;
    }

    void observe(int peer, long globalCounter) {
        if (globalCounter > gcv[peer]) {
            gcv[peer] = globalCounter;
        }
    }

    /** Whether a frame stamped {@code nextCounter} may go out now. */
    boolean mayStamp(long nextCounter) {
        gcv[self] = Math.max(gcv[self], nextCounter - 1);
        return nextCounter - lowest() <= window;
    }

    long lowest() {
        long min = Long.MAX_VALUE;
        for (long g : gcv) {
            min = Math.min(min, g);
        }
        return min;
    }

    /** The lowest peer whose counter holds the window shut, or -1: for the stacks. */
    int firstLaggard(long nextCounter) {
        for (int i = 0; i < gcv.length; i++) {
            if (nextCounter - gcv[i] > window) {
                return i;
            }
        }
        return -1;
    }

    /** The peers whose counter holds the window shut, for an error message. */
    String laggards(long nextCounter) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < gcv.length; i++) {
            if (nextCounter - gcv[i] > window) {
                if (b.length() > 1) {
                    b.append(", ");
                }
                b.append(i).append(" at ").append(gcv[i]);
            }
        }
        return b.append(']').toString();
    }
}

package io.cohort.launch;

/**
 * Standard input sent to one io-manager and not yet taken by its peers, per rank: the launcher sends
 * a rank more only while less than {@link #BYTES} of it are outstanding, and the io-manager's
 * {@code STDIN_ACK}s give room back as the peer reads. So input a peer does not read waits in the
 * launcher's own standard input (its writer blocks, as with any pipe), never in an io-manager's heap.
 *
 * <p>Threads: the stdin pump takes room ({@link #take}, blocking); the connection's reader gives it back
 * and {@link #close}s the window when the connection ends, which lets the pump go on (what it sends
 * then is lost with the connection, as before).
 */
final class StdinWindow {
    /** Bytes a rank may have in flight: 16 of the pump's 64 KiB chunks. */
    static final int BYTES = 1 << 20;

    private final long[] outstanding;
    private boolean closed;

    StdinWindow(int ranks) {
        outstanding = new long[ranks];
    }

    /** Waits until {@code bytes} more for {@code rank} fit (a chunk always fits an empty window). */
    synchronized void take(int rank, int bytes) throws InterruptedException {
        while (!closed && outstanding[rank] > 0 && outstanding[rank] + bytes > BYTES) {
            wait();
        }
        outstanding[rank] += bytes;
    }

    /** The io-manager no longer holds {@code bytes} of {@code rank}'s input. */
    synchronized void acknowledged(int rank, int bytes) {
        if (rank >= 0 && rank < outstanding.length && bytes > 0) {
            outstanding[rank] = Math.max(0, outstanding[rank] - bytes);
            notifyAll();
        }
    }

    /** The connection ended: nothing will be acknowledged any more, so nothing waits for it. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }
}

package io.cohort.profile;

/**
 * A blocking receive the program is making, measured for the profile (see {@link SendSpan}). The
 * engine tells it what matched ({@link #matched}) before the caller finishes it.
 */
public final class ReceiveSpan {
    private final long start;
    private final ReceiveEvent event;
    private int peer = -1;
    private long bytes = -1;

    private ReceiveSpan(long start, ReceiveEvent event) {
        this.start = start;
        this.event = event;
    }

    static ReceiveSpan start(boolean summary) {
        if (summary) {
            return new ReceiveSpan(Summary.start(Summary.Kind.RECEIVE), null);
        }
        ReceiveEvent e = ReceiveEvent.startIfEnabled();
        return e == null ? null : new ReceiveSpan(0, e);
    }

    /** What the engine learned when the message matched: world rank of the sender, tag, length, sequence. */
    public void matched(int peer, int tag, long bytes, long sequence) {
        if (event != null) {
            event.matched(peer, tag, bytes, sequence);
        } else {
            this.peer = peer;
            this.bytes = bytes;
        }
    }

    public void finish(int communicator, String operation) {
        if (event != null) {
            event.finish(communicator, operation);
        } else {
            Summary.finish(Summary.Kind.RECEIVE, operation, "", communicator, peer, bytes, start);
        }
    }
}

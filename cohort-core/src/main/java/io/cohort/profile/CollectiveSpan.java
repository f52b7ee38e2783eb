package io.cohort.profile;

/** A collective operation the program is making, measured for the profile (see {@link SendSpan}). */
public final class CollectiveSpan {
    private final long start;
    private final CollectiveEvent event;

    private CollectiveSpan(long start, CollectiveEvent event) {
        this.start = start;
        this.event = event;
    }

    static CollectiveSpan start(boolean summary) {
        if (summary) {
            return new CollectiveSpan(Summary.start(Summary.Kind.COLLECTIVE), null);
        }
        CollectiveEvent e = CollectiveEvent.startIfEnabled();
        return e == null ? null : new CollectiveSpan(0, e);
    }

    /**
     * @param algorithm the algorithm that ran, empty when not known yet (a nonblocking start)
     * @param root      the root's rank in the communicator, -1 for rootless operations
     * @param bytes     this peer's payload: what it sent, or what it received if it sent nothing
     * @param size      the communicator's size
     */
    public void finish(int communicator, String operation, String algorithm, int root, long bytes, int size) {
        if (event != null) {
            event.finish(communicator, operation, algorithm, root, bytes, size);
        } else {
            Summary.finish(Summary.Kind.COLLECTIVE, operation, algorithm, communicator, root, bytes, start);
        }
    }
}

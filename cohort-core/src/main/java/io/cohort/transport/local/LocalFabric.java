package io.cohort.transport.local;

import io.cohort.transport.InboundSink;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The shared state of one in-JVM job: where each peer's messages go (its engine, as the
 * {@link InboundSink} every transport delivers to) and whether it has closed or failed.
 */
public final class LocalFabric {
    static final int OPEN = 0;
    static final int CLOSED = 1;
    static final int FAILED = 2;

    private final InboundSink[] engines;
    private final AtomicIntegerArray state;

    public LocalFabric(InboundSink[] engines) {
        this.engines = engines.clone();
        this.state = new AtomicIntegerArray(engines.length);
    }

    public int size() {
        return engines.length;
    }

    InboundSink engine(int rank) {
        return engines[rank];
    }

    int state(int rank) {
        return state.get(rank);
    }

    /**
     * The peer said goodbye. Its sends were delivered synchronously, so every other engine has all
     * of them: tell each that nothing more comes.
     */
    void markClosed(int rank) {
        if (!state.compareAndSet(rank, OPEN, CLOSED)) {
            return;
        }
        for (int i = 0; i < engines.length; i++) {
            if (i != rank) {
                engines[i].peerClosed(rank);
            }
        }
    }

    /** Marks a peer as failed and tells every other engine, so nobody waits for it forever. */
    public void markFailed(int rank, String reason) {
        if (state.getAndSet(rank, FAILED) == FAILED) {
            return;
        }
        for (int i = 0; i < engines.length; i++) {
            if (i != rank) {
                engines[i].peerFailed(rank, reason);
            }
        }
    }
}

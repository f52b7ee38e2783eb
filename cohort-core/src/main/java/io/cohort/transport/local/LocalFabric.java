package io.cohort.transport.local;

import io.cohort.engine.ProgressEngine;

import java.util.concurrent.atomic.AtomicIntegerArray;

/** The shared state of one in-JVM job: every peer's engine and whether it has closed or failed. */
public final class LocalFabric {
    static final int OPEN = 0;
    static final int CLOSED = 1;
    static final int FAILED = 2;

    private final ProgressEngine[] engines;
    private final AtomicIntegerArray state;

    public LocalFabric(ProgressEngine[] engines) {
        this.engines = engines.clone();
        this.state = new AtomicIntegerArray(engines.length);
    }

    public int size() {
        return engines.length;
    }

    ProgressEngine engine(int rank) {
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

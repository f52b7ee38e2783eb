package io.cohort.mpi.support;

import io.cohort.Request;

import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Waiting until one of several Cohort requests is done, for MPI's wait-any and wait-some.
 *
 * <p>Stateless; any thread.
 */
public final class Completions {
    private Completions() {
    }

    /**
     * Returns once one of {@code pending} (not empty) is done. Point-to-point requests of Cohort's
     * engine ({@code allEngine}) wait in the engine's own {@link Request#awaitAny}; with other
     * requests among them (nonblocking collectives) they are tested in turn with a growing pause:
     * spin, yield, then park up to 1 ms, so that many processes on few cores still progress.
     */
    public static void awaitAny(List<Request> pending, boolean allEngine) {
        if (allEngine) {
            Request.awaitAny(pending);
            return;
        }
        long pause = 0;
        while (true) {
            for (Request q : pending) {
                if (q.test()) {
                    return;
                }
            }
            if (pause < 100) {
                Thread.onSpinWait();
            } else if (pause < 200) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(Math.min(1_000_000L, (pause - 199) * 10_000L));
            }
            pause++;
        }
    }
}

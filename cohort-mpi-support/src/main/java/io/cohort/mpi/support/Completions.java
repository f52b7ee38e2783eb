package io.cohort.mpi.support;

import io.cohort.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The waiting behind MPI's array calls (wait-any, test-any, test-all, wait-some, test-some) over
 * {@link RequestSlots}. Completing a request (its status, its data in the program's buffer) stays
 * with each API.
 *
 * <p>Stateless; any thread.
 */
public final class Completions {
    /** No slot holds an active request. */
    public static final int NONE_ACTIVE = -1;
    /** Some slots are active, none is done yet. */
    public static final int NOT_YET = -2;

    private Completions() {
    }

    /** Waits until some active slot is done; returns its index, or {@link #NONE_ACTIVE}. */
    public static int awaitOne(RequestSlots slots) {
        List<Request> pending = new ArrayList<>();
        boolean allEngine = true;
        for (int i = 0; i < slots.count(); i++) {
            if (slots.active(i)) {
                if (slots.isDone(i)) {
                    return i;
                }
                pending.add(slots.inner(i));
                allEngine &= slots.engine(i);
            }
        }
        if (pending.isEmpty()) {
            return NONE_ACTIVE;
        }
        awaitAny(pending, allEngine);
        for (int i = 0; i < slots.count(); i++) {
            if (slots.active(i) && slots.isDone(i)) {
                return i;
            }
        }
        throw new IllegalStateException("a wait returned with no request done");
    }

    /** Tests the active slots in order, driving progress: the first done, or {@link #NOT_YET}, or {@link #NONE_ACTIVE}. */
    public static int testOne(RequestSlots slots) {
        boolean any = false;
        for (int i = 0; i < slots.count(); i++) {
            if (slots.active(i)) {
                any = true;
                Request r = slots.inner(i);
                if (r == null || r.test()) {
                    return i;
                }
            }
        }
        return any ? NOT_YET : NONE_ACTIVE;
    }

    /** Tests every active slot, driving progress; whether all of them are done. */
    public static boolean testAll(RequestSlots slots) {
        boolean all = true;
        for (int i = 0; i < slots.count(); i++) {
            Request r = slots.active(i) ? slots.inner(i) : null;
            if (r != null && !r.test()) {
                all = false;
            }
        }
        return all;
    }

    /** Tests every active slot once, driving progress; whether any slot is active. */
    public static boolean testEach(RequestSlots slots) {
        boolean any = false;
        for (int i = 0; i < slots.count(); i++) {
            if (slots.active(i)) {
                any = true;
                Request r = slots.inner(i);
                if (r != null) {
                    r.test();
                }
            }
        }
        return any;
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

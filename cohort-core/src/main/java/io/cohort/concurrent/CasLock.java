package io.cohort.concurrent;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * A non-reentrant lock for the short critical sections on the message path (a ring's producer
 * side, the matching queues). Taking it when free is one CAS and releasing it is a release store,
 * a plain store on x86, where a monitor's exit or a {@code ReentrantLock}'s unlock is a second
 * atomic instruction; on a two-core machine doing a million messages a second that difference is
 * a tenth of the per-message cost. A thread that finds it taken spins briefly, then yields, then
 * parks in short steps: there is no queue and no fairness, so it is only for sections that never
 * wait for anything themselves.
 *
 * <p>A field updater rather than a {@code VarHandle}: the same instructions once compiled, but no
 * method-handle linking the first time, which every short peer would pay at start-up.
 *
 * <pre>
 *   lock.lock();
 *   try { ... } finally { lock.unlock(); }
 * </pre>
 */
public final class CasLock {
    private static final AtomicIntegerFieldUpdater<CasLock> STATE =
            AtomicIntegerFieldUpdater.newUpdater(CasLock.class, "state");
    private static final int SPINS = 100;
    private static final int YIELDS = 50;
    private static final long PARK_NANOS = 20_000;

    /** 0 free, 1 held; written only through {@link #STATE}. */
    private volatile int state;

    public void lock() {
        // CAS: acquire semantics, so the previous holder's writes are visible inside.
        if (!STATE.compareAndSet(this, 0, 1)) {
            lockContended();
        }
    }

    public boolean tryLock() {
        return STATE.compareAndSet(this, 0, 1);
    }

    private void lockContended() {
        for (int attempt = 0; ; attempt++) {
            // Read first: spin on a shared copy of the line instead of bouncing it with CASes.
            if (state == 0 && STATE.compareAndSet(this, 0, 1)) {
                return;
            }
            if (attempt < SPINS) {
                Thread.onSpinWait();
            } else if (attempt < SPINS + YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(PARK_NANOS);
            }
        }
    }

    public void unlock() {
        // Release (lazySet): everything written while holding the lock is visible to the next holder's CAS.
        STATE.lazySet(this, 0);
    }

    /** Whether some thread holds it (for assertions and tests; stale as soon as it returns). */
    public boolean isLocked() {
        return state != 0;
    }
}

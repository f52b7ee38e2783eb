package io.cohort.concurrent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CasLockTest {
    /** Four threads on (at most) two cores increment two plain fields under the lock; none is lost or torn. */
    @Test
    @Timeout(60)
    void excludesEveryOtherThreadAndPublishesWhatTheHolderWrote() throws Exception {
        CasLock lock = new CasLock();
        long[] counters = new long[2];
        int threads = 4;
        int rounds = 200_000;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                for (int i = 0; i < rounds; i++) {
                    lock.lock();
                    try {
                        // Two fields that must always move together: a torn update would show as a difference.
                        long a = counters[0];
                        counters[0] = a + 1;
                        counters[1] = counters[1] + 1;
                        if (counters[0] != counters[1]) {
                            throw new AssertionError("two holders at once");
                        }
                    } finally {
                        lock.unlock();
                    }
                }
            });
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        assertEquals((long) threads * rounds, counters[0]);
        assertEquals(counters[0], counters[1]);
        assertFalse(lock.isLocked());
    }

    @Test
    void tryLockFailsWhileHeld() {
        CasLock lock = new CasLock();
        assertTrue(lock.tryLock());
        assertTrue(lock.isLocked());
        assertFalse(lock.tryLock(), "not reentrant");
        lock.unlock();
        assertTrue(lock.tryLock());
        lock.unlock();
    }
}

package io.cohort.daemon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(20)
class SharedBuildTest {
    @Test
    void callersWhoArriveDuringABuildShareTheNextOneNeverAnOlderOne() throws Exception {
        AtomicInteger version = new AtomicInteger();
        Semaphore started = new Semaphore(0);
        CountDownLatch release = new CountDownLatch(1);
        SharedBuild<Integer> shared = new SharedBuild<>(() -> {
            int v = version.incrementAndGet();
            started.release();
            if (v == 1) {
                await(release); // the first build is slow: callers arrive while it runs
            }
            return v;
        });
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            Future<Integer> first = pool.submit(shared::get);
            started.acquire(); // build 1 runs
            List<Future<Integer>> later = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                later.add(pool.submit(shared::get));
            }
            // All five are waiting (they cannot take build 1: it began before they arrived).
            while (shared.arrived() < 6) {
                Thread.onSpinWait();
            }
            release.countDown();
            assertEquals(1, first.get());
            for (Future<Integer> f : later) {
                assertEquals(2, f.get(), "one build after they arrived serves all five");
            }
            assertEquals(2, shared.builds());
            assertEquals(3, shared.get(), "a caller after the builds gets a new one");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFailedBuildReachesItsCallerAndTheNextCallerBuildsAgain() {
        AtomicInteger calls = new AtomicInteger();
        SharedBuild<String> shared = new SharedBuild<>(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("table gone");
            }
            return "ok";
        });
        assertEquals("table gone", assertThrows(IllegalStateException.class, shared::get).getMessage());
        assertEquals("ok", shared.get());
        assertEquals(2, shared.builds());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}

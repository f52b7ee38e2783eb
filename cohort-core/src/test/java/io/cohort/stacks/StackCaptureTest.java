package io.cohort.stacks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class StackCaptureTest {
    @Test
    void seesAParkedThreadWithItsLockAndFramesButNotTheCaller() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException ignored) {
                // ends the thread
            }
        }, "stack-capture-test-waiter");
        t.setDaemon(true);
        t.start();
        entered.await();
        try {
            ThreadStack w = null;
            // It may not be parked yet the first time: capture until it is (no sleeps, each capture is the wait).
            while (w == null || w.state() != Thread.State.WAITING) {
                w = StackCapture.threads(Thread.currentThread()).stream()
                        .filter(s -> s.name().equals("stack-capture-test-waiter")).findFirst().orElseThrow();
            }
            assertTrue(w.daemon());
            assertTrue(w.lockName().startsWith("java.util.concurrent.CountDownLatch$Sync@"), w.lockName());
            assertTrue(w.frames().stream().anyMatch(f -> f.getClassName().equals("java.util.concurrent.CountDownLatch")
                    && f.getMethodName().equals("await")), w.frames().toString());
            assertEquals(null, w.frames().get(0).getModuleName(), "frames carry no module");
            List<ThreadStack> all = StackCapture.threads(Thread.currentThread());
            assertFalse(all.stream().anyMatch(s -> s.id() == Thread.currentThread().getId()), "the caller is left out");
            int firstDaemon = 0;
            while (firstDaemon < all.size() && !all.get(firstDaemon).daemon()) {
                firstDaemon++;
            }
            for (int i = firstDaemon; i < all.size(); i++) {
                assertTrue(all.get(i).daemon(), "non-daemon threads come first: " + all);
            }
        } finally {
            release.countDown();
        }
    }

    @Test
    void aThreadBlockedOnAMonitorNamesTheLockAndItsOwner() throws Exception {
        Object monitor = new Object();
        CountDownLatch started = new CountDownLatch(1);
        Thread t;
        synchronized (monitor) {
            t = new Thread(() -> {
                started.countDown();
                synchronized (monitor) {
                    monitor.hashCode();
                }
            }, "stack-capture-test-blocked");
            t.setDaemon(true);
            t.start();
            started.await();
            ThreadStack b = null;
            while (b == null || b.state() != Thread.State.BLOCKED) {
                b = StackCapture.threads(null).stream()
                        .filter(s -> s.name().equals("stack-capture-test-blocked")).findFirst().orElseThrow();
            }
            assertEquals("java.lang.Object@" + Integer.toHexString(System.identityHashCode(monitor)), b.lockName());
            assertEquals(Thread.currentThread().getName(), b.lockOwner());
        }
        t.join();
    }

    @Test
    void encodedCaptureDecodes() throws Exception {
        PeerStacks p = StacksCodec.decode(StackCapture.encoded(null));
        assertTrue(p.threads().stream().anyMatch(s -> s.id() == Thread.currentThread().getId()), "the caller is in");
        assertEquals(0, p.omittedThreads());
    }
}

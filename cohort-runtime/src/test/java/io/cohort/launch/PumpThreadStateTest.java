package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the unfinished-line check asks of /proc: whether a pump thread truly sleeps in its read of a
 * pipe, or is runnable (it said it would read, but was descheduled before it got there).
 */
@Timeout(20)
class PumpThreadStateTest {
    @Test
    void aThreadBlockedInAPipeReadSleepsAndARunningOneDoesNot() throws Exception {
        int self = PeerProcess.ownTid();
        assumeTrue(self > 0, "needs /proc/thread-self (Linux)");
        assertFalse(PeerProcess.sleepsInKernel(self), "this thread is running");
        Process cat = new ProcessBuilder("sleep", "30").start(); // its stdout: a pipe nobody writes to
        try {
            AtomicInteger tid = new AtomicInteger();
            Thread reader = new Thread(() -> {
                tid.set(PeerProcess.ownTid());
                try (InputStream in = cat.getInputStream()) {
                    in.read();
                } catch (java.io.IOException ended) {
                    // the process was destroyed
                }
            });
            reader.start();
            // Polled: no event says "now blocked in read(2)"; the kernel's state is what is tested.
            while (tid.get() == 0 || !PeerProcess.sleepsInKernel(tid.get())) {
                Thread.onSpinWait();
            }
            assertTrue(PeerProcess.sleepsInKernel(tid.get()));
            cat.destroy();
            reader.join();
        } finally {
            cat.destroyForcibly();
        }
    }
}

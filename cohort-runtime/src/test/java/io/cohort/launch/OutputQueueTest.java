package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

@Timeout(20)
class OutputQueueTest {
    /** A reader of the launcher's output; subclasses decide when it takes bytes. */
    private abstract static class Reader extends OutputStream {
        final ByteArrayOutputStream got = new ByteArrayOutputStream();

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }
    }

    /** A reader that takes nothing until it is opened, as a paused terminal or a pipe nobody reads. */
    private static final class Gate extends Reader {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch open = new CountDownLatch(1);

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            entered.countDown();
            try {
                open.await();
            } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
            }
            got.write(b, off, len);
        }
    }

    private static void awaitWaiting(Thread t) {
        while (t.getState() != Thread.State.WAITING && t.isAlive()) {
            Thread.onSpinWait();
        }
    }

    @Test
    void aWriterWaitsForRoomWhileTheJobRunsAndDropsWhatDoesNotFitOnceItIsStopped() throws Exception {
        Gate gate = new Gate();
        OutputQueue q = new OutputQueue(gate, "test-out", (x, e) -> {
        });
        q.offer(new byte[(int) OutputQueue.LIMIT]); // taken by the writer thread, which blocks on the reader
        gate.entered.await();
        Thread second = new Thread(() -> q.offer(new byte[] {1}), "second-writer");
        second.start();
        awaitWaiting(second);
        assertEquals(Thread.State.WAITING, second.getState(), "a full queue makes a writer wait while the job runs");
        q.release(); // the job is being stopped
        second.join();
        q.offer(new byte[(int) OutputQueue.STOPPING_LIMIT]); // past the stopping limit: dropped, not waited for
        long stalled = q.drain(TimeUnit.MILLISECONDS.toNanos(100));
        assertEquals(OutputQueue.STOPPING_LIMIT + OutputQueue.LIMIT + 1, stalled, "dropped and still queued");
        gate.open.countDown();
        assertEquals(OutputQueue.STOPPING_LIMIT, q.drain(Long.MAX_VALUE), "the reader took the rest; the drop counts");
        assertEquals(OutputQueue.LIMIT + 1, gate.got.size());
        q.close();
    }

    @Test
    void aDrainThatWaitsForEverEndsWhenTheStallIsLimited() throws Exception {
        Gate gate = new Gate();
        OutputQueue q = new OutputQueue(gate, "test-out", (x, e) -> {
        });
        q.offer("prompt".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        gate.entered.await();
        long[] left = {-1};
        Thread drainer = new Thread(() -> left[0] = q.drain(Long.MAX_VALUE), "drainer");
        drainer.start();
        awaitWaiting(drainer);
        q.limitStall(0); // SIGINT while the launcher waited for its reader
        drainer.join();
        assertEquals(6, left[0]);
        gate.open.countDown();
        q.close();
    }

    @Test
    void aFailedWriteIsReportedOnceAndLaterOutputIsDropped() throws Exception {
        AtomicInteger told = new AtomicInteger();
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        OutputQueue q = new OutputQueue(broken, "test-out", (x, e) -> told.incrementAndGet());
        q.offer(new byte[100]);
        assertEquals(0, q.drain(Long.MAX_VALUE), "after a failure the failure is what is reported");
        q.offer(new byte[100]);
        assertEquals(0, q.drain(Long.MAX_VALUE));
        assertEquals(1, told.get());
        q.close();
    }

    @Test
    void bytesArriveInOrderAcrossManyWriters() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        OutputQueue q = new OutputQueue(sink, "test-out", (x, e) -> {
        });
        for (int i = 0; i < 10_000; i++) {
            q.write(("line " + i + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        assertEquals(0, q.drain(Long.MAX_VALUE));
        String[] lines = sink.toString(java.nio.charset.StandardCharsets.US_ASCII).split("\n");
        assertEquals(10_000, lines.length);
        for (int i = 0; i < lines.length; i++) {
            assertEquals("line " + i, lines[i]);
        }
        q.close();
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void aStopIsNotAStallWhileTheReaderStillTakesOutput() throws Exception {
        java.util.concurrent.Semaphore permits = new java.util.concurrent.Semaphore(0);
        Reader slow = new Reader() {
            @Override
            public void write(byte[] b, int off, int len) {
                permits.acquireUninterruptibly();
                got.write(b, off, len);
            }
        };
        OutputQueue q = new OutputQueue(slow, "test-out", (x, e) -> {
        });
        q.offer(new byte[1 << 20]); // one long line: 16 pieces of 64 KiB
        q.release();
        long[] left = {-1};
        Thread drainer = new Thread(() -> left[0] = q.drain(TimeUnit.SECONDS.toNanos(1)), "drainer");
        drainer.start();
        // The reader takes a piece about every 150 ms: slow, but never a second without progress. The
        // whole line takes 2.4 s, far past the stall limit, and must not be given up.
        for (int i = 0; i < 16; i++) {
            permits.release();
            drainer.join(150); // paces the reader; ends early only if the drain gave up
        }
        permits.release(64); // the final flush, and anything more
        drainer.join();
        assertEquals(0, left[0]);
        assertEquals(1 << 20, slow.got.size());
        q.close();
    }
}

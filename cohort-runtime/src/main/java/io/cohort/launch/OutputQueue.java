package io.cohort.launch;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The launcher's stdout or stderr, written by a thread of its own so that the threads that read the
 * io-managers never block in the kernel on a reader that stopped reading (a paused terminal, a pipe
 * into a command that does not read).
 *
 * <p>While the job runs, at most {@link #LIMIT} bytes wait here: a slow reader slows the job down and
 * loses nothing. Once the job is being stopped ({@link #release()}), the peers are ending and what
 * they still send must not hold up the reading of their exit reports: up to {@link #STOPPING_LIMIT}
 * bytes are then queued without waiting, and what does not fit is dropped and counted. At the end
 * {@link #drain} waits until everything is written, or until the reader made no progress for a
 * while. Thread-safe; the writer thread flushes whenever its queue runs empty.
 */
final class OutputQueue extends OutputStream {
    /** Bytes queued while the job runs before writers wait for room (4 MiB). */
    static final long LIMIT = 4L << 20;
    /** Bytes queued once the job is being stopped; past this, output is dropped (64 MiB). */
    static final long STOPPING_LIMIT = 64L << 20;

    private final BufferedOutputStream target;
    private final BiConsumer<OutputQueue, IOException> onFailure;
    private final Object lock = new Object();
    private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
    /** Bytes in the queue and in the batch the writer thread is writing; guarded by lock. */
    private long queued;
    /** Queue empty and everything written and flushed; guarded by lock. */
    private boolean idle = true;
    private boolean released;
    private boolean closed;
    private boolean failed;
    private long dropped;
    /** The longest drain() waits for a stalled reader, whatever its caller asked; guarded by lock. */
    private long stallLimit = Long.MAX_VALUE;
    /**
     * When the reader last took something (the writer thread finished a piece), or when output came to
     * an idle queue: drain() measures a stall from here.
     */
    private volatile long progressNanos = System.nanoTime();
    /** The writer thread writes in pieces of this size (its buffer's), noting progress after each. */
    private static final int PIECE = 64 * 1024;
    private final Thread writer;
    /** The writer thread waits for output; guarded by lock. */
    private boolean writerWaiting;

    /** @param onFailure told, once and on the writer thread, when a write or flush fails; later output is dropped */
    OutputQueue(OutputStream target, String name, BiConsumer<OutputQueue, IOException> onFailure) {
        this.target = new BufferedOutputStream(target, 64 * 1024);
        this.onFailure = onFailure;
        writer = new Thread(this::writeLoop, name);
        writer.setDaemon(true); // a writer blocked on a reader that is gone must not keep the launcher alive
        writer.start();
    }

    @Override
    public void write(int b) {
        offer(new byte[] {(byte) b});
    }

    @Override
    public void write(byte[] b, int off, int len) {
        offer(java.util.Arrays.copyOfRange(b, off, off + len));
    }

    /** Queues {@code bytes}, which become this queue's, after waiting for room while the job runs. */
    void offer(byte[] bytes) {
        awaitRoom(bytes.length);
        add(bytes);
    }

    /**
     * Waits while the job runs and {@code length} more bytes would pass {@link #LIMIT}. Callers that
     * hold a lock others need call this before taking it, then {@link #add}: several may then pass
     * the limit together by a line each, which is the price of never waiting under their lock.
     */
    void awaitRoom(int length) {
        boolean interrupted = false;
        synchronized (lock) {
            while (!failed && !closed && !released && queued > 0 && queued + length > LIMIT) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    interrupted = true; // the output is queued all the same; the flag is kept
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Queues {@code bytes}, which become this queue's, without waiting: past {@link #STOPPING_LIMIT},
     * once the job is being stopped, they are dropped and counted.
     */
    void add(byte[] bytes) {
        if (bytes.length == 0) {
            return;
        }
        synchronized (lock) {
            if (failed || closed) {
                return; // the failure was reported once; nothing more can be written
            }
            if (released && queued > 0 && queued + bytes.length > STOPPING_LIMIT) {
                dropped += bytes.length;
                return;
            }
            if (idle) {
                progressNanos = System.nanoTime(); // the reader had nothing to take until now
            }
            queue.add(bytes);
            queued += bytes.length;
            idle = false;
            if (writerWaiting) {
                lock.notifyAll(); // only then: a busy writer finds the line when it looks again
            }
        }
    }

    /** Flushing is the writer thread's business: it flushes whenever its queue runs empty. */
    @Override
    public void flush() {
    }

    /** The job is being stopped: writers no longer wait for room (see the class comment). */
    void release() {
        synchronized (lock) {
            released = true;
            lock.notifyAll();
        }
    }

    /**
     * From now on, {@link #drain} waits no longer than {@code stallNanos} for a reader that takes
     * nothing (the user stopped the launcher while it waited for one).
     */
    void limitStall(long stallNanos) {
        synchronized (lock) {
            stallLimit = Math.min(stallLimit, stallNanos);
            lock.notifyAll();
        }
    }

    /**
     * Waits until everything queued is written, or until the writer thread has made no progress for
     * {@code stallNanos} (Long.MAX_VALUE: for ever, as a program writing to a pipe does). An
     * interrupt ends the wait; the flag is kept.
     *
     * @return the bytes that were not written: dropped, and still queued if the reader stalled
     */
    long drain(long stallNanos) {
        synchronized (lock) {
            try {
                while (!idle && !failed) {
                    long stall = Math.min(stallNanos, stallLimit);
                    if (stall == Long.MAX_VALUE) {
                        lock.wait();
                        continue;
                    }
                    long left = progressNanos + stall - System.nanoTime();
                    if (left <= 0) {
                        return dropped + queued;
                    }
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return dropped + queued;
            }
            return failed ? 0 : dropped; // after a failure, the failure is what is reported
        }
    }

    /** Whether everything queued so far is written (dropped bytes aside): nothing queued, nothing being written. */
    boolean idle() {
        synchronized (lock) {
            return idle && !failed;
        }
    }

    /** Ends the writer thread once the queue is written; later output is dropped. Does not wait. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
    }

    private void writeLoop() {
        List<byte[]> batch = new ArrayList<>();
        for (;;) {
            synchronized (lock) {
                while (queue.isEmpty() && !closed) {
                    writerWaiting = true;
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        // Nobody interrupts this thread; keep serving the queue.
                    } finally {
                        writerWaiting = false;
                    }
                }
                if (queue.isEmpty()) {
                    return; // closed and written
                }
                batch.addAll(queue);
                queue.clear();
            }
            long written = 0;
            try {
                for (byte[] b : batch) {
                    // In pieces, each a sign of life: a reader that takes a long line slowly is not stalled.
                    for (int off = 0; off < b.length; off += PIECE) {
                        int n = Math.min(PIECE, b.length - off);
                        target.write(b, off, n);
                        progressNanos = System.nanoTime();
                    }
                    written += b.length;
                }
                boolean more;
                synchronized (lock) {
                    more = !queue.isEmpty();
                }
                if (!more) {
                    target.flush();
                }
            } catch (IOException e) {
                onFailure.accept(this, e); // first: whoever a drain releases finds the failure recorded
                synchronized (lock) {
                    failed = true;
                    queue.clear();
                    queued = 0;
                    lock.notifyAll();
                }
                return;
            }
            batch.clear();
            synchronized (lock) {
                queued -= written;
                idle = queue.isEmpty();
                lock.notifyAll();
            }
        }
    }
}

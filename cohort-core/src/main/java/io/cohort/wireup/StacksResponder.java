package io.cohort.wireup;

import io.cohort.stacks.StackCapture;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Answers the controller's {@link ControlMessageType#STACKS_REQUEST}s. The thread that reads the
 * control connection (the progress agent, or the main thread during wire-up) only queues the
 * request id; a short-lived daemon thread, {@code cohort-stacks}, captures every other thread and
 * sends the answer. So the reader never stalls for the capture (the first one loads the management
 * classes), the reader itself shows in the dump where it really waits, and the answer comes whatever
 * the program's threads do: blocked in a receive, sleeping, spinning or deadlocked.
 *
 * <p>At most one capture thread runs at a time; requests that arrive while it captures are answered
 * by its next capture.
 */
final class StacksResponder implements Runnable {
    /** Where answers go: the control connection, from the capture thread. */
    interface Sender {
        void send(ControlFrame f);
    }

    private final Sender sender;
    private final ConcurrentLinkedQueue<Integer> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean();

    StacksResponder(Sender sender) {
        this.sender = sender;
    }

    /** Called by the connection's reader; never blocks. */
    void request(int requestId) {
        pending.add(requestId);
        startIfIdle();
    }

    private void startIfIdle() {
        if (running.compareAndSet(false, true)) {
            try {
                Thread t = new Thread(this, "cohort-stacks");
                t.setDaemon(true);
                t.start();
            } catch (OutOfMemoryError | RuntimeException e) {
                // No thread to spare: the controller reports this rank as not answering.
                pending.clear();
                running.set(false);
            }
        }
    }

    @Override
    public void run() {
        try {
            for (;;) {
                List<Integer> ids = new ArrayList<>();
                Integer id;
                while ((id = pending.poll()) != null) {
                    ids.add(id);
                }
                if (ids.isEmpty()) {
                    running.set(false);
                    // A request queued after the poll above but before the flag cleared must not wait for the next one.
                    if (pending.isEmpty() || !running.compareAndSet(false, true)) {
                        return;
                    }
                    continue;
                }
                byte[] stacks = StackCapture.encoded(Thread.currentThread());
                for (int requestId : ids) {
                    sender.send(ControlFrame.build(ControlMessageType.STACKS).putInt(requestId).putBytes(stacks).frame());
                }
            }
        } catch (RuntimeException | Error e) {
            // A capture that failed is a rank that did not answer; the program must not notice.
            pending.clear();
            running.set(false);
        }
    }
}

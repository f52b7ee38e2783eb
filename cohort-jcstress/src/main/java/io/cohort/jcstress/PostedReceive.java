package io.cohort.jcstress;

import io.cohort.CohortException;
import io.cohort.Request;
import io.cohort.engine.ProgressEngine;
import io.cohort.idle.Blocker;
import io.cohort.idle.IdleStrategy;
import io.cohort.transport.SendCompletion;
import io.cohort.transport.Transport;

import java.nio.ByteBuffer;

/**
 * The fixture of the request tests: a real {@link ProgressEngine} (rank 0 of 2) with a receive
 * posted into a user buffer, and a transport that stands in for the one the progress owner
 * sleeps in. {@link #arrive} is what a transport's reading thread does when the message comes:
 * it hands the bytes to the engine, whose matching copies them into the buffer and completes the
 * request. The transport's {@link Transport#block} records that the waiter went to sleep and
 * whether a wake-up came, without sleeping for real, so a lost wake-up is an outcome, not a hang.
 */
abstract class PostedReceive {
    static final int CONTEXT = 5;
    static final int SOURCE = 1;
    static final int TAG = 9;
    static final int LENGTH = 16;
    /** The message: four ints 2001..2004. */
    private static final ByteBuffer MESSAGE;

    static {
        ByteBuffer b = ByteBuffer.allocate(LENGTH);
        for (int i = 0; i < LENGTH / Integer.BYTES; i++) {
            b.putInt(i * Integer.BYTES, 2001 + i);
        }
        MESSAGE = b.asReadOnlyBuffer();
    }

    final SleepRecorder transport = new SleepRecorder();
    final ByteBuffer into = ByteBuffer.allocate(LENGTH);
    final ProgressEngine engine;
    final Request request;
    /** Idle rounds of the waiting thread (touched by that thread only). */
    int idled;
    /** Set by the waiting thread as it starts its first idle round, just before it announces itself. */
    volatile boolean idling;
    /**
     * How long the waiter pauses after setting {@link #idling}, 0 to 4 microseconds, drawn for each
     * state: a completion that starts at the flag then lands at a different point of the waiter's
     * handshake from one state to the next, whatever the speed of the machine and the compiler.
     */
    private final long pauseNanos = java.util.concurrent.ThreadLocalRandom.current().nextLong(4_000);

    PostedReceive() {
        engine = new ProgressEngine(0, 2, () -> new IdleStrategy() {
            @Override
            public void idle(Blocker blocker) {
                if (idled++ == 0) {
                    idling = true;
                    long start = System.nanoTime();
                    while (System.nanoTime() - start < pauseNanos) {
                        Thread.onSpinWait();
                    }
                }
                blocker.block(1_000_000L); // the owner sleeps in the transport: SleepRecorder.block
            }

            @Override
            public void reset() {
            }

            @Override
            public String name() {
                return "block-at-once";
            }
        });
        engine.attach(transport, new int[] {SOURCE});
        request = engine.receive(CONTEXT, SOURCE, TAG, into);
    }

    /** The transport's reading thread delivers the whole message (the engine's fast path). */
    void arrive() {
        engine.deliver(SOURCE, CONTEXT, TAG, MESSAGE, 0, LENGTH);
    }

    /**
     * A transport that can block, as the owner's transport does, but whose {@code block} only
     * records: it returns when {@link #wakeup} is called, or once the completing thread is done
     * without having called it ({@link #completerDone}), which is the lost wake-up.
     */
    static final class SleepRecorder implements Transport {
        volatile boolean woken;
        volatile boolean completerDone;
        /** Written and read by the waiting thread only. */
        int slept;
        boolean missed;

        @Override
        public void block(long nanos) {
            slept++;
            while (!woken && !completerDone) {
                Thread.onSpinWait();
            }
            // Read again after completerDone: a wake-up the completer made before it finished is seen here.
            if (!woken) {
                missed = true;
            }
        }

        @Override
        public void wakeup() {
            woken = true;
        }

        @Override
        public boolean canBlock() {
            return true;
        }

        @Override
        public int poll() {
            return 0;
        }

        @Override
        public String name() {
            return "sleep-recorder";
        }

        @Override
        public void send(int dest, int context, int tag, ByteBuffer payload, SendCompletion completion) {
            completion.failed(new CohortException("the request tests send nothing"));
        }

        @Override
        public void startClose() {
        }

        @Override
        public boolean isCloseComplete() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}

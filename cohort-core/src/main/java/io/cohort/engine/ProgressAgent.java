package io.cohort.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * The peer's one background thread, {@code cohort-progress-<rank>}: polls the transports when no
 * user thread is inside the library (so arrivals are drained into the unexpected queue and lost
 * peers are noticed while the program computes), and runs the wire-up's control duty, whose wait
 * doubles as the agent's sleep.
 */
public final class ProgressAgent implements Runnable {
    /** Period between background polls. */
    public static final long PERIOD_NANOS_DEFAULT = 5_000_000L;

    /** Work the agent does each period besides polling; {@code awaitNanos} bounds how long it may block. */
    @FunctionalInterface
    public interface Duty {
        void run(long awaitNanos) throws Exception;
    }

    private final ProgressEngine engine;
    private final Duty duty;
    private final long periodNanos;
    private final Thread thread;
    private volatile boolean running = true;

    public ProgressAgent(ProgressEngine engine, Duty duty, long periodNanos) {
        this.engine = engine;
        this.duty = duty;
        this.periodNanos = periodNanos;
        this.thread = new Thread(this, "cohort-progress-" + engine.rank());
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    public void stop() {
        running = false;
        LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        while (running) {
            try {
                if (duty != null) {
                    duty.run(periodNanos);
                } else {
                    LockSupport.parkNanos(periodNanos);
                }
                if (running) {
                    engine.backgroundPoll();
                }
            } catch (Throwable t) {
                if (running) {
                    System.err.println("cohort: progress agent of rank " + engine.rank() + " stopped: " + t);
                }
                return;
            }
        }
    }
}

package io.cohort.broadcast.pcode;

import io.cohort.BroadcastDomain;
import java.util.concurrent.locks.LockSupport;

/**
 * Polls a domain now and then while its program computes, so NACKs are answered and STATUS sent
 * without waiting for the program's next call (the paper's daemon, as a thread: section 6.1 wished
 * for exactly this). It is the peer's one background thread, {@code cohort-progress-<rank>}, for
 * peers that run only a domain (in-JVM tests and benchmarks); a launched peer would give the same
 * duty to its {@link io.cohort.engine.ProgressAgent} instead of starting this.
 */
public final class DomainAgent implements Runnable {
    public static final long PERIOD_NANOS_DEFAULT = 1_000_000L;
    private final BroadcastDomain domain;
    private final long periodNanos;
    private final Thread thread;
    private volatile boolean running = true;

    public DomainAgent(BroadcastDomain domain, long periodNanos) {
        this.domain = domain;
        this.periodNanos = periodNanos;
        this.thread = new Thread(this, "cohort-progress-" + domain.rank());
        this.thread.setDaemon(true);
    }

    public DomainAgent start() {
        thread.start();
        return this;
    }

    public void stop() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        while (running) {
            try {
                if (domain.poll() == 0) {
                    LockSupport.parkNanos(periodNanos);
                }
            } catch (RuntimeException e) {
                System.err.println("cohort: progress agent of rank " + domain.rank() + " stopped: " + e);
                return;
            }
        }
    }
}

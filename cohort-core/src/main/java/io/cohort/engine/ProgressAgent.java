package io.cohort.engine;

import io.cohort.BroadcastDomain;
import io.cohort.profile.Profiling;

import java.util.concurrent.locks.LockSupport;

/**
 * The peer's one background thread, {@code cohort-progress-<rank>}: polls the transports when no
 * user thread is inside the library (so arrivals are drained into the unexpected queue and lost
 * peers are noticed while the program computes), and runs the wire-up's control duty, whose wait
 * doubles as the agent's sleep. Once the job's broadcast domain is open, the agent polls it too,
 * every {@value #DOMAIN_PERIOD_NANOS} ns at least (the PCODE paper's daemon, as a thread of the peer).
 */
public final class ProgressAgent implements Runnable, DomainPolling {
    /** Period between background polls. */
    public static final long PERIOD_NANOS_DEFAULT = 5_000_000L;
    /** Period while a broadcast domain is open: a NACK waits at most this long for its answer. */
    public static final long DOMAIN_PERIOD_NANOS = 1_000_000L;

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
    private volatile BroadcastDomain domain;

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
    public void startPolling(BroadcastDomain d) {
        domain = d;
        LockSupport.unpark(thread);
    }

    @Override
    public void stopPolling(BroadcastDomain d) {
        if (domain == d) {
            domain = null;
        }
    }

    @Override
    public void run() {
        while (running) {
            try {
                BroadcastDomain d = domain;
                long wait = d == null ? periodNanos : Math.min(periodNanos, DOMAIN_PERIOD_NANOS);
                if (duty != null) {
                    duty.run(wait);
                } else {
                    LockSupport.parkNanos(wait);
                }
                if (running) {
                    if (!Profiling.active()) {
                        Profiling.refresh(); // a recording started later (jcmd JFR.start) gets Cohort's events too
                    }
                    engine.backgroundPoll();
                    if (d != null) {
                        d.poll();
                    }
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

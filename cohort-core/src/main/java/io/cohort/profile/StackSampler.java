package io.cohort.profile;

import java.io.IOException;
import java.io.Writer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The summary profile's method sampler (PSE's PC sampling, made for the JVM): now and then it takes
 * every thread's stack and counts, per method, the threads that were running Java code in it (top
 * frame not native, thread runnable), as the Flight Recorder's execution samples do.
 *
 * <p>Cost and its limit: the JDK 17 way to read other threads' stacks from Java stops the whole JVM at
 * a safepoint, and on a machine with fewer cores than running threads reaching it can take a
 * millisecond. So the period is not fixed: after each sample it becomes the sample's own pause
 * divided by {@link #BUDGET} (never below {@link #MIN_PERIOD_NANOS} nor above
 * {@link #MAX_PERIOD_NANOS}), which keeps the sampler's pauses near half a percent of the peer's
 * time. Samples stop at safepoints, so they are biased to where compiled code polls (loop ends and
 * returns): good for ranking methods, not for lines. {@code --profile-mode=full} uses the Flight
 * Recorder's sampler instead, which has no such bias.
 */
final class StackSampler extends Thread {
    static final long MIN_PERIOD_NANOS = 10_000_000;
    static final long MAX_PERIOD_NANOS = 1_000_000_000;
    /** The share of the peer's time the sampler's pauses may take. */
    static final double BUDGET = 0.005;

    private final Map<String, long[]> methods = new HashMap<>();
    private volatile boolean stopped;
    private long ticks;
    private long samples;
    private long pauseNanos;

    StackSampler() {
        super("cohort-profile-sampler");
        setDaemon(true);
    }

    @Override
    public void run() {
        long period = MIN_PERIOD_NANOS;
        double meanPause = 0;
        while (!stopped) {
            LockSupport.parkNanos(period);
            if (stopped) {
                break;
            }
            long pause = sample();
            meanPause = meanPause == 0 ? pause : 0.8 * meanPause + 0.2 * pause;
            period = Math.max(MIN_PERIOD_NANOS, Math.min(MAX_PERIOD_NANOS, (long) (meanPause / BUDGET)));
        }
    }

    /** Takes one sample of every thread; returns how long the JVM was stopped for it. */
    long sample() {
        long t0 = System.nanoTime();
        Map<Thread, StackTraceElement[]> stacks = Thread.getAllStackTraces();
        long pause = System.nanoTime() - t0;
        synchronized (this) {
            ticks++;
            pauseNanos += pause;
            for (Map.Entry<Thread, StackTraceElement[]> e : stacks.entrySet()) {
                StackTraceElement[] st = e.getValue();
                Thread t = e.getKey();
                if (t == this || st.length == 0 || st[0].isNativeMethod() || t.getState() != State.RUNNABLE) {
                    continue;
                }
                String method = new StringBuilder(st[0].getClassName()).append('.').append(st[0].getMethodName()).toString();
                long[] n = methods.get(method);
                if (n == null) {
                    n = new long[1];
                    methods.put(method, n);
                }
                n[0]++;
                samples++;
            }
        }
        return pause;
    }

    /** Ends the sampling (waits briefly for a sample in progress). */
    void finish() {
        stopped = true;
        LockSupport.unpark(this);
        try {
            join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    synchronized void writeTo(Writer w) throws IOException {
        Summary.line(w, SummaryFormat.SAMPLER, MIN_PERIOD_NANOS, ticks, samples, pauseNanos);
        for (Map.Entry<String, long[]> e : methods.entrySet()) {
            Summary.line(w, SummaryFormat.METHOD, e.getKey(), e.getValue()[0]);
        }
    }
}

package io.cohort.daemon;

import java.util.function.Supplier;

/**
 * One result built for many callers at once: a caller that finds a build in progress waits for it, then
 * shares the next build with every caller that arrived meanwhile. Each caller gets a result built
 * after it arrived (never an older one), and at most one build runs at a time: a burst of STATUS
 * requests on a large cluster costs one table encoding and one copy of it, not one per request.
 *
 * <p>Threads: any; callers block while another builds.
 */
final class SharedBuild<T> {
    private final Supplier<T> build;
    /** Callers so far; each takes the next number. */
    private long arrived;
    /** Callers numbered up to this one may take {@link #last}: it was built after they arrived. */
    private long covered;
    private boolean building;
    private T last;
    private long builds;

    SharedBuild(Supplier<T> build) {
        this.build = build;
    }

    /** A result built after this call began; a build's exception reaches the caller that ran it. */
    T get() {
        long covers;
        synchronized (this) {
            long ticket = ++arrived;
            while (building) {
                await();
            }
            if (covered >= ticket) {
                return last;
            }
            building = true;
            builds++;
            covers = arrived; // everyone who arrived until now gets this build
        }
        T result = null;
        try {
            result = build.get();
            return result;
        } finally {
            synchronized (this) {
                building = false;
                if (result != null) {
                    last = result;
                    covered = covers;
                }
                notifyAll();
            }
        }
    }

    private void await() {
        try {
            wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for an answer being built", e);
        }
    }

    /** How many callers came so far (tests). */
    synchronized long arrived() {
        return arrived;
    }

    /** How many builds ran (tests). */
    synchronized long builds() {
        return builds;
    }
}

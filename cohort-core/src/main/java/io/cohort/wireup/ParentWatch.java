package io.cohort.wireup;

import java.util.function.LongConsumer;

/**
 * Notices that this process's parent is gone: a daemon thread looks every {@value #CHECK_MILLIS} ms
 * whether the parent pid changed (orphans are handed to another process, so a recycled pid cannot
 * fool it). A peer uses it to end with its io-manager, the launcher to end its job with the
 * {@code ./cohort} script it runs under. ({@code ProcessHandle.onExit} would do it with a thread pool
 * and futures that cost a short peer a noticeable part of its start-up, and for a process that is not
 * our child it polls at intervals growing to five seconds.)
 *
 * <p>A class, not a lambda: linking a lambda costs a short peer's start-up more than the class does.
 */
public final class ParentWatch implements Runnable {
    /** How often the parent is looked at. */
    public static final long CHECK_MILLIS = 200;

    private final long parent;
    private final LongConsumer onGone;

    private ParentWatch(long parent, LongConsumer onGone) {
        this.parent = parent;
        this.onGone = onGone;
    }

    /**
     * Starts the watch on a daemon thread of that name; {@code onGone} gets the parent's pid once,
     * when the parent is gone. Returns false, watching nothing, if this process is already an orphan
     * or its parent cannot be told.
     */
    public static boolean start(String threadName, LongConsumer onGone) {
        long parent = ProcessInfo.parentPid();
        if (parent <= 1) {
            return false;
        }
        watch(threadName, parent, onGone);
        return true;
    }

    /**
     * Watches for the end of {@code parent}, the pid this process was started by: {@code onGone} runs at
     * once (on the watch thread) if that is no longer our parent, since it ended before the watch began.
     */
    public static void watch(String threadName, long parent, LongConsumer onGone) {
        Thread watch = new Thread(new ParentWatch(parent, onGone), threadName);
        watch.setDaemon(true);
        watch.start();
    }

    @Override
    public void run() {
        while (ProcessInfo.parentPid() == parent) {
            try {
                Thread.sleep(CHECK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
        onGone.accept(parent);
    }
}

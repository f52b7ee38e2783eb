package io.cohort.deck.service;

import io.cohort.engine.ProgressEngine;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One DECK service thread (the naming server, a peer's post office, a group server, a group's
 * broadcaster): runs the tasks handed to it one at a time, in order. It waits for work on a plain
 * Java queue, never inside the engine, so it never holds the engine's progress role while idle;
 * engine handlers feed it with {@link #submit}, which never blocks. Every {@value #TICK_MILLIS} ms
 * without work it runs its tick (a group server checks for failed members) and leaves once the
 * engine is closed or {@link #stop} was called. A daemon thread, started by the first submit.
 *
 * <p>Threads: {@link #submit} and {@link #stop} from any thread, handlers included.
 */
final class ServiceThread implements Runnable {
    static final long TICK_MILLIS = 200;

    private final String name;
    private final ProgressEngine engine;
    private final Runnable tick;
    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean stopped;
    private volatile Thread thread;

    ServiceThread(String name, ProgressEngine engine, Runnable tick) {
        this.name = name;
        this.engine = engine;
        this.tick = tick;
    }

    /** Queues a task (never blocks) and starts the thread if this is the first. */
    void submit(Runnable task) {
        tasks.add(task);
        if (!started.get() && started.compareAndSet(false, true)) {
            Thread t = new Thread(this, name);
            t.setDaemon(true);
            thread = t;
            t.start();
        }
    }

    /** Lets the thread finish the task it is running, then the tasks already queued, and leave. */
    void stop() {
        stopped = true;
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            tasks.add(() -> { }); // wakes it now rather than at the next tick
        }
    }

    boolean isCurrentThread() {
        return Thread.currentThread() == thread;
    }

    @Override
    public void run() {
        while (!stopped && !engine.isClosed()) {
            Runnable task;
            try {
                task = tasks.poll(TICK_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (task == null && stopped) {
                break;
            }
            runSafely(task != null ? task : tick);
        }
        // Tasks queued before stop still run (a stopping group server answers each request that it
        // is being destroyed), so that no caller waits for a reply that never comes.
        Runnable task;
        while (!engine.isClosed() && (task = tasks.poll()) != null) {
            runSafely(task);
        }
    }

    private void runSafely(Runnable task) {
        if (task == null) {
            return;
        }
        try {
            task.run();
        } catch (RuntimeException e) {
            if (!engine.isClosed()) {
                // A service must outlive one bad request; the caller hears of it by its reply.
                System.err.println("cohort: DECK service " + name + ": " + e);
            }
        }
    }
}

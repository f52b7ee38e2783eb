package io.cohort.collective;

import io.cohort.CohortException;
import io.cohort.Message;
import io.cohort.Request;
import io.cohort.Status;
import io.cohort.profile.Profiling;
import io.cohort.profile.WaitSpan;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs nonblocking collectives one after another, in the order they were started, on one daemon
 * thread (named {@code <prefix><rank>}, created on first use). Blocking collectives {@link #drain()}
 * it first, so collectives run in the same global order on every peer; the thread ends at
 * {@link #close()}. Public for layers over the API that run their own nonblocking forms of
 * blocking collectives the same way (cohort-mpi's {@code iGather}, {@code iScan}, ...).
 *
 * <p>Threads: {@link #submit} and {@link #drain} from any thread; requests may be waited on by any thread.
 */
public final class NonblockingRunner implements AutoCloseable {
    private final int rank;
    private final String threadName;
    /** Created on first submit; guarded by this. */
    private ExecutorService executor;
    /**
     * The last task submitted (each runs after the one before); written under this object's lock,
     * volatile so that {@link #drain()}, which every blocking collective calls, reads it without.
     */
    private volatile CompletableFuture<Void> last = CompletableFuture.completedFuture(null);
    private boolean closed;

    NonblockingRunner(int rank) {
        this(rank, "cohort-coll-");
    }

    /** A runner for the peer of this {@code rank} whose thread is named {@code threadPrefix + rank}. */
    public NonblockingRunner(int rank, String threadPrefix) {
        this.rank = rank;
        this.threadName = threadPrefix + rank;
    }

    /** Whether every collective submitted so far has finished. */
    public boolean idle() {
        return last.isDone();
    }

    /**
     * Runs {@code task} after every one submitted before it; its request completes when it has run.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    public synchronized Request submit(Runnable task) {
        if (closed) {
            throw new IllegalStateException("these collectives are closed (their communicator is); no nonblocking collective can start");
        }
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
        }
        CompletableFuture<Void> f = CompletableFuture.runAsync(task, executor);
        last = f;
        return new CollectiveRequest(f, rank);
    }

    /** Waits until every collective submitted so far has finished (failures stay with their requests). */
    public void drain() {
        CompletableFuture<Void> f = last;
        if (f.isDone()) {
            return;
        }
        try {
            f.handle((v, e) -> null).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CohortException("interrupted while waiting for earlier nonblocking collectives");
        } catch (ExecutionException e) {
            throw new IllegalStateException("unreachable: handle() absorbed the failure", e);
        }
    }

    /** Lets the submitted collectives finish, then ends the thread. */
    @Override
    public void close() {
        ExecutorService e;
        synchronized (this) {
            closed = true;
            e = executor;
        }
        drain();
        if (e != null) {
            e.shutdown();
            try {
                e.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * A nonblocking collective in progress: await, test, isDone; {@link #message()} is null. Only
     * the program holds one, so its waits and tests are the program's: each records a Wait event.
     */
    static final class CollectiveRequest implements io.cohort.engine.FutureRequest {
        private final CompletableFuture<Void> future;
        private final int rank;

        CollectiveRequest(CompletableFuture<Void> future, int rank) {
            this.future = future;
            this.rank = rank;
        }

        @Override
        public CompletableFuture<?> completion() {
            return future;
        }

        private Status done() {
            return new Status(rank, 0, 0);
        }

        private static RuntimeException rethrow(Throwable cause) {
            if (cause instanceof RuntimeException r) {
                return r;
            }
            if (cause instanceof Error e) {
                throw e;
            }
            return new CohortException("nonblocking collective failed: " + cause, cause);
        }

        @Override
        public Status await() {
            WaitSpan wait = Profiling.startWait();
            try {
                future.join();
            } catch (CompletionException e) {
                throw rethrow(e.getCause());
            } finally {
                if (wait != null) {
                    wait.finish("await", 1);
                }
            }
            return done();
        }

        @Override
        public Status await(Duration timeout) throws TimeoutException {
            WaitSpan wait = Profiling.startWait();
            try {
                future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw rethrow(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CohortException("interrupted while waiting for a nonblocking collective");
            } finally {
                if (wait != null) {
                    wait.finish("await", 1);
                }
            }
            return done();
        }

        @Override
        public boolean test() {
            WaitSpan wait = Profiling.startWait();
            boolean done = future.isDone();
            if (wait != null) {
                wait.finish("test", 1);
            }
            return done;
        }

        @Override
        public boolean isDone() {
            return future.isDone();
        }

        /** Collectives carry no message: always null. */
        @Override
        public Message message() {
            return null;
        }
    }
}

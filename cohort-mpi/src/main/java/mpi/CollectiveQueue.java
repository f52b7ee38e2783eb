package mpi;

import io.cohort.CohortException;
import io.cohort.Message;
import io.cohort.Request;
import io.cohort.Status;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one communicator's nonblocking collectives that Cohort has no nonblocking form of
 * (iGather, iScan, ...) as Cohort's blocking ones, one after another in the order the program
 * started them, on a daemon thread {@code cohort-mpi-coll-<rank>} made on first use. Every
 * blocking collective of the communicator {@link #drain drains} it first, and Cohort's own
 * nonblocking forms are used only while it is {@link #idle}: so each peer starts the
 * communicator's collectives in its program order, which is what makes them match.
 *
 * <p>Threads: any thread may submit, drain or wait on a request.
 */
final class CollectiveQueue {
    private final int rank;
    private ExecutorService executor; // guarded by this
    private CompletableFuture<Void> last = CompletableFuture.completedFuture(null); // guarded by this
    private boolean closed; // guarded by this

    CollectiveQueue(int rank) {
        this.rank = rank;
    }

    synchronized boolean idle() {
        return last.isDone();
    }

    synchronized Request submit(Runnable task) {
        if (closed) {
            throw new IllegalStateException("the communicator is freed or MPI is finalized; no collective can start");
        }
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "cohort-mpi-coll-" + rank);
                t.setDaemon(true);
                return t;
            });
        }
        CompletableFuture<Void> f = CompletableFuture.runAsync(task, executor);
        last = f;
        return new FutureRequest(f, rank);
    }

    /** Waits until every collective submitted so far has finished (their failures stay with their requests). */
    void drain() {
        CompletableFuture<Void> f;
        synchronized (this) {
            f = last;
        }
        if (!f.isDone()) {
            f.handle((v, e) -> null).join();
        }
    }

    /** Lets the submitted collectives finish, then ends the thread. */
    void close() {
        ExecutorService e;
        synchronized (this) {
            closed = true;
            e = executor;
        }
        drain();
        if (e != null) {
            e.shutdown();
        }
    }

    /** A collective running on the queue's thread, as a Cohort request. */
    static final class FutureRequest implements Request {
        private final CompletableFuture<Void> future;
        private final int rank;

        FutureRequest(CompletableFuture<Void> future, int rank) {
            this.future = future;
            this.rank = rank;
        }

        private static RuntimeException unwrap(Throwable cause) {
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
            try {
                future.join();
            } catch (CompletionException e) {
                throw unwrap(e.getCause());
            }
            return new Status(rank, 0, 0);
        }

        @Override
        public Status await(Duration timeout) throws TimeoutException {
            try {
                future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw unwrap(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CohortException("interrupted while waiting for a nonblocking collective");
            }
            return new Status(rank, 0, 0);
        }

        @Override
        public boolean test() {
            return future.isDone();
        }

        @Override
        public boolean isDone() {
            return future.isDone();
        }

        @Override
        public Message message() {
            return null;
        }
    }
}

package io.cohort.engine;

import io.cohort.Request;
import io.cohort.profile.Profiling;
import io.cohort.profile.WaitSpan;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * Waiting on several requests at once, for {@link Request#awaitAll}, {@link Request#awaitAny} and
 * {@link Request#testAll}. A call on the program's requests records one Wait event for the
 * profiler (the awaits and tests it makes on the way record none; the messages it hands over record
 * their instant Receive events); the collectives call the same methods on the library's own
 * requests, and those record nothing.
 */
public final class RequestWaiter {
    private RequestWaiter() {
    }

    /** Waits for all requests; the first failure is thrown after all have completed. */
    public static void awaitAll(List<? extends Request> requests) {
        WaitSpan wait = start(requests);
        RuntimeException first = null;
        try {
            for (Request r : requests) {
                try {
                    r.await();
                } catch (RuntimeException e) {
                    if (first == null) {
                        first = e;
                    }
                }
            }
        } finally {
            if (wait != null) {
                wait.finish("awaitAll", requests.size());
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Waits until at least one request has completed. */
    public static void awaitAny(List<? extends Request> requests) {
        WaitSpan wait = start(requests);
        try {
            for (Request r : requests) {
                if (r.isDone()) {
                    return;
                }
            }
            AbstractRequest engineRequest = null;
            boolean allFutures = true;
            for (Request r : requests) {
                AbstractRequest a = engineRequest(r);
                if (a != null && engineRequest == null) {
                    engineRequest = a;
                }
                allFutures &= r instanceof FutureRequest;
            }
            if (allFutures) {
                CompletableFuture<?>[] futures = new CompletableFuture<?>[requests.size()];
                for (int i = 0; i < futures.length; i++) {
                    futures[i] = ((FutureRequest) requests.get(i)).completion();
                }
                CompletableFuture.anyOf(futures).exceptionally(RequestWaiter::ignore).join();
            } else if (engineRequest != null) {
                // The engine's wait loop checks every request of the list, so a collective among them
                // is seen once done; its waiters are woken whenever the progress owner leaves.
                engineRequest.engine.waitAny(requests);
            } else {
                pollAny(requests); // requests of no engine (the program's own kind of Request)
            }
        } finally {
            if (wait != null) {
                wait.finish("awaitAny", requests.size());
            }
        }
    }

    private static Object ignore(Throwable failure) {
        return null; // a request that failed is done: its own await reports the failure
    }

    /** Waits for one of requests no engine drives, testing them with a backoff up to a millisecond. */
    private static void pollAny(List<? extends Request> requests) {
        long park = 1_000;
        while (true) {
            for (Request r : requests) {
                if (r.test()) {
                    return;
                }
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new io.cohort.CohortException("interrupted while waiting for communication");
            }
            LockSupport.parkNanos(park);
            park = Math.min(1_000_000, park * 2);
        }
    }

    /** Tests every request once; true if all have completed. */
    public static boolean testAll(List<? extends Request> requests) {
        WaitSpan wait = start(requests);
        try {
            boolean all = true;
            for (Request r : requests) {
                all &= r.test();
            }
            return all;
        } finally {
            if (wait != null) {
                wait.finish("testAll", requests.size());
            }
        }
    }

    /** A Wait event whose inner awaits record none, if waits are recorded and some request is the program's. */
    private static WaitSpan start(List<? extends Request> requests) {
        if (!Profiling.waitsRecorded() || !anyOfTheProgram(requests)) {
            return null;
        }
        return Profiling.startEnclosingWait();
    }

    /** Requests the engine made for the library carry no user operation; any other kind is the program's (a nonblocking collective's). */
    private static boolean anyOfTheProgram(List<? extends Request> requests) {
        for (Request r : requests) {
            AbstractRequest a = engineRequest(r);
            if (a == null || a.userOperation != null) {
                return true;
            }
        }
        return false;
    }

    /** The engine's request under {@code r} (a communicator's translation unwrapped), or null. */
    static AbstractRequest engineRequest(Request r) {
        Request q = r instanceof TranslatedRequest t ? t.inner() : r;
        return q instanceof AbstractRequest a ? a : null;
    }
}

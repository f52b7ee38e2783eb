package mpi;

import io.cohort.mpi.support.Completions;
import io.cohort.mpi.support.RequestSlots;

import java.util.ArrayList;
import java.util.List;

/**
 * A nonblocking operation in progress, over a Cohort {@link io.cohort.Request}. When a wait or a
 * test finds it complete, received data is in the program's array (a nonblocking receive is
 * decoded into it at that moment) and the request becomes inactive: {@link #Is_null()} is then
 * true, as for {@link MPI#REQUEST_NULL}; a {@link Prequest} is never null (this API cannot free
 * it) and can be started again.
 *
 * <p>Threads: as MPI's requests; one thread at a time per request.
 */
public class Request {
    /** What to do once the operation completed: decode a received message into the array. */
    @FunctionalInterface
    interface Completion {
        Status complete(io.cohort.Status status);
    }

    /** The operation, or null when the request is inactive. */
    io.cohort.Request inner;
    private Completion completion;
    private java.util.function.IntUnaryOperator ranks = java.util.function.IntUnaryOperator.identity();
    /** The status of an operation that completed at once (PROC_NULL), until it is waited for. */
    private Status done;

    Request(io.cohort.Request inner) {
        this.inner = inner;
    }

    Request(io.cohort.Request inner, Completion completion) {
        this.inner = inner;
        this.completion = completion;
    }

    /** A request that is already complete with {@code status} (operations on MPI.PROC_NULL). */
    static Request completed(Status status) {
        Request r = new Request(null);
        r.done = status;
        return r;
    }

    /** How errors name a sender: by {@code ranks} of its Cohort rank (an inter-communicator's translation). */
    void ranks(java.util.function.IntUnaryOperator ranks) {
        this.ranks = ranks;
    }

    void start(io.cohort.Request inner, Completion completion) {
        this.inner = inner;
        this.completion = completion;
        this.done = null;
    }

    void startCompleted(Status status) {
        this.inner = null;
        this.completion = null;
        this.done = status;
    }

    private boolean active() {
        return inner != null || done != null;
    }

    private boolean isDone() {
        return inner == null || inner.isDone();
    }

    /** Completes an operation whose inner request is done (or waits for it): its status, its data in the array. */
    private Status finish(int index) {
        if (inner == null) {
            Status s = done != null ? done : new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, -1);
            done = null;
            return s.withIndex(index);
        }
        io.cohort.Request r = inner;
        try {
            io.cohort.Status s = r.await();
            Completion c = completion;
            completion = null;
            inner = null;
            if (s.cancelled()) {
                Status cancelled = new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, 0); // nothing arrived: the array is as it was
                cancelled.cancelled = true;
                return cancelled.withIndex(index);
            }
            Status out = c != null ? c.complete(s) : new Status(s.source(), s.tag(), s.length(), -1);
            return out.withIndex(index);
        } catch (MPIException e) {
            inner = null;
            throw e;
        } catch (RuntimeException e) {
            inner = null;
            throw Errors.of(e, "Request.Wait", ranks);
        }
    }

    /** Waits for the operation; returns its status and makes the request inactive. */
    public Status Wait() throws MPIException {
        return finish(-1);
    }

    /** The status if the operation has completed (the request becomes inactive), else null. */
    public Status Test() throws MPIException {
        if (inner != null && !inner.test()) {
            return null;
        }
        return finish(-1);
    }

    /**
     * Whether this is a null request: {@link MPI#REQUEST_NULL}, or a nonpersistent request whose
     * operation a wait or test has completed. A persistent request is a request, started or not.
     */
    public boolean Is_null() throws MPIException {
        return !active() && !persistent();
    }

    /** Whether the request outlives its operations (a persistent one). */
    boolean persistent() {
        return false;
    }

    /**
     * Marks the operation for cancellation: a receive that no message has matched yet is withdrawn
     * and completes at once, its status {@link Status#Test_cancelled() cancelled}. A send or a
     * matched receive is not cancelled and completes as it would have (MPI permits that). Either way
     * the request must still be completed with a Wait or a Test.
     */
    public void Cancel() throws MPIException {
        io.cohort.Request r = inner;
        if (r != null) {
            r.cancel();
        }
    }

    /** Nothing to release. */
    @Override
    @SuppressWarnings({"deprecation", "removal"})
    public void finalize() throws MPIException {
    }

    // ---- arrays of requests ------------------------------------------------------------------

    private static boolean active(Request r) {
        return r != null && r.active();
    }

    /** The array as the shared waiting sees it. */
    private static RequestSlots slots(Request[] requests) {
        return new RequestSlots() {
            @Override
            public int count() {
                return requests.length;
            }

            @Override
            public boolean active(int i) {
                return Request.active(requests[i]);
            }

            @Override
            public io.cohort.Request inner(int i) {
                return requests[i].inner;
            }
        };
    }

    /**
     * Waits for one of the requests; returns its status, whose {@link Status#index} is its
     * position, and makes it inactive. With no active request, a status whose index is
     * {@link MPI#UNDEFINED}.
     */
    public static Status Waitany(Request[] array_of_requests) throws MPIException {
        int i = awaitOne(array_of_requests);
        if (i == MPI.UNDEFINED) {
            return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.UNDEFINED);
        }
        return array_of_requests[i].finish(i);
    }

    /**
     * Tests the requests once: the status of one that completed (now inactive; its index is its
     * position), or null if none did. With no active request, a status whose index is UNDEFINED.
     */
    public static Status Testany(Request[] array_of_requests) throws MPIException {
        int i = Completions.testOne(slots(array_of_requests));
        if (i == Completions.NOT_YET) {
            return null;
        }
        if (i == Completions.NONE_ACTIVE) {
            return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.UNDEFINED);
        }
        return array_of_requests[i].finish(i);
    }

    /** Waits for all the requests; their statuses in order (an inactive one's is empty). */
    public static Status[] Waitall(Request[] array_of_requests) throws MPIException {
        Status[] out = new Status[array_of_requests.length];
        MPIException first = null;
        for (int i = 0; i < array_of_requests.length; i++) {
            Request r = array_of_requests[i];
            try {
                out[i] = active(r) ? r.finish(i) : new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, i);
            } catch (MPIException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    /** The statuses if all the requests have completed (all become inactive), else null and none changes. */
    public static Status[] Testall(Request[] array_of_requests) throws MPIException {
        return Completions.testAll(slots(array_of_requests)) ? Waitall(array_of_requests) : null;
    }

    /**
     * Waits until at least one request completes; the statuses of all that completed (indexes
     * set). With no active request, an empty array at once (as MPJ Express's Testsome; programs
     * read its length).
     */
    public static Status[] Waitsome(Request[] array_of_requests) throws MPIException {
        if (awaitOne(array_of_requests) == MPI.UNDEFINED) {
            return new Status[0];
        }
        return completedNow(array_of_requests);
    }

    /** The statuses of the requests that have completed now: an empty array if none did, or none is active. */
    public static Status[] Testsome(Request[] array_of_requests) throws MPIException {
        return Completions.testEach(slots(array_of_requests)) ? completedNow(array_of_requests) : new Status[0];
    }

    private static Status[] completedNow(Request[] requests) {
        List<Status> out = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (active(r) && r.isDone()) {
                out.add(r.finish(i));
            }
        }
        return out.toArray(new Status[0]);
    }

    /** Waits until some active request is done; returns its index, or UNDEFINED if none is active. */
    private static int awaitOne(Request[] requests) {
        int i = Errors.call("Request.Waitany", null, () -> Completions.awaitOne(slots(requests)));
        return i == Completions.NONE_ACTIVE ? MPI.UNDEFINED : i;
    }
}

package mpi;

import io.cohort.mpi.support.Completions;
import io.cohort.mpi.support.RequestSlots;

import java.util.ArrayList;
import java.util.List;

/**
 * A nonblocking operation in progress, over a Cohort {@link io.cohort.Request}. When a wait or a
 * test finds it complete, the received data is in the program's buffer (a receive into an array
 * or a typed buffer is copied there at that moment), and the request becomes inactive: it is then
 * {@link #isNull() null}, as {@link MPI#REQUEST_NULL} is, except a persistent request
 * ({@link Prequest}), which stays a request to start again until it is freed.
 *
 * <p>Threads: as MPI's requests; one thread at a time per request.
 */
public class Request implements Freeable {
    /** What to do once the operation completed: copy a received message into the buffer. */
    @FunctionalInterface
    interface Completion {
        void complete(io.cohort.Status status) throws MPIException;
    }

    /** The operation, or null when the request is inactive. */
    io.cohort.Request inner;
    private Completion completion;
    /** The communicator whose error handler applies; null for MPI.REQUEST_NULL. */
    Comm comm;
    /** Whether {@link #inner} is a point-to-point request of the engine (Cohort's awaitAny works on those). */
    boolean engine;
    /** The status of a completed operation until the request is freed or restarted. */
    private Status done;

    Request(io.cohort.Request inner, Comm comm, boolean engine, Completion completion) {
        this.inner = inner;
        this.comm = comm;
        this.engine = engine;
        this.completion = completion;
    }

    /** A request that is already complete with {@code status} (PROC_NULL operations). */
    static Request completed(Comm comm, Status status) {
        Request r = new Request(null, comm, true, null);
        r.done = status;
        return r;
    }

    void start(io.cohort.Request inner, boolean engine, Completion completion) {
        this.inner = inner;
        this.engine = engine;
        this.completion = completion;
        this.done = null;
    }

    /** Starts an operation that is complete at once with {@code status} (a persistent one with PROC_NULL). */
    void startCompleted(Status status) {
        this.inner = null;
        this.completion = null;
        this.done = status;
    }

    private Errhandler handler() {
        return comm != null ? comm.errhandler() : MPI.worldErrhandler();
    }

    /** Whether the operation has completed, without waiting (driving no progress). */
    boolean isDone() {
        return inner == null || inner.isDone();
    }

    /**
     * Completes an operation whose inner request is done: its status, its data in the buffer.
     * Returns the status and makes the request inactive.
     */
    private Status finish(int index) throws MPIException {
        if (inner == null) {
            Status s = done != null ? done : Status.empty(index);
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
                return Status.cancelled(index); // nothing arrived: the buffer is as it was
            }
            if (c != null) {
                c.complete(s);
            }
            return new Status(comm == null ? s.source() : comm.in(s.source()), s.tag(), s.length(), index);
        } catch (MPIException e) {
            inner = null;
            throw Errors.handle(handler(), e);
        } catch (RuntimeException | Error e) {
            inner = null;
            throw Errors.handle(handler(), Errors.of(e, "request", comm == null ? r0 -> r0 : comm::in));
        }
    }

    /** Waits for the operation and returns its status; the request becomes inactive. */
    public final Status waitStatus() throws MPIException {
        MPI.check();
        return finish(MPI.UNDEFINED);
    }

    /** Waits for the operation; the request becomes inactive. */
    public final void waitFor() throws MPIException {
        waitStatus();
    }

    /** The status if the operation has completed (the request becomes inactive), else null. */
    public final Status testStatus() throws MPIException {
        MPI.check();
        if (inner != null && !inner.test()) {
            return null;
        }
        return finish(MPI.UNDEFINED);
    }

    /** Whether the operation has completed; if so the request becomes inactive. */
    public final boolean test() throws MPIException {
        return testStatus() != null;
    }

    /**
     * The status if the operation has completed, else null, leaving the request as it is
     * ({@code MPI_REQUEST_GET_STATUS}). The data of a receive is in its buffer once this is non-null.
     */
    public final Status getStatus() throws MPIException {
        MPI.check();
        if (inner == null) {
            return done != null ? done : Status.empty(MPI.UNDEFINED);
        }
        if (!inner.test()) {
            return null;
        }
        // Completed now (its data is in the buffer); the status is kept so that the request stays
        // active until a wait or test returns it.
        done = finish(MPI.UNDEFINED);
        return done;
    }

    /**
     * Lets the operation finish on its own and frees the request. A receive completes into its
     * buffer only if the buffer is a {@code ByteBuffer} or {@code byte[]} of a contiguous type;
     * others need a wait or test to copy the data in.
     */
    @Override
    public void free() throws MPIException {
        inner = null;
        completion = null;
        done = null;
    }

    /**
     * Marks the operation for cancellation: a receive that no message has matched yet is withdrawn
     * and completes at once, its status {@link Status#isCancelled() cancelled}. A send, a matched
     * receive or a collective is not cancelled and completes as it would have (MPI permits that).
     * Either way the request must still be completed with a wait, a test or {@link #free()}.
     */
    public final void cancel() throws MPIException {
        MPI.check();
        io.cohort.Request r = inner;
        if (r != null) {
            r.cancel();
        }
    }

    /**
     * Whether this is a null request: {@link MPI#REQUEST_NULL}, freed, or a nonpersistent request
     * whose operation a wait or test has completed. A persistent request is null only once freed.
     */
    public final boolean isNull() {
        return !active() && !persistent();
    }

    /** Whether an operation was started and no wait or test has returned its completion yet. */
    final boolean active() {
        return inner != null || done != null;
    }

    /** Whether the request outlives its operations (a persistent one, until freed). */
    boolean persistent() {
        return false;
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

            @Override
            public boolean engine(int i) {
                return requests[i].engine;
            }
        };
    }

    /** Waits for one of the requests; returns its index and makes it inactive, or UNDEFINED if none is active. */
    public static int waitAny(Request[] requests) throws MPIException {
        Status s = waitAnyStatus(requests);
        return s.getIndex();
    }

    /** As {@link #waitAny}; the status's {@link Status#getIndex()} is the request's index. */
    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        MPI.check();
        int i = awaitOne(requests);
        if (i == MPI.UNDEFINED) {
            return Status.empty(MPI.UNDEFINED);
        }
        return requests[i].finish(i);
    }

    /** Tests the requests once; the index of one that completed (now inactive), or UNDEFINED. */
    public static int testAny(Request[] requests) throws MPIException {
        Status s = testAnyStatus(requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    /** As {@link #testAny}; null if none completed. */
    public static Status testAnyStatus(Request[] requests) throws MPIException {
        MPI.check();
        int i = Completions.testOne(slots(requests));
        if (i == Completions.NOT_YET) {
            return null;
        }
        return i == Completions.NONE_ACTIVE ? Status.empty(MPI.UNDEFINED) : requests[i].finish(i);
    }

    /** Waits for all the requests; the first failure is raised once all have completed. */
    public static void waitAll(Request[] requests) throws MPIException {
        waitAllStatus(requests);
    }

    /** As {@link #waitAll}, with each request's status (an inactive request's is empty). */
    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        MPI.check();
        Status[] out = new Status[requests.length];
        MPIException first = null;
        for (int i = 0; i < requests.length; i++) {
            try {
                out[i] = requests[i] == null ? Status.empty(i) : requests[i].finish(i);
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

    /** Whether all the requests have completed; if so they all become inactive, else none changes. */
    public static boolean testAll(Request[] requests) throws MPIException {
        return testAllStatus(requests) != null;
    }

    /** As {@link #testAll}: the statuses if all completed, else null. */
    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        MPI.check();
        return Completions.testAll(slots(requests)) ? waitAllStatus(requests) : null;
    }

    /** Waits until at least one request completes; the indexes of all that completed, or null if none is active. */
    public static int[] waitSome(Request[] requests) throws MPIException {
        Status[] s = waitSomeStatus(requests);
        return s == null ? null : indexes(s);
    }

    /** As {@link #waitSome}, with statuses. */
    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        MPI.check();
        if (awaitOne(requests) == MPI.UNDEFINED) {
            return null;
        }
        return completedNow(requests);
    }

    /** The indexes of the requests that have completed now (an empty array if none), or null if none is active. */
    public static int[] testSome(Request[] requests) throws MPIException {
        Status[] s = testSomeStatus(requests);
        return s == null ? null : indexes(s);
    }

    /** As {@link #testSome}, with statuses. */
    public static Status[] testSomeStatus(Request[] requests) throws MPIException {
        MPI.check();
        return Completions.testEach(slots(requests)) ? completedNow(requests) : null;
    }

    private static Status[] completedNow(Request[] requests) throws MPIException {
        List<Status> out = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (active(r) && r.isDone()) {
                out.add(r.finish(i));
            }
        }
        return out.toArray(new Status[0]);
    }

    private static int[] indexes(Status[] s) {
        int[] out = new int[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = s[i].getIndex();
        }
        return out;
    }

    /**
     * Waits until some active request is done; returns its index, or UNDEFINED if none is active.
     * Point-to-point requests wait in Cohort's engine; with nonblocking collectives among them the
     * requests are tested in turn ({@link Completions#awaitAny}).
     */
    private static int awaitOne(Request[] requests) {
        int i = Completions.awaitOne(slots(requests));
        return i == Completions.NONE_ACTIVE ? MPI.UNDEFINED : i;
    }
}

package io.cohort.engine;

import io.cohort.CohortException;
import io.cohort.Message;
import io.cohort.MessageTruncatedException;
import io.cohort.PeerClosedException;
import io.cohort.PeerFailedException;
import io.cohort.Request;
import io.cohort.Status;
import io.cohort.profile.Profiling;
import io.cohort.profile.WaitSpan;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/** State and completion shared by send and receive requests. */
public abstract class AbstractRequest implements Request {
    static final int PENDING = 0;
    static final int DONE = 1;
    static final int FAILED = 2;

    /** A field updater, not a VarHandle: no method-handle linking at a peer's start-up (see CasLock). */
    private static final AtomicIntegerFieldUpdater<AbstractRequest> STATE =
            AtomicIntegerFieldUpdater.newUpdater(AbstractRequest.class, "state");

    final ProgressEngine engine;
    /** Written with setVolatile after the result fields, read with getAcquire: publishes them. */
    private volatile int state; // PENDING; no initialiser, which would be a volatile store in every constructor
    private Status status;
    private RuntimeException failure;
    /**
     * The only thread that can wait on this request: the caller of a blocking operation for the
     * request's whole life (the request never leaves it), the caller of a nonblocking one while the
     * starting call runs; null once the request is the program's. Another thread can never see
     * itself here, so only that thread takes the shortcut in {@link #finish}.
     */
    Thread soleThread;
    /** The thread about to block or blocked in a wait on this request, to unpark on completion; null while it spins. */
    volatile Thread waiter;
    /**
     * The message's number for its peer ({@link MessageSequences}): a send's when it was handed to
     * the transport, a receive's when its message arrived; -1 before. Written before completion,
     * which publishes it.
     */
    long sequence = -1;
    /**
     * The API call that gave this request to the program ({@code "isend"}, {@code "irecv"}), or null
     * for the library's own requests (collectives, DECK, blocking calls). Only the program's waits
     * and tests are recorded for the profiler, so the library's own never pay for it.
     */
    String userOperation;

    AbstractRequest(ProgressEngine engine) {
        this.engine = engine;
    }

    /**
     * Marks this request the program's, given by the API call {@code operation} ({@code "isend"},
     * {@code "irecv"}): its waits and tests are then recorded for the profiler. The communicator
     * calls it once, before it hands the request over.
     */
    public final void userOperation(String operation) {
        userOperation = operation;
    }

    /** Made once per request object (requests of blocking calls are reused): see {@link #doneCondition}. */
    private java.util.function.BooleanSupplier doneCondition;

    /** This request's completion as a condition for the wait loop (a class, not a method reference, for start-up). */
    final java.util.function.BooleanSupplier doneCondition() {
        java.util.function.BooleanSupplier d = doneCondition;
        if (d == null) {
            d = new java.util.function.BooleanSupplier() {
                @Override
                public boolean getAsBoolean() {
                    return isComplete();
                }
            };
            doneCondition = d;
        }
        return d;
    }

    /**
     * Makes a finished request of a blocking call new again, for the next blocking call of the same
     * thread: the message path then allocates nothing but the status it returns. Only for requests
     * that never left their thread and are done (nothing refers to them any more).
     */
    void recycle() {
        status = null;
        failure = null;
        // Release (lazySet), not volatile: the request is this thread's alone; whoever gets it next
        // (a transport or the matching) gets it through a lock or a queue that publishes it.
        STATE.lazySet(this, PENDING);
    }

    /** Whether the request has completed; the library's own check, which the program's {@link #isDone} adds to. */
    final boolean isComplete() {
        // A volatile read: an acquire, which is all x86 and AArch64 need here.
        return state != PENDING;
    }

    @Override
    public boolean isDone() {
        if (state == PENDING) {
            return false;
        }
        if (userOperation != null && state == DONE) {
            handOver(status); // the program sees the completion here (awaitAny polls this way too)
        }
        return true;
    }

    /** The sequence number of this request's message ({@link #sequence}), or -1 if it has none yet. */
    public final long sequence() {
        return sequence;
    }

    /**
     * The program is seeing this request complete with {@code s}: a receive records its message's
     * Receive event, once (overridden by {@link RecvRequest}); a send records nothing.
     */
    void handOver(Status s) {
    }

    final void complete(Status s) {
        this.status = s;
        finish(DONE);
    }

    final void fail(RuntimeException cause) {
        this.failure = cause;
        finish(FAILED);
    }

    private void finish(int newState) {
        if (soleThread == Thread.currentThread()) {
            // The only thread that can wait on this request is finishing it, so nobody is blocked on it.
            // Release: the result is published to whoever reads the state later.
            STATE.lazySet(this, newState);
            return;
        }
        // Volatile, not just release: the result written before is published (release), and the read
        // of the waiter below cannot move above this store, so a waiter that announced itself and then
        // saw PENDING is seen here and unparked (Dekker's handshake with ProgressEngine.Waiter.block).
        state = newState;
        Thread w = waiter;
        if (w != null && w != Thread.currentThread()) {
            LockSupport.unpark(w);
            engine.wakeOwnerIfBlocked(w);
        }
    }

    @Override
    public Status await() {
        if (userOperation != null) {
            return awaitRecorded(Long.MAX_VALUE);
        }
        if (!isComplete()) {
            engine.waitFor(this);
        }
        return result();
    }

    /** Waits like {@link #await()} and throws its failure, but builds no status (a blocking send needs none). */
    final void awaitDone() {
        if (!isComplete()) {
            engine.waitFor(this);
        }
        if (state == FAILED) {
            throw rethrowable(failure);
        }
    }

    @Override
    public Status await(Duration timeout) throws TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (userOperation != null) {
            Status s = awaitRecorded(deadline);
            if (s == null) {
                throw new TimeoutException("request not complete after " + timeout);
            }
            return s;
        }
        if (!isComplete() && !engine.waitFor(this, deadline)) {
            throw new TimeoutException("request not complete after " + timeout);
        }
        return result();
    }

    /**
     * The program's wait on its own request, recorded for the profiler if a recording wants it: a
     * Wait event for the call, and the Receive of a message it hands over. Returns null on time-out.
     */
    private Status awaitRecorded(long deadlineNanos) {
        WaitSpan wait = Profiling.startWait();
        try {
            if (!isComplete()) {
                boolean done = deadlineNanos == Long.MAX_VALUE ? waitForever() : engine.waitFor(this, deadlineNanos);
                if (!done && !isComplete()) { // it may have completed just after the deadline
                    return null;
                }
            }
            Status s = result();
            handOver(s);
            return s;
        } finally {
            if (wait != null) {
                wait.finish("await", 1);
            }
        }
    }

    private boolean waitForever() {
        engine.waitFor(this);
        return true;
    }

    @Override
    public boolean test() {
        if (userOperation != null) {
            return testRecorded();
        }
        if (!isComplete()) {
            engine.progressOnce();
        }
        return isComplete();
    }

    private boolean testRecorded() {
        WaitSpan wait = Profiling.startWait();
        try {
            if (!isComplete()) {
                engine.progressOnce();
            }
            if (state == PENDING) {
                return false;
            }
            if (state == DONE) {
                handOver(status);
            }
            return true;
        } finally {
            if (wait != null) {
                wait.finish("test", 1);
            }
        }
    }

    final Status result() {
        if (state == FAILED) {
            throw rethrowable(failure);
        }
        Status s = status;
        return s != null ? s : statusOnDemand();
    }

    /** The status of a request completed without one (a send builds it only if asked). */
    Status statusOnDemand() {
        return null;
    }

    @Override
    public Message message() {
        throw new IllegalStateException("only a receive without a user buffer carries a message");
    }

    /** A fresh exception of the same kind, so the stack trace shows the waiting call, not the progress thread. */
    static RuntimeException rethrowable(RuntimeException f) {
        if (f instanceof PeerFailedException p) {
            PeerFailedException copy = new PeerFailedException(p.peer(), p.getMessage());
            return copy;
        }
        if (f instanceof PeerClosedException c) {
            return new PeerClosedException(c.peer(), c.getMessage());
        }
        if (f instanceof MessageTruncatedException t) {
            return t;
        }
        if (f instanceof CohortException) {
            return new CohortException(f.getMessage(), f);
        }
        return f;
    }
}

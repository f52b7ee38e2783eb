package io.cohort.engine;

import io.cohort.CohortException;
import io.cohort.Message;
import io.cohort.MessageTruncatedException;
import io.cohort.PeerFailedException;
import io.cohort.Request;
import io.cohort.Status;

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

    AbstractRequest(ProgressEngine engine) {
        this.engine = engine;
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
                    return isDone();
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

    @Override
    public boolean isDone() {
        // A volatile read: an acquire, which is all x86 and AArch64 need here.
        return state != PENDING;
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
        if (!isDone()) {
            engine.waitFor(this);
        }
        return result();
    }

    /** Waits like {@link #await()} and throws its failure, but builds no status (a blocking send needs none). */
    final void awaitDone() {
        if (!isDone()) {
            engine.waitFor(this);
        }
        if (state == FAILED) {
            throw rethrowable(failure);
        }
    }

    @Override
    public Status await(Duration timeout) throws TimeoutException {
        if (!isDone() && !engine.waitFor(this, System.nanoTime() + timeout.toNanos())) {
            throw new TimeoutException("request not complete after " + timeout);
        }
        return result();
    }

    @Override
    public boolean test() {
        if (!isDone()) {
            engine.progressOnce();
        }
        return isDone();
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
        if (f instanceof MessageTruncatedException t) {
            return t;
        }
        if (f instanceof CohortException) {
            return new CohortException(f.getMessage(), f);
        }
        return f;
    }
}

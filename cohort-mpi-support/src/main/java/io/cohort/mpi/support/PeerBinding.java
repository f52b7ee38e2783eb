package io.cohort.mpi.support;

import java.util.function.Supplier;

/**
 * Which MPI state (of type {@code P}) the calling thread belongs to. A launched peer has one state
 * for the whole process; in-JVM tests run several peers as threads of one JVM, each bound to its
 * own, because an MPI API's {@code MPI.COMM_WORLD} is one static object that must find the calling
 * peer's world.
 *
 * <p>Threads: a binding is inherited by threads the bound thread starts; the process-wide state is
 * published once, under this object's lock.
 */
public final class PeerBinding<P> {
    private final InheritableThreadLocal<P> bound = new InheritableThreadLocal<>();
    /** Whether any thread was ever bound: launched peers skip the thread-local lookup. */
    private volatile boolean anyBound;
    private volatile P process;

    /** The calling thread's state, or null before one was made. */
    public P current() {
        if (anyBound) {
            P p = bound.get();
            if (p != null) {
                return p;
            }
        }
        return process;
    }

    /** Binds the calling thread (and threads it starts) to {@code p}. */
    public void bind(P p) {
        anyBound = true;
        bound.set(p);
    }

    public void unbind() {
        bound.remove();
    }

    /** The calling thread's state, made by {@code make} on first use as the process's own. */
    public synchronized P attach(Supplier<P> make) {
        P p = current();
        if (p == null) {
            p = make.get();
            process = p;
        }
        return p;
    }
}

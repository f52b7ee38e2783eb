package mpi;

import io.cohort.Communicator;
import io.cohort.collective.NonblockingRunner;

/**
 * The MPI state of one peer: its world and self communicators and where it is between Init and
 * Finalize. A launched peer has one, for the whole process. In-JVM tests run several peers as
 * threads, each bound to its own ({@link #bind}); {@link MPI#COMM_WORLD}, a single static object
 * as the bindings define it, finds the calling peer's world through {@link #current()}.
 *
 * <p>Threads: the binding is inherited by threads the peer starts; the process-wide instance is
 * published once, under the class lock.
 */
final class Peer {
    private static final InheritableThreadLocal<Peer> BOUND = new InheritableThreadLocal<>();
    /** Whether any thread was ever bound: launched peers skip the thread-local lookup. */
    private static volatile boolean anyBound;
    private static volatile Peer process;

    final Communicator world;
    /** Set at Init: a communicator of this peer alone. */
    volatile Communicator self;
    volatile boolean initialized;
    volatile boolean finalized;
    volatile int threadLevel = MPI.THREAD_SINGLE;
    volatile Thread mainThread;
    /** The world's error handler, which also applies to calls that belong to no communicator. */
    volatile Errhandler worldErrhandler = MPI.ERRORS_ARE_FATAL;
    volatile Errhandler selfErrhandler = MPI.ERRORS_ARE_FATAL;
    /** Orders COMM_WORLD's and COMM_SELF's nonblocking collectives. */
    final NonblockingRunner worldQueue;
    final NonblockingRunner selfQueue;

    Peer(Communicator world) {
        this.world = world;
        this.worldQueue = new NonblockingRunner(world.rank(), Comm.THREAD_PREFIX);
        this.selfQueue = new NonblockingRunner(world.rank(), Comm.THREAD_PREFIX);
    }

    /** The calling thread's peer, or null before Init. */
    static Peer current() {
        if (anyBound) {
            Peer p = BOUND.get();
            if (p != null) {
                return p;
            }
        }
        return process;
    }

    /** Binds the calling thread (and threads it starts) to a peer: for running peers as threads in one JVM. */
    static void bind(Peer p) {
        anyBound = true;
        BOUND.set(p);
    }

    static void unbind() {
        BOUND.remove();
    }

    /** The calling thread's peer, made from Cohort's world on first use in a launched (or plain java) process. */
    static synchronized Peer attach() {
        Peer p = current();
        if (p == null) {
            p = new Peer(io.cohort.Cohort.init());
            process = p;
        }
        return p;
    }
}

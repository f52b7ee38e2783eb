package mpi;

import io.cohort.Communicator;
import io.cohort.mpi.support.PeerBinding;
import io.cohort.collective.NonblockingRunner;

/**
 * The MPI state of one peer: its world and self communicators and where it is between Init and
 * Finalize. A launched peer has one, for the whole process. In-JVM tests run several peers as
 * threads, each bound to its own ({@link #bind}); {@link MPI#COMM_WORLD}, a single static object
 * as the bindings define it, finds the calling peer's world through {@link #current()}.
 *
 * <p>Threads: see {@link PeerBinding}.
 */
final class Peer {
    private static final PeerBinding<Peer> BINDING = new PeerBinding<>();

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
        return BINDING.current();
    }

    /** Binds the calling thread (and threads it starts) to a peer: for running peers as threads in one JVM. */
    static void bind(Peer p) {
        BINDING.bind(p);
    }

    static void unbind() {
        BINDING.unbind();
    }

    /** The calling thread's peer, made from Cohort's world on first use in a launched (or plain java) process. */
    static Peer attach() {
        return BINDING.attach(() -> new Peer(io.cohort.Cohort.init()));
    }
}

package mpi;

import io.cohort.Communicator;
import io.cohort.mpi.support.PeerBinding;

/**
 * The MPI state of one peer: its world and self communicators, its error handler and where it is
 * between Init and Finalize. A launched peer has one, for the whole process. In-JVM tests run
 * several peers as threads, each bound to its own ({@link #bind}); {@link MPI#COMM_WORLD}, one
 * static object as mpiJava defines it, finds the calling peer's world through {@link #current()}.
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
    volatile int threadLevel;
    volatile Thread mainThread;
    volatile Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    /** The buffer Buffer_attach kept. */
    volatile java.nio.ByteBuffer attached;

    Peer(Communicator world) {
        this.world = world;
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

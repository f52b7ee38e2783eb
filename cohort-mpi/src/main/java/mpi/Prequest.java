package mpi;

/**
 * A persistent request ({@code sendInit}, {@code recvInit}, ...): {@link #start()} begins the
 * operation again with the same arguments; a wait or test completes it and leaves it ready for the
 * next start, until {@link #free()}.
 */
public final class Prequest extends Request {
    /** Begins one round of the operation. */
    @FunctionalInterface
    interface Starter {
        void start(Prequest into) throws MPIException;
    }

    private final Starter starter;
    private boolean freed;

    Prequest(Comm comm, Starter starter) {
        super(null, comm, true, null);
        this.starter = starter;
    }

    /** Begins the operation; complete it with one of the wait or test methods. */
    public void start() throws MPIException {
        MPI.check();
        if (freed) {
            throw Errors.handle(comm.errhandler(), Errors.error(MPI.ERR_REQUEST, "start on a freed persistent request"));
        }
        if (inner != null) {
            // Starting it again would orphan the running operation (a receive would take a message unseen).
            throw Errors.handle(comm.errhandler(), Errors.error(MPI.ERR_REQUEST,
                    "start: the persistent request is still active; complete it with waitFor or test first"));
        }
        starter.start(this);
    }

    /** Starts every request of the array. */
    public static void startAll(Prequest[] requests) throws MPIException {
        MPI.check();
        for (Prequest p : requests) {
            p.start();
        }
    }

    @Override
    boolean persistent() {
        return !freed;
    }

    @Override
    public void free() throws MPIException {
        super.free();
        freed = true;
    }
}

package mpi;

/**
 * A persistent request (Send_init, Recv_init ...): {@link #Start()} begins the operation it
 * describes, a wait or a test completes it, and it can be started again.
 *
 * <p>Threads: one thread at a time per request.
 */
public class Prequest extends Request {
    /** Begins the operation once. */
    @FunctionalInterface
    interface Starter {
        void start(Prequest into);
    }

    private final Starter starter;

    Prequest(Starter starter) {
        super(null);
        this.starter = starter;
    }

    @Override
    boolean persistent() {
        return true;
    }

    /** Begins the operation; an active request must first be completed. */
    public void Start() throws MPIException {
        if (inner != null) {
            throw Errors.error("Prequest.Start: the request is still active; complete it with Wait or Test first");
        }
        starter.start(this);
    }

    /** Starts every request of the array. */
    public static void Startall(Prequest[] array_of_requests) throws MPIException {
        for (Prequest r : array_of_requests) {
            if (r != null) {
                r.Start();
            }
        }
    }
}

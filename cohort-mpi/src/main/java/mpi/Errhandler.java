package mpi;

/**
 * What happens when a call on a communicator fails: {@link MPI#ERRORS_ARE_FATAL} (the default)
 * prints the error and ends the job; {@link MPI#ERRORS_RETURN} throws an {@link MPIException} to
 * the caller.
 */
public final class Errhandler implements Freeable {
    private final boolean fatal;

    Errhandler(boolean fatal) {
        this.fatal = fatal;
    }

    boolean isFatal() {
        return fatal;
    }

    /** The predefined handlers need no freeing: a no-op. */
    @Override
    public void free() {
    }

    /** Always false: the predefined handlers are the only ones. */
    public boolean isNull() {
        return false;
    }

    @Override
    public String toString() {
        return fatal ? "ERRORS_ARE_FATAL" : "ERRORS_RETURN";
    }
}

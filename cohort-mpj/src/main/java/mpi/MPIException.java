package mpi;

/**
 * An error in an MPI call. Unchecked, as in MPJ Express (where it is a {@code RuntimeException}
 * too): a program need not catch it. It is thrown only when the error handler is
 * {@link MPI#ERRORS_RETURN}; under {@link MPI#ERRORS_ARE_FATAL}, the default, the process prints
 * the message on one line and exits with status 1.
 */
public class MPIException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MPIException() {
        super();
    }

    public MPIException(String message) {
        super(message);
    }

    public MPIException(Throwable cause) {
        super(cause == null ? null : cause.getMessage() != null ? cause.getMessage() : cause.toString(), cause);
    }

    MPIException(String message, Throwable cause) {
        super(message, cause);
    }
}

package mpi;

/**
 * An MPI call failed. Thrown when the communicator's error handler is {@link MPI#ERRORS_RETURN}
 * (with the default {@link MPI#ERRORS_ARE_FATAL} the job ends instead), and always for calls made
 * before {@link MPI#Init} or after {@link MPI#Finalize}. {@link #getMessage()} is the error string;
 * {@link #getErrorClass()} is one of the {@code MPI.ERR_*} classes.
 */
public final class MPIException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int errorCode;
    private final int errorClass;

    MPIException(int errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorCode = errorClass;
        this.errorClass = errorClass;
    }

    /** An exception of class {@link MPI#ERR_OTHER} with this message. */
    public MPIException(String message) {
        this(MPI.ERR_OTHER, message, null);
    }

    /** An exception of class {@link MPI#ERR_OTHER} caused by {@code cause}. */
    public MPIException(Throwable cause) {
        this(MPI.ERR_OTHER, String.valueOf(cause), cause);
    }

    /** The error code; Cohort uses the error class as the code. */
    public int getErrorCode() {
        return errorCode;
    }

    /** The error class, one of the {@code MPI.ERR_*} constants. */
    public int getErrorClass() {
        return errorClass;
    }
}

package mpi;

import io.cohort.MessageTruncatedException;
import io.cohort.PeerFailedException;

/**
 * Turns failures into MPI errors and applies the error handler: {@link MPI#ERRORS_RETURN} hands
 * the {@link MPIException} back to be thrown, {@link MPI#ERRORS_ARE_FATAL} prints one line and
 * ends the job (exit status 1), which the launcher reports as this rank's failure.
 *
 * <p>Threads: stateless apart from {@link #fatalAction}, which tests replace before starting peers.
 */
final class Errors {
    /** What ERRORS_ARE_FATAL does; tests replace it to observe the abort instead of exiting. */
    static volatile java.util.function.Consumer<MPIException> fatalAction = Errors::exit;

    private Errors() {
    }

    /** An error of class {@code errorClass} found by the mpi layer's own checks. */
    static MPIException error(int errorClass, String message) {
        return new MPIException(errorClass, message, null);
    }

    /** The MPI error for a failure that escaped Cohort during {@code operation}. */
    static MPIException of(Throwable e, String operation) {
        return of(e, operation, java.util.function.IntUnaryOperator.identity());
    }

    /** As {@link #of(Throwable, String)}, naming a sender by {@code rank} of its Cohort rank (an inter-communicator's). */
    static MPIException of(Throwable e, String operation, java.util.function.IntUnaryOperator rank) {
        if (e instanceof MPIException m) {
            return m;
        }
        if (e instanceof MPIError w) {
            return w.exception;
        }
        if (e instanceof MessageTruncatedException t) {
            // Cohort's own advice names its API; say it in MPI's terms.
            return new MPIException(MPI.ERR_TRUNCATE, operation + ": the message of " + t.status().length()
                    + " bytes from rank " + rank.applyAsInt(t.status().source()) + " (tag " + t.status().tag()
                    + ") is longer than the receive buffer; receive more items, or probe and size the buffer from"
                    + " getCount first", e);
        }
        int clazz;
        if (e instanceof PeerFailedException) {
            clazz = MPI.ERR_OTHER;
        } else if (e instanceof IllegalArgumentException) {
            clazz = MPI.ERR_ARG;
        } else if (e instanceof UnsupportedOperationException) {
            clazz = MPI.ERR_UNSUPPORTED_OPERATION;
        } else if (e instanceof OutOfMemoryError) {
            clazz = MPI.ERR_NO_MEM;
        } else {
            clazz = MPI.ERR_OTHER;
        }
        String why = e.getMessage() != null ? e.getMessage() : e.toString();
        return new MPIException(clazz, operation + ": " + why, e);
    }

    /** Applies {@code handler} to {@code e}: returns the exception to throw, or ends the job. */
    static MPIException handle(Errhandler handler, MPIException e) {
        if (handler.isFatal()) {
            fatalAction.accept(e);
        }
        return e;
    }

    /** What Comm.abort does; tests replace it. */
    static volatile java.util.function.IntConsumer abortAction = code -> {
        System.exit(code);
    };

    /** Ends the job with {@code errorcode} (Comm.abort). */
    static void abort(io.cohort.Communicator c, int errorcode) {
        Peer p = Peer.current();
        int status = io.cohort.mpi.support.AbortStatus.of(errorcode);
        System.err.println("cohort-mpi: rank " + (p != null ? p.world.rank() : c.rank()) + " called abort(" + errorcode
                + "); the job ends" + io.cohort.mpi.support.AbortStatus.why(errorcode));
        System.err.flush();
        abortAction.accept(status);
    }

    private static void exit(MPIException e) {
        Peer p = Peer.current();
        String rank = p != null ? String.valueOf(p.world.rank()) : System.getenv().getOrDefault("COHORT_RANK", "?");
        System.err.println("cohort-mpi: rank " + rank + ": " + e.getMessage() + " (" + MPI.errorClassName(e.getErrorClass())
                + "); the error handler is MPI.ERRORS_ARE_FATAL, so the job ends. Set MPI.ERRORS_RETURN with"
                + " setErrhandler to get an MPIException instead");
        System.err.flush();
        System.exit(1);
    }

    /** Carries an MPIException through code that cannot throw checked exceptions (user functions, lambdas). */
    static final class MPIError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final MPIException exception;

        MPIError(MPIException exception) {
            super(exception.getMessage(), exception);
            this.exception = exception;
        }
    }
}

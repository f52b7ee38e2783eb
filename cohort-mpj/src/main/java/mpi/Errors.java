package mpi;

import io.cohort.MessageTruncatedException;
import io.cohort.PeerFailedException;

/**
 * Turns failures into MPI errors and applies the process's error handler:
 * {@link MPI#ERRORS_RETURN} hands the {@link MPIException} back to be thrown,
 * {@link MPI#ERRORS_ARE_FATAL} prints one line and ends the process (exit status 1), which the
 * launcher reports as this rank's failure.
 *
 * <p>Threads: stateless apart from {@link #fatalAction}, which tests replace before starting peers.
 */
final class Errors {
    /** What ERRORS_ARE_FATAL does; tests replace it to observe the failure instead of exiting. */
    static volatile java.util.function.Consumer<MPIException> fatalAction = Errors::exit;
    /** What Comm.Abort does; tests replace it. */
    static volatile java.util.function.IntConsumer abortAction = System::exit;

    private Errors() {
    }

    /** An error the mpi layer found itself: the exception to throw, or the process ends. */
    static MPIException error(String message) {
        return handle(new MPIException(message));
    }

    /** A failure that escaped Cohort during {@code operation}: the exception to throw, or the process ends. */
    static MPIException of(Throwable e, String operation) {
        return of(e, operation, java.util.function.IntUnaryOperator.identity());
    }

    /** As {@link #of(Throwable, String)}, naming a sender by {@code rank} of its Cohort rank (an inter-communicator's). */
    static MPIException of(Throwable e, String operation, java.util.function.IntUnaryOperator rank) {
        if (e instanceof MPIException m) {
            return handle(m);
        }
        if (e instanceof MessageTruncatedException t) {
            return handle(new MPIException(operation + ": the message of " + t.status().length() + " bytes from rank "
                    + rank.applyAsInt(t.status().source()) + " (tag " + t.status().tag() + ") is longer than the receive buffer;"
                    + " receive more items, or Probe and size the buffer from Get_count first", e));
        }
        String why = e.getMessage() != null ? e.getMessage() : e.toString();
        if (why.regionMatches(true, 0, operation + ": ", 0, operation.length() + 2)) {
            why = why.substring(operation.length() + 2); // Cohort named the call already ("split: ...")
        }
        return handle(new MPIException(operation + ": " + why, e));
    }

    private static MPIException handle(MPIException e) {
        Peer p = Peer.current();
        if (p == null || p.errhandler.fatal) {
            fatalAction.accept(e);
        }
        return e;
    }

    private static void exit(MPIException e) {
        Peer p = Peer.current();
        String rank = p != null ? String.valueOf(p.world.rank()) : System.getenv().getOrDefault("COHORT_RANK", "?");
        if (e.getCause() instanceof PeerFailedException) {
            // Collateral: another peer's failure is the job's root cause, which the launcher names;
            // one short line, as PeerMain gives a peer that stopped because another one vanished.
            System.err.println("cohort-mpj: rank " + rank + " stopped: " + e.getMessage());
            System.err.flush();
            System.exit(1);
        }
        System.err.println("cohort-mpj: rank " + rank + ": " + e.getMessage() + "; the error handler is"
                + " MPI.ERRORS_ARE_FATAL, so the process ends (MPI.Errorhandler_set(MPI.ERRORS_RETURN) throws an"
                + " MPIException instead)");
        System.err.flush();
        System.exit(1);
    }

    /** Ends the job with {@code errorcode} (Comm.Abort). */
    static void abort(int rank, int errorcode) {
        int status = io.cohort.mpi.support.AbortStatus.of(errorcode);
        System.err.println("cohort-mpj: rank " + rank + " called Abort(" + errorcode + "); the job ends"
                + io.cohort.mpi.support.AbortStatus.why(errorcode));
        System.err.flush();
        abortAction.accept(status);
    }
}

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

    /**
     * A failure that escaped Cohort during {@code operation}, naming a sender by {@code rank} of its
     * Cohort rank (an inter-communicator's): the exception to throw, or the process ends.
     */
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

    /**
     * What a call throws when {@code e} escaped the part of {@code operation} that calls Cohort: an
     * {@link MPIException} the layer raised there as it is (the handler saw it already), anything
     * else as the operation's MPI error through the handler, naming a sender by its rank in
     * {@code comm} (null: as Cohort numbers it). Every catch of the layer ends here.
     */
    static MPIException failed(RuntimeException e, String operation, Comm comm) {
        if (e instanceof MPIException m) {
            return m;
        }
        return of(e, operation, comm == null ? java.util.function.IntUnaryOperator.identity() : comm::fromHandle);
    }

    /**
     * Runs {@code body}, the part of {@code operation} that calls Cohort, turning what escapes it
     * into the call's error ({@link #failed}): the one wrapper of the calls off the per-message path
     * (communicators, topologies, probes, collectives). The per-message point-to-point calls catch
     * for themselves, with the same {@link #failed}: there a lambda is an object per message.
     */
    static <T> T call(String operation, Comm comm, java.util.function.Supplier<T> body) {
        try {
            return body.get();
        } catch (RuntimeException e) {
            throw failed(e, operation, comm);
        }
    }

    /** {@link #call} for a body that returns nothing. */
    static void run(String operation, Comm comm, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            throw failed(e, operation, comm);
        }
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

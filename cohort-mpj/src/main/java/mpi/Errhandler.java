package mpi;

/**
 * What happens when an MPI call fails: {@link MPI#ERRORS_ARE_FATAL} (the default) prints one line
 * naming the rank and the error and ends the process with status 1, which {@code cohort run}
 * reports as the job's failure; {@link MPI#ERRORS_RETURN} throws an {@link MPIException} to the
 * caller. Set with {@link MPI#Errorhandler_set}; it applies to every call of the process.
 */
public class Errhandler {
    final boolean fatal;

    Errhandler(boolean fatal) {
        this.fatal = fatal;
    }

    @Override
    public String toString() {
        return fatal ? "MPI.ERRORS_ARE_FATAL" : "MPI.ERRORS_RETURN";
    }
}

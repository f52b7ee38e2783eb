package mpi;

/** An MPI object that can be released. */
interface Freeable {
    void free() throws MPIException;
}

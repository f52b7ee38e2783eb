package mpi;

/** An MPI object whose resources the program releases explicitly. */
public interface Freeable {
    /**
     * Releases the object; it must not be used afterwards.
     *
     * @throws MPIException if the object cannot be released
     */
    void free() throws MPIException;
}

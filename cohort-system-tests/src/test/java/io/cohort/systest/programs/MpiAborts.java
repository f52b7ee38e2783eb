package io.cohort.systest.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code MpiAborts CODE}: rank 0 calls {@code abort(CODE)}; the others wait for a message that never
 * comes, so the job ends only if the abort ends it.
 */
public final class MpiAborts {
    private MpiAborts() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        if (MPI.COMM_WORLD.getRank() == 0) {
            MPI.COMM_WORLD.abort(Integer.parseInt(args[0]));
        }
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 99);
        MPI.Finalize();
    }
}

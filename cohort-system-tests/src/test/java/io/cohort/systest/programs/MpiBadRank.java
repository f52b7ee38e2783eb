package io.cohort.systest.programs;

import mpi.MPI;
import mpi.MPIException;

/** Rank 1 sends to a rank that does not exist: with ERRORS_ARE_FATAL the job ends with rank 1's error. */
public final class MpiBadRank {
    private MpiBadRank() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        if (MPI.COMM_WORLD.getRank() == 1) {
            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 7, 0);
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }
}

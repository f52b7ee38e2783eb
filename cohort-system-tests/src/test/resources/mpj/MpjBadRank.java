import mpi.*;

/** Rank 1 sends to a rank that does not exist: with the default handler the job ends with rank 1's error. */
public class MpjBadRank {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        if (MPI.COMM_WORLD.Rank() == 1) {
            MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, 7, 0);
        }
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
    }
}

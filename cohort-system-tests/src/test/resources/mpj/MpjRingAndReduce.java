import mpi.*;

/**
 * A program written for MPJ Express (mpiJava 1.2): a token goes round a ring, then the ranks are
 * summed with Reduce and a user op, and the result broadcast as an object. MpjSystemTest compiles it against the
 * dist's cohort-mpj.jar (this module's own classpath has cohort-mpi's package mpi).
 */
public class MpjRingAndReduce {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int[] token = new int[2];
        if (size > 1) {
            if (rank == 0) {
                token[1] = 1;
                MPI.COMM_WORLD.Send(token, 1, 1, MPI.INT, 1, 0);
                MPI.COMM_WORLD.Recv(token, 1, 1, MPI.INT, size - 1, 0);
            } else {
                MPI.COMM_WORLD.Recv(token, 1, 1, MPI.INT, rank - 1, 0);
                token[1]++;
                MPI.COMM_WORLD.Send(token, 1, 1, MPI.INT, (rank + 1) % size, 0);
            }
        } else {
            token[1] = 1;
        }
        // A user op: programs construct Op themselves, compiled against cohort-mpj.jar alone.
        Op add = new Op(new User_function() {
            public void Call(Object in, int inOffset, Object inout, int inoutOffset, int count, Datatype type) {
                for (int i = 0; i < count; i++) {
                    ((long[]) inout)[inoutOffset + i] += ((long[]) in)[inOffset + i];
                }
            }
        }, true);
        long[] sum = new long[1];
        MPI.COMM_WORLD.Reduce(new long[] {rank}, 0, sum, 0, 1, MPI.LONG, add, 0);
        Object[] line = {rank == 0 ? "mpj: " + size + " processes, token " + token[1] + ", sum " + sum[0] : null};
        MPI.COMM_WORLD.Bcast(line, 0, 1, MPI.OBJECT, 0);
        boolean ok = line[0].equals("mpj: " + size + " processes, token " + size + ", sum " + (long) size * (size - 1) / 2);
        boolean[] all = new boolean[1];
        MPI.COMM_WORLD.Allreduce(new boolean[] {ok}, 0, all, 0, 1, MPI.BOOLEAN, MPI.LAND);
        if (rank == 0) {
            System.out.println(line[0] + (all[0] ? ", all correct" : ", WRONG somewhere"));
        }
        MPI.Finalize();
    }
}

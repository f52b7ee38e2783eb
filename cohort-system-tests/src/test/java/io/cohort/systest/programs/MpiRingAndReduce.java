package io.cohort.systest.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import java.nio.IntBuffer;

/**
 * A program written against the Open MPI Java bindings, unmodified: a ring with a direct buffer,
 * a nonblocking receive into an array, bcast and allReduce. Prints one line at rank 0.
 */
public final class MpiRingAndReduce {
    private MpiRingAndReduce() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        IntBuffer token = MPI.newIntBuffer(1);
        if (rank == 0) {
            token.put(0, 1);
            world.send(token, 1, MPI.INT, (rank + 1) % size, 0);
            world.recv(token, 1, MPI.INT, size - 1, 0);
        } else {
            world.recv(token, 1, MPI.INT, rank - 1, 0);
            token.put(0, token.get(0) + 1);
            world.send(token, 1, MPI.INT, (rank + 1) % size, 0);
        }
        int[] fromPrev = new int[1];
        Request r = world.iRecv(fromPrev, 1, MPI.INT, (rank + size - 1) % size, 1);
        world.send(new int[] {rank}, 1, MPI.INT, (rank + 1) % size, 1);
        Status s = r.waitStatus();
        double[] n = {rank == 0 ? 1000 : 0};
        world.bcast(n, 1, MPI.DOUBLE, 0);
        long[] sum = new long[1];
        world.allReduce(new long[] {rank}, sum, 1, MPI.LONG, MPI.SUM);
        boolean ok = fromPrev[0] == (rank + size - 1) % size && s.getSource() == fromPrev[0] && n[0] == 1000
                && sum[0] == (long) size * (size - 1) / 2 && (rank != 0 || token.get(0) == size);
        int[] okAll = new int[1];
        world.reduce(new int[] {ok ? 1 : 0}, okAll, 1, MPI.INT, MPI.SUM, 0);
        if (rank == 0) {
            System.out.println("mpi: " + size + " processes, token " + token.get(0) + ", sum " + sum[0] + ", "
                    + (okAll[0] == size ? "all correct" : okAll[0] + " correct"));
        }
        MPI.Finalize();
    }
}

import io.cohort.bench.OsuFigures;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * {@code OsuLatency} (src/main/java-ompi) written against the mpiJava 1.2 API that MPJ Express
 * provides (and Cohort's cohort-mpj): the same ping-pong, options and result line
 * ({@link OsuFigures}), with {@code Send(buf, offset, count, MPI.BYTE, dest, tag)} and {@code Recv}
 * of a {@code byte[]}. mpiJava 1.2 has no NIO buffers: {@code --buffer array} only. Not compiled by
 * Maven; {@code scripts/bench-mpi.sh} compiles it against Debian's libmpj-java.
 */
public final class MpjOsuLatency {
    private static final int TAG = 1;

    private MpjOsuLatency() {
    }

    public static void main(String[] argv) throws MPIException {
        String[] args = MPI.Init(argv);
        OsuFigures f = OsuFigures.parse("MpjOsuLatency", "mpj", OsuFigures.pointToPointSizes(),
                new int[] {10_000, 1_000, 1_000, 100}, args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.Rank();
        if (world.Size() != 2 || f.direct) {
            if (rank == 0) {
                System.err.println("MpjOsuLatency: run it with 2 processes (not " + world.Size() + ") and arrays");
            }
            System.exit(2);
        }
        byte[] buf = new byte[f.maxSize()];
        for (int i = 0; i < buf.length; i++) {
            buf[i] = (byte) i;
        }
        int other = 1 - rank;
        int first = f.sizes[0];
        long until = System.nanoTime() + f.prewarmNanos();
        int[] go = {1};
        while (go[0] != 0) {
            for (int i = 0; i < 1000; i++) {
                pingPong(world, rank, other, buf, first);
            }
            go[0] = System.nanoTime() < until ? 1 : 0;
            world.Bcast(go, 0, 1, MPI.INT, 0);
        }
        for (int size : f.sizes) {
            int iters = f.iters(size);
            int warmup = f.warmup(size);
            long[] rtt = new long[iters];
            world.Barrier();
            for (int i = 0; i < warmup + iters; i++) {
                long t0 = System.nanoTime();
                pingPong(world, rank, other, buf, size);
                long dt = System.nanoTime() - t0;
                if (i >= warmup) {
                    rtt[i - warmup] = dt;
                }
            }
            if (rank == 0) {
                System.out.println(f.latencyLine(size, rtt));
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    private static void pingPong(Intracomm world, int rank, int other, byte[] buf, int size) throws MPIException {
        if (rank == 0) {
            world.Send(buf, 0, size, MPI.BYTE, other, TAG);
            world.Recv(buf, 0, size, MPI.BYTE, other, TAG);
        } else {
            world.Recv(buf, 0, size, MPI.BYTE, other, TAG);
            world.Send(buf, 0, size, MPI.BYTE, other, TAG);
        }
    }
}

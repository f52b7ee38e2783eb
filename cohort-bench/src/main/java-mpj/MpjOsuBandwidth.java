import io.cohort.bench.OsuFigures;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * {@code OsuBandwidth} (src/main/java-ompi) written against the mpiJava 1.2 API that MPJ Express
 * provides (and Cohort's cohort-mpj): windows of W blocking {@code Send}s of a {@code byte[]}
 * against W blocking {@code Recv}s, then a 4-byte ack, each window one sample; the same options
 * and result line ({@link OsuFigures}). Blocking, as the array form of {@code OsuBandwidth} must be
 * on the Open MPI bindings, so that every implementation streams arrays the same way; arrays only.
 * Not compiled by Maven; {@code scripts/bench-mpi.sh} compiles it against Debian's libmpj-java.
 */
public final class MpjOsuBandwidth {
    private static final int TAG = 1;
    private static final int TAG_ACK = 2;

    private MpjOsuBandwidth() {
    }

    public static void main(String[] argv) throws MPIException {
        String[] args = MPI.Init(argv);
        OsuFigures f = OsuFigures.parse("MpjOsuBandwidth", "mpj", OsuFigures.pointToPointSizes(),
                new int[] {200, 20, 50, 5}, args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.Rank();
        if (world.Size() != 2 || f.direct) {
            if (rank == 0) {
                System.err.println("MpjOsuBandwidth: run it with 2 processes (not " + world.Size() + ") and arrays");
            }
            System.exit(2);
        }
        byte[] buf = new byte[f.maxSize()];
        for (int i = 0; i < buf.length; i++) {
            buf[i] = (byte) i;
        }
        byte[] ack = new byte[4];
        long until = System.nanoTime() + f.prewarmNanos();
        int[] go = {1};
        while (go[0] != 0) {
            for (int i = 0; i < 20; i++) {
                window(world, rank, f.window, buf, ack, f.sizes[0]);
            }
            go[0] = System.nanoTime() < until ? 1 : 0;
            world.Bcast(go, 0, 1, MPI.INT, 0);
        }
        for (int size : f.sizes) {
            int iters = f.iters(size);
            int warmup = f.warmup(size);
            long[] samples = new long[iters];
            world.Barrier();
            for (int i = 0; i < warmup + iters; i++) {
                long t0 = System.nanoTime();
                window(world, rank, f.window, buf, ack, size);
                long dt = System.nanoTime() - t0;
                if (i >= warmup) {
                    samples[i - warmup] = dt;
                }
            }
            if (rank == 0) {
                System.out.println(f.bandwidthLine(size, samples));
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    private static void window(Intracomm world, int rank, int window, byte[] buf, byte[] ack, int size)
            throws MPIException {
        if (rank == 0) {
            for (int j = 0; j < window; j++) {
                world.Send(buf, 0, size, MPI.BYTE, 1, TAG);
            }
            world.Recv(ack, 0, 4, MPI.BYTE, 1, TAG_ACK);
        } else {
            for (int j = 0; j < window; j++) {
                world.Recv(buf, 0, size, MPI.BYTE, 0, TAG);
            }
            world.Send(ack, 0, 4, MPI.BYTE, 0, TAG_ACK);
        }
    }
}

import io.cohort.bench.OsuFigures;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import java.nio.ByteBuffer;

/**
 * osu_latency's measurement written against the Open MPI Java bindings' API (package {@code mpi}),
 * ours, in the OSU micro-benchmarks' style: ranks 0 and 1 ping-pong {@code size} bytes with blocking
 * {@code send} and {@code recv}; after warm-up round trips, every round trip is timed on its own
 * ({@link System#nanoTime()}) and reported as half a round trip: median, p99 and the mean (OSU's
 * figure). The same source compiles against Open MPI's {@code mpi.jar} (run under {@code mpirun})
 * and against {@code cohort-mpi.jar} (run under {@code cohort run}); {@code scripts/bench-mpi.sh}
 * does both. Options, defaults and the result line: {@link OsuFigures}; {@code --buffer array}
 * (default) sends a {@code byte[]}, {@code --buffer direct} a direct {@code ByteBuffer} from
 * {@code MPI.newByteBuffer}.
 */
public final class OsuLatency {
    private static final int TAG = 1;

    private OsuLatency() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        OsuFigures f = OsuFigures.parse("OsuLatency", "mpi", OsuFigures.pointToPointSizes(),
                new int[] {10_000, 1_000, 1_000, 100}, args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        if (world.getSize() != 2) {
            if (rank == 0) {
                System.err.println("OsuLatency: run it with 2 processes, not " + world.getSize());
            }
            MPI.Finalize();
            System.exit(2);
        }
        int max = f.maxSize();
        Object buf;
        if (f.direct) {
            ByteBuffer b = MPI.newByteBuffer(max);
            for (int i = 0; i < max; i++) {
                b.put(i, (byte) i);
            }
            buf = b;
        } else {
            byte[] b = new byte[max];
            for (int i = 0; i < max; i++) {
                b[i] = (byte) i;
            }
            buf = b;
        }
        int other = 1 - rank;

        // JIT warm-up: round trips of the smallest size for at least --prewarm-seconds (rank 0's clock).
        int first = f.sizes[0];
        long until = System.nanoTime() + f.prewarmNanos();
        int[] go = {1};
        while (go[0] != 0) {
            for (int i = 0; i < 1000; i++) {
                pingPong(world, rank, other, buf, first);
            }
            go[0] = System.nanoTime() < until ? 1 : 0;
            world.bcast(go, 1, MPI.INT, 0);
        }

        for (int size : f.sizes) {
            int iters = f.iters(size);
            int warmup = f.warmup(size);
            long[] rtt = new long[iters];
            world.barrier();
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

    private static void pingPong(Intracomm world, int rank, int other, Object buf, int size) throws MPIException {
        if (rank == 0) {
            world.send(buf, size, MPI.BYTE, other, TAG);
            world.recv(buf, size, MPI.BYTE, other, TAG);
        } else {
            world.recv(buf, size, MPI.BYTE, other, TAG);
            world.send(buf, size, MPI.BYTE, other, TAG);
        }
    }
}

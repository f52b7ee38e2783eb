import io.cohort.bench.OsuFigures;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * {@code OsuCollLatency} (src/main/java-ompi) written against the mpiJava 1.2 API that MPJ Express
 * provides (and Cohort's cohort-mpj): per size, warm-up calls, then timed ones, each one call of
 * {@code Bcast} ({@code size} bytes from rank 0) or {@code Allreduce} ({@code size / 8} doubles,
 * {@code MPI.SUM}) followed by an untimed {@code Barrier}; every rank's samples gathered to rank 0;
 * the same options and result line ({@link OsuFigures}); arrays only. The last call's result is
 * checked on every rank. Usage: {@code MpjOsuCollLatency bcast|allreduce [options]}. Not compiled by
 * Maven; {@code scripts/bench-mpi.sh} compiles it against Debian's libmpj-java.
 */
public final class MpjOsuCollLatency {
    private MpjOsuCollLatency() {
    }

    public static void main(String[] argv) throws MPIException {
        String[] args = MPI.Init(argv);
        OsuFigures f = OsuFigures.parse("MpjOsuCollLatency", "mpj", OsuFigures.collectiveSizes(),
                new int[] {1_000, 100, 1_000, 100}, args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.Rank();
        int n = world.Size();
        String op = f.rest.length == 1 ? f.rest[0] : "";
        if ((!op.equals("bcast") && !op.equals("allreduce")) || f.direct) {
            if (rank == 0) {
                System.err.println("MpjOsuCollLatency: the operation is bcast or allreduce, as the first argument; arrays only");
            }
            System.exit(2);
        }
        Object[] warm = buffers(rank, f.sizes[0]);
        long until = System.nanoTime() + f.prewarmNanos();
        int[] go = {1};
        int calls = 0;
        while (go[0] != 0) {
            for (int i = 0; i < 100; i++) {
                call(world, op, warm, f.sizes[0], rank, calls++);
                world.Barrier();
            }
            go[0] = System.nanoTime() < until ? 1 : 0;
            world.Bcast(go, 0, 1, MPI.INT, 0);
        }
        for (int size : f.sizes) {
            int iters = f.iters(size);
            int warmup = f.warmup(size);
            Object[] b = buffers(rank, size);
            long[] mine = new long[iters];
            world.Barrier();
            for (int i = 0; i < warmup + iters; i++) {
                long t0 = System.nanoTime();
                call(world, op, b, size, rank, i);
                long dt = System.nanoTime() - t0;
                if (i >= warmup) {
                    mine[i - warmup] = dt;
                }
                world.Barrier();
            }
            check(op, b, size, rank, n, warmup + iters - 1);
            long[] all = new long[iters * n];
            world.Gather(mine, 0, iters, MPI.LONG, all, 0, iters, MPI.LONG, 0);
            if (rank == 0) {
                System.out.println(f.collectiveLine(op, n, size, iters, all));
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    private static Object[] buffers(int rank, int size) {
        int doubles = Math.max(1, size / 8);
        double[] s = new double[doubles];
        for (int i = 0; i < doubles; i++) {
            s[i] = rank + i;
        }
        return new Object[] {new byte[size], s, new double[doubles]};
    }

    private static void call(Intracomm world, String op, Object[] b, int size, int rank, int i) throws MPIException {
        if (op.equals("bcast")) {
            byte[] bytes = (byte[]) b[0];
            if (rank == 0) {
                bytes[size - 1] = (byte) i;
            }
            world.Bcast(bytes, 0, size, MPI.BYTE, 0);
        } else {
            double[] s = (double[]) b[1];
            world.Allreduce(s, 0, b[2], 0, s.length, MPI.DOUBLE, MPI.SUM);
        }
    }

    private static void check(String op, Object[] b, int size, int rank, int n, int lastCall) {
        String wrong = null;
        if (op.equals("bcast")) {
            byte got = ((byte[]) b[0])[size - 1];
            if (got != (byte) lastCall) {
                wrong = "bcast of " + size + " B delivered byte " + got + ", expected " + (byte) lastCall;
            }
        } else if (((double[]) b[2])[0] != n * (n - 1) / 2.0) {
            wrong = "allreduce gave " + ((double[]) b[2])[0] + ", expected " + n * (n - 1) / 2.0;
        }
        if (wrong != null) {
            System.err.println("MpjOsuCollLatency: rank " + rank + ": " + wrong);
            System.exit(1);
        }
    }
}

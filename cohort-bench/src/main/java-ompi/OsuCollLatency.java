import io.cohort.bench.OsuFigures;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * osu_bcast's and osu_allreduce's measurement written against the Open MPI Java bindings' API
 * (package {@code mpi}), ours, with the loop of Cohort's {@code CollectiveLatencyJob} (issue 6):
 * per size, warm-up calls, then timed ones, each call timed on its own and followed by an untimed
 * {@code barrier}. bcast moves {@code size} bytes from rank 0; allreduce sums {@code size / 8}
 * doubles (at least one) with {@code MPI.SUM}. Buffers are of exactly the measured length (a
 * {@code byte[]} or {@code double[]}, or with {@code --buffer direct} a direct {@code ByteBuffer} or
 * {@code DoubleBuffer} from {@code MPI.newByteBuffer} / {@code MPI.newDoubleBuffer}). Every rank's
 * samples go to rank 0, which prints median, p99 and mean over all of them. The last call's result
 * is checked on every rank.
 * <p>
 * Usage: {@code OsuCollLatency bcast|allreduce [options of OsuFigures]}. The same source compiles
 * against Open MPI's {@code mpi.jar} and against {@code cohort-mpi.jar}; see {@code scripts/bench-mpi.sh}.
 */
public final class OsuCollLatency {
    private OsuCollLatency() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        OsuFigures f = OsuFigures.parse("OsuCollLatency", "mpi", OsuFigures.collectiveSizes(),
                new int[] {1_000, 100, 1_000, 100}, args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int n = world.getSize();
        String op = f.rest.length == 1 ? f.rest[0] : "";
        if (!op.equals("bcast") && !op.equals("allreduce")) {
            if (rank == 0) {
                System.err.println("OsuCollLatency: the operation is bcast or allreduce, as the first argument");
            }
            MPI.Finalize();
            System.exit(2);
        }

        // JIT warm-up: calls at the first size for at least --prewarm-seconds (rank 0's clock).
        Buffers warm = new Buffers(f, rank, f.sizes[0]);
        long until = System.nanoTime() + f.prewarmNanos();
        int[] go = {1};
        int calls = 0;
        while (go[0] != 0) {
            for (int i = 0; i < 100; i++) {
                call(world, op, warm, rank, calls++);
                world.barrier();
            }
            go[0] = System.nanoTime() < until ? 1 : 0;
            world.bcast(go, 1, MPI.INT, 0);
        }

        for (int size : f.sizes) {
            int iters = f.iters(size);
            int warmup = f.warmup(size);
            Buffers b = new Buffers(f, rank, size);
            long[] mine = new long[iters];
            world.barrier();
            for (int i = 0; i < warmup + iters; i++) {
                long t0 = System.nanoTime();
                call(world, op, b, rank, i);
                long dt = System.nanoTime() - t0;
                if (i >= warmup) {
                    mine[i - warmup] = dt;
                }
                world.barrier();
            }
            b.check(op, rank, n, warmup + iters - 1);
            long[] all = rank == 0 ? new long[iters * n] : new long[1];
            world.gather(mine, iters, MPI.LONG, all, iters, MPI.LONG, 0);
            if (rank == 0) {
                System.out.println(f.collectiveLine(op, n, size, iters, all));
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    private static void call(Intracomm world, String op, Buffers b, int rank, int i) throws MPIException {
        if (op.equals("bcast")) {
            if (rank == 0) {
                b.mark(i);
            }
            world.bcast(b.bytes, b.size, MPI.BYTE, 0);
        } else {
            world.allReduce(b.dsend, b.drecv, b.doubles, MPI.DOUBLE, MPI.SUM);
        }
    }

    /** One size's buffers: bytes for bcast, doubles for allreduce, as arrays or direct buffers. */
    private static final class Buffers {
        final int size;
        final int doubles;
        final Object bytes;
        final Object dsend;
        final Object drecv;

        Buffers(OsuFigures f, int rank, int size) {
            this.size = size;
            this.doubles = Math.max(1, size / 8);
            if (f.direct) {
                bytes = MPI.newByteBuffer(size);
                DoubleBuffer s = MPI.newDoubleBuffer(doubles);
                for (int i = 0; i < doubles; i++) {
                    s.put(i, rank + i);
                }
                dsend = s;
                drecv = MPI.newDoubleBuffer(doubles);
            } else {
                bytes = new byte[size];
                double[] s = new double[doubles];
                for (int i = 0; i < doubles; i++) {
                    s[i] = rank + i;
                }
                dsend = s;
                drecv = new double[doubles];
            }
        }

        /** The root writes the call's number into the last byte, which every rank checks at the end. */
        void mark(int i) {
            if (bytes instanceof ByteBuffer bb) {
                bb.put(size - 1, (byte) i);
            } else {
                ((byte[]) bytes)[size - 1] = (byte) i;
            }
        }

        void check(String op, int rank, int n, int lastCall) {
            if (op.equals("bcast")) {
                byte got = bytes instanceof ByteBuffer bb ? bb.get(size - 1) : ((byte[]) bytes)[size - 1];
                if (got != (byte) lastCall) {
                    fail(rank, "bcast of " + size + " B delivered byte " + got + ", expected " + (byte) lastCall);
                }
            } else {
                double got = drecv instanceof DoubleBuffer db ? db.get(0) : ((double[]) drecv)[0];
                if (got != n * (n - 1) / 2.0) {
                    fail(rank, "allreduce gave " + got + ", expected " + n * (n - 1) / 2.0);
                }
            }
        }

        private static void fail(int rank, String what) {
            System.err.println("OsuCollLatency: rank " + rank + ": " + what);
            System.exit(1);
        }
    }
}

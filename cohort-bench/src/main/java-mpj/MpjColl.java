import io.cohort.bench.ProcessCpu;
import mpi.MPI;
import mpi.MPIException;

import java.util.Arrays;
import java.util.Locale;

/**
 * The MPJ Express side of Cohort's collective latency benchmark (issue 6): the same measurement as
 * {@code cohort-bench/src/main/c/osu_coll.c}, written against the mpiJava 1.2 API that MPJ Express
 * 0.44 provides. Not compiled by Maven (mpj.jar is no Maven dependency):
 * {@code scripts/bench-collectives-box.sh} compiles it with javac against Debian's libmpj-java and
 * starts one process per host of the cluster in a box (see that script for how niodev is wired up).
 * <p>
 * For each size: W warm-up iterations, then I timed ones; each times one call of the collective
 * with {@link System#nanoTime()} (MPJ's {@code MPI.Wtime()} has millisecond resolution) and is
 * followed by an untimed barrier. bcast moves {@code size} bytes from rank 0; allgather contributes
 * {@code size} bytes per rank; allreduce sums {@code size / 8} doubles (at least one); barrier
 * prints one line with size=0. Rank 0 prints:
 * <pre>
 *   coll impl=mpj op=bcast n=8 size=256 avg_us=.. median_us=.. p99_us=.. loop_us=.. cpu_us=.. iters=1000 samples=8000
 * </pre>
 * avg_us is OSU's figure (each rank's mean, averaged over the ranks); median and p99 are over all
 * samples of all ranks; loop_us is rank 0's wall time per timed iteration, call and barrier together;
 * cpu_us is the processor time of all ranks together per timed iteration (Cohort's
 * {@code ProcessCpu}, compiled beside this file, before and after the loop).
 * <p>
 * Usage (after MPJ's own three arguments: rank, device configuration, device name):
 * {@code MpjColl bcast|allgather|allreduce|barrier [--sizes 8,256,4096] [--iters N] [--warmup N] [--prewarm N]}
 */
public final class MpjColl {
    private MpjColl() {
    }

    public static void main(String[] argv) throws MPIException {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank();
        int n = MPI.COMM_WORLD.Size();
        int[] sizes = {8, 32, 128, 256, 1024, 4096, 16384, 65536};
        int iters = 1000;
        int warmup = 100;
        int prewarm = 0;
        if (args.length < 1) {
            usage(rank, "missing the operation");
        }
        String op = args[0];
        if (!Arrays.asList("bcast", "allgather", "allreduce", "barrier").contains(op)) {
            usage(rank, "unknown operation '" + op + "'");
        }
        for (int i = 1; i < args.length; i++) {
            if (i + 1 >= args.length) {
                usage(rank, "option " + args[i] + " is missing its value");
            }
            switch (args[i]) {
                case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--iters" -> iters = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--prewarm" -> prewarm = Integer.parseInt(args[++i]);
                default -> usage(rank, "unknown option '" + args[i] + "'");
            }
        }
        if (op.equals("barrier")) {
            sizes = new int[] {0};
        }
        int max = Arrays.stream(sizes).max().orElse(0);
        byte[] send = new byte[max];
        byte[] recv = new byte[max * n];
        Arrays.fill(send, (byte) (rank + 1));
        double[] dsend = new double[Math.max(1, max / 8)];
        double[] drecv = new double[dsend.length];
        for (int i = 0; i < dsend.length; i++) {
            dsend[i] = rank + i;
        }
        double[] t = new double[iters];
        double[] all = new double[iters * n];
        double[] mean = new double[1];
        double[] meanSum = new double[1];
        double[] cpu = new double[1];
        double[] cpuSum = new double[1];

        // The pre-warm pass, as osu_coll.c's: --prewarm calls shared out over the sizes, each in turn.
        for (int s = 0; s < sizes.length && prewarm > 0; s++) {
            for (int i = 0; i < (prewarm + sizes.length - 1) / sizes.length; i++) {
                call(op, sizes[s], send, recv, dsend, drecv);
                MPI.COMM_WORLD.Barrier();
            }
        }
        for (int s = 0; s < sizes.length; s++) {
            int size = sizes[s];
            int w = warmup;
            MPI.COMM_WORLD.Barrier();
            long loop0 = 0;
            long cpu0 = 0;
            for (int i = 0; i < w + iters; i++) {
                if (i == w) {
                    cpu0 = ProcessCpu.nanos();
                }
                long t0 = System.nanoTime();
                if (i == w) {
                    loop0 = t0;
                }
                call(op, size, send, recv, dsend, drecv);
                long dt = System.nanoTime() - t0;
                if (i >= w) {
                    t[i - w] = dt / 1000.0;
                }
                MPI.COMM_WORLD.Barrier();
            }
            double loop = (System.nanoTime() - loop0) / 1000.0 / iters;
            cpu[0] = (ProcessCpu.nanos() - cpu0) / 1000.0 / iters;
            if (op.equals("allreduce") && drecv[0] != n * (n - 1) / 2.0) {
                System.err.printf(Locale.ROOT, "MpjColl: rank %d: allreduce gave %s, expected %s%n", rank, drecv[0], n * (n - 1) / 2.0);
                System.exit(1);
            }
            mean[0] = Arrays.stream(t).sum() / iters;
            MPI.COMM_WORLD.Reduce(mean, 0, meanSum, 0, 1, MPI.DOUBLE, MPI.SUM, 0);
            MPI.COMM_WORLD.Reduce(cpu, 0, cpuSum, 0, 1, MPI.DOUBLE, MPI.SUM, 0);
            MPI.COMM_WORLD.Gather(t, 0, iters, MPI.DOUBLE, all, 0, iters, MPI.DOUBLE, 0);
            if (rank == 0) {
                Arrays.sort(all);
                System.out.printf(Locale.ROOT,
                        "coll impl=mpj op=%s n=%d size=%d avg_us=%.2f median_us=%.2f p99_us=%.2f loop_us=%.2f cpu_us=%.2f iters=%d samples=%d%n",
                        op, n, size, meanSum[0] / n, percentile(all, 50), percentile(all, 99), loop, cpuSum[0], iters, all.length);
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    /** One call of the measured collective. */
    private static void call(String op, int size, byte[] send, byte[] recv, double[] dsend, double[] drecv)
            throws MPIException {
        int doubles = Math.max(1, size / 8);
        switch (op) {
            case "bcast" -> MPI.COMM_WORLD.Bcast(send, 0, size, MPI.BYTE, 0);
            case "allgather" -> MPI.COMM_WORLD.Allgather(send, 0, size, MPI.BYTE, recv, 0, size, MPI.BYTE);
            case "allreduce" -> MPI.COMM_WORLD.Allreduce(dsend, 0, drecv, 0, doubles, MPI.DOUBLE, MPI.SUM);
            default -> MPI.COMM_WORLD.Barrier();
        }
    }

    /** The smallest sample with at least p% of the samples at or below it (as osu_coll.c computes it). */
    static double percentile(double[] sorted, double p) {
        int k = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, k)) - 1];
    }

    private static void usage(int rank, String message) {
        if (rank == 0) {
            System.err.println("MpjColl: " + message
                    + "\nusage: MpjColl bcast|allgather|allreduce|barrier [--sizes a,b,..] [--iters N] [--warmup N] [--prewarm N]");
        }
        System.exit(2);
    }
}

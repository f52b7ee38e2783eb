package io.cohort.bench;

import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.Op;
import io.cohort.collective.CollectivePolicy;
import io.cohort.wireup.JobEnvironment;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Cohort's side of the OSU-style collective latency benchmark (issue 6), one peer per host of the
 * cluster in a box ({@code scripts/bench-collectives-box.sh}); the same measurement as
 * {@code src/main/c/osu_coll.c} (Open MPI) and {@code src/main/java-mpj/MpjColl.java} (MPJ Express).
 * <p>
 * First a pre-warm pass, {@code --prewarm} P calls shared out over the sizes, each size in turn
 * (the JIT compiles every size's path before anything is timed; a bcast beyond one datagram takes
 * another path than a short one). Then for each size: W warm-up iterations and I timed ones; each times one call of the collective and
 * is followed by an untimed {@code barrier()}, as OSU's osu_bcast and friends do. bcast moves
 * {@code size} bytes from rank 0 (a fixed root); allgather contributes {@code size} bytes per rank;
 * allreduce sums {@code size / 8} doubles (at least one) with {@link Op#SUM}; barrier prints one
 * line with size=0. Each peer records its iterations into an HdrHistogram; rank 0 merges them and
 * prints:
 * <pre>
 *   coll impl=cohort-bcast op=bcast n=8 size=256 avg_us=.. median_us=.. p99_us=.. loop_us=.. cpu_us=.. iters=1000 samples=8000
 * </pre>
 * avg_us is OSU's figure (each rank's mean over its iterations, averaged over the ranks); median
 * and p99 are over all samples of all ranks; loop_us is rank 0's wall time per timed iteration, the
 * call and its barrier together (a fast call bought with a slow barrier shows there); cpu_us is the
 * processor time of all peers together per timed iteration, call and barrier ({@link ProcessCpu}
 * before and after the loop, summed over the ranks): the fair figure where more peers than
 * processors share a machine. The impl names
 * the collective family the job ran with ({@code cohort run --collectives auto|p2p|bcast}, i.e.
 * {@code cohort.collectives} or {@code COHORT_COLLECTIVES}), then {@code :eqa} when the broadcast
 * domain runs EQA ({@code --bcast-protocol eqa}), then {@code @} and the algorithms
 * when {@code cohort.collectives.algorithms} forces some. The last iteration's result is checked on
 * every rank.
 * <p>
 * Usage: {@code CollectiveLatencyJob bcast|allgather|allreduce|barrier [--sizes 8,256,4096] [--iters N] [--warmup N] [--prewarm N] [--label k=v] [--counters]};
 * {@code --counters} makes every rank print its world domain's protocol counters (cumulative) to
 * stderr after each size, unless the job runs with {@code --collectives p2p}.
 */
public final class CollectiveLatencyJob {
    private static final int TAG_RESULT = 13;
    private static final List<String> OPS = List.of("bcast", "allgather", "allreduce", "barrier");

    private CollectiveLatencyJob() {
    }

    public static void main(String[] args) {
        if (args.length < 1 || !OPS.contains(args[0])) {
            usage(args.length < 1 ? "missing the operation" : "unknown operation '" + args[0] + "'");
        }
        String op = args[0];
        int[] sizes = {8, 32, 128, 256, 1024, 4096, 16384, 65536};
        int iters = 1000;
        int warmup = 100;
        int prewarm = 0;
        String label = "";
        boolean dumpCounters = false;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--counters")) {
                dumpCounters = true;
                continue;
            }
            if (i + 1 >= args.length) {
                usage("option " + args[i] + " is missing its value");
            }
            switch (args[i]) {
                case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--iters" -> iters = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--prewarm" -> prewarm = Integer.parseInt(args[++i]);
                case "--label" -> label = label + " " + args[++i];
                default -> usage("unknown option '" + args[i] + "'");
            }
        }
        if (iters < 1 || warmup < 0 || prewarm < 0) {
            usage("--iters must be at least 1, --warmup and --prewarm at least 0");
        }
        if (op.equals("barrier")) {
            sizes = new int[] {0};
        }
        String forced = System.getProperty(CollectivePolicy.FORCE_PROP_NAME, "").trim().toLowerCase(Locale.ROOT);
        // forced by --jvm-opt -Dcohort.collectives.algorithms=..: a variant of its own in tables and plots
        String impl = "cohort-" + mode() + (mode().equals("p2p") || !protocol().equals("eqa") ? "" : ":eqa")
                + (forced.isEmpty() ? "" : "@" + forced.replace(',', '+'));
        try (Communicator world = Cohort.init()) {
            int n = world.size();
            int me = world.rank();
            Buffers[] bufs = new Buffers[sizes.length];
            for (int si = 0; si < sizes.length; si++) {
                bufs[si] = new Buffers(sizes[si], n, me);
            }
            // The pre-warm pass: --prewarm calls shared out over the sizes, each in turn, before any
            // is measured: the JIT compiles each path the first time it is taken, and a bcast takes
            // another path beyond one datagram (as osu_coll.c and MpjColl do).
            for (int si = 0; si < sizes.length && prewarm > 0; si++) {
                for (int i = 0; i < (prewarm + sizes.length - 1) / sizes.length; i++) {
                    call(world, op, bufs[si]);
                    world.barrier();
                }
            }
            for (int si = 0; si < sizes.length; si++) {
                int size = sizes[si];
                int w = warmup;
                Buffers bs = bufs[si];
                byte[] b = bs.b;
                Histogram h = histogram();
                long sumNanos = 0;
                world.barrier();
                long loop0 = 0;
                long cpu0 = 0;
                for (int i = 0; i < w + iters; i++) {
                    if (me == 0 && size > 0) {
                        b[size - 1] = (byte) i;
                    }
                    if (i == w) {
                        cpu0 = ProcessCpu.nanos();
                    }
                    long t0 = System.nanoTime();
                    if (i == w) {
                        loop0 = t0;
                    }
                    call(world, op, bs);
                    long dt = System.nanoTime() - t0;
                    if (i >= w) {
                        h.recordValue(Math.max(1, dt));
                        sumNanos += dt;
                    }
                    world.barrier();
                }
                long loopNanos = System.nanoTime() - loop0;
                long cpuNanos = ProcessCpu.nanos() - cpu0;
                check(op, me, n, size, w + iters, b, bs.r, bs.dr);
                report(world, impl, op, size, iters, h, sumNanos, loopNanos, cpuNanos, label);
                if (dumpCounters && !mode().equals("p2p")) {
                    System.err.println("coll-counters rank=" + me + " size=" + size + " " + world.broadcastDomain().counters());
                }
            }
        }
    }

    /** One size's buffers, of exactly its length: the API takes whole arrays. */
    private static final class Buffers {
        final byte[] b;
        final byte[] s;
        final byte[] r;
        final double[] ds;
        final double[] dr;

        Buffers(int size, int n, int me) {
            b = new byte[size];
            s = new byte[size];
            Arrays.fill(s, (byte) (me + 1));
            r = new byte[size * n];
            ds = new double[Math.max(1, size / 8)];
            for (int i = 0; i < ds.length; i++) {
                ds[i] = me + i;
            }
            dr = new double[ds.length];
        }
    }

    private static void call(Communicator world, String op, Buffers bs) {
        switch (op) {
            case "bcast" -> world.bcast(0, (Object) bs.b);
            case "allgather" -> world.allgather(bs.s, bs.r);
            case "allreduce" -> world.allreduce(bs.ds, bs.dr, Op.SUM);
            default -> world.barrier();
        }
    }

    /** The protocol of this job's broadcast domains, as {@code cohort run --bcast-protocol} set it. */
    private static String protocol() {
        String p = System.getProperty("cohort.bcast.protocol");
        if (p == null || p.isBlank()) {
            p = System.getenv("COHORT_BCAST_PROTOCOL");
        }
        return p == null || p.isBlank() ? "pcode" : p.trim().toLowerCase(Locale.ROOT);
    }

    /** The collective family of this job, as {@code cohort run --collectives} set it. */
    private static String mode() {
        String m = System.getProperty(JobEnvironment.COLLECTIVES_PROP_NAME);
        if (m == null || m.isBlank()) {
            m = System.getenv(JobEnvironment.COLLECTIVES);
        }
        return m == null || m.isBlank() ? "auto" : m.trim().toLowerCase(Locale.ROOT);
    }

    private static void check(String op, int me, int n, int size, int calls, byte[] b, byte[] r, double[] dr) {
        switch (op) {
            case "bcast" -> {
                if (size > 0 && b[size - 1] != (byte) (calls - 1)) {
                    throw new IllegalStateException("rank " + me + ": bcast of " + size + " B delivered byte "
                            + b[size - 1] + ", expected " + (byte) (calls - 1));
                }
            }
            case "allgather" -> {
                for (int q = 0; q < n && size > 0; q++) {
                    if (r[q * size] != (byte) (q + 1) || r[q * size + size - 1] != (byte) (q + 1)) {
                        throw new IllegalStateException("rank " + me + ": allgather of " + size + " B has wrong bytes from rank " + q);
                    }
                }
            }
            case "allreduce" -> {
                double expected = n * (n - 1) / 2.0;
                if (dr[0] != expected) {
                    throw new IllegalStateException("rank " + me + ": allreduce gave " + dr[0] + ", expected " + expected);
                }
            }
            default -> {
            }
        }
    }

    private static Histogram histogram() {
        return new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    }

    /** Rank 0 merges every peer's histogram and sum and prints the line. */
    private static void report(Communicator world, String impl, String op, int size, int iters, Histogram mine,
                               long sumNanos, long loopNanos, long cpuNanos, String label) {
        ByteBuffer b = ByteBuffer.allocate(16 + mine.getNeededByteBufferCapacity());
        b.putLong(sumNanos);
        b.putLong(cpuNanos);
        mine.encodeIntoCompressedByteBuffer(b);
        b.flip();
        if (world.rank() != 0) {
            world.send(0, TAG_RESULT, b);
            return;
        }
        Histogram all = mine.copy();
        double meanSum = sumNanos / (double) iters;
        long cpuSum = cpuNanos;
        for (int q = 1; q < world.size(); q++) {
            ByteBuffer in = ByteBuffer.wrap(world.recv(q, TAG_RESULT).bytes());
            meanSum += in.getLong() / (double) iters;
            long theirs = in.getLong();
            cpuSum = cpuSum < 0 || theirs < 0 ? -1 : cpuSum + theirs;
            try {
                all.add(Histogram.decodeFromCompressedByteBuffer(in, 0));
            } catch (java.util.zip.DataFormatException e) {
                throw new IllegalStateException("a peer's histogram did not decode: " + e.getMessage(), e);
            }
        }
        int n = world.size();
        System.out.printf(Locale.ROOT,
                "coll impl=%s op=%s n=%d size=%d avg_us=%.2f median_us=%.2f p99_us=%.2f loop_us=%.2f cpu_us=%.2f iters=%d samples=%d%s%n",
                impl, op, n, size, meanSum / n / 1000.0, all.getValueAtPercentile(50) / 1000.0,
                all.getValueAtPercentile(99) / 1000.0, loopNanos / 1000.0 / iters, cpuSum < 0 ? -1.0 : cpuSum / 1000.0 / iters,
                iters, all.getTotalCount(), label);
        System.out.flush();
    }

    private static void usage(String message) {
        System.err.println("CollectiveLatencyJob: " + message
                + "\nusage: CollectiveLatencyJob bcast|allgather|allreduce|barrier [--sizes a,b,..] [--iters N] [--warmup N] [--prewarm N] [--label k=v] [--counters]");
        System.exit(2);
    }
}

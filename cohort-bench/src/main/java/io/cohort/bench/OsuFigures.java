package io.cohort.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * The settings, statistics and result lines shared by every OSU-style program of the MPI comparison
 * (issue 9, {@code scripts/bench-mpi.sh}): Cohort's own API ({@link OsuStyleJob}), the programs
 * written against the Open MPI Java bindings ({@code src/main/java-ompi/Osu*.java}, which run on
 * Open MPI's {@code mpi.jar} and on {@code cohort-mpi.jar}) and their mpiJava 1.2 twins for MPJ
 * Express ({@code src/main/java-mpj/MpjOsu*.java}). Plain Java with no dependency, so that every
 * implementation parses the same options and computes its medians and percentiles the same way.
 * <p>
 * Options (all programs): {@code --impl NAME} (the label of the result lines), {@code --buffer
 * array|direct}, {@code --sizes a,b,..}, {@code --iters N} and {@code --warmup N} (per size, for
 * sizes up to {@value #LARGE} bytes), {@code --iters-large N} and {@code --warmup-large N} (above),
 * {@code --prewarm-seconds S} (before the first size, the program's operation at its smallest size
 * for at least S seconds, as rank 0 measures them: the JIT compiles the hot path there; C needs no
 * such thing, Java programs on any library do), {@code --window N} (bandwidth only).
 * <p>
 * Result lines, one per size, printed by rank 0:
 * <pre>
 *   osu impl=cohort-mpi op=latency n=2 buffer=array size=8 median_us=.. p99_us=.. avg_us=.. iters=10000 samples=10000 end_ms=.. span_ms=..
 *   osu impl=cohort-mpi op=bw n=2 buffer=array size=8 window=64 mibps=.. mibps_p99=.. mibps_avg=.. median_us=.. p99_us=.. iters=200 samples=200 end_ms=.. span_ms=..
 *   osu impl=cohort-mpi op=bcast n=4 buffer=array size=8 median_us=.. p99_us=.. avg_us=.. iters=1000 samples=4000 end_ms=.. span_ms=..
 * </pre>
 * {@code end_ms}: when the line was made (milliseconds since the epoch), {@code span_ms}: how long
 * the timed calls took together; with {@link CoreDistanceProbe}'s lines they tell which state the
 * machine was in while the samples were taken.
 * latency: half a round trip (osu_latency's figure is {@code avg_us}). bw: one window of W messages
 * and the ack per sample; {@code mibps} is W x size over the median window, {@code mibps_p99} over
 * the 99th percentile window (the slow tail), {@code mibps_avg} over the mean (osu_bw's figure).
 * Collectives: every rank's samples of one call each ({@code samples} = iters x N), OSU's
 * {@code avg_us} being the mean of them. Percentiles are nearest-rank: the smallest sample with at
 * least p % of the samples at or below it. MiB are 2^20 bytes.
 */
public final class OsuFigures {
    /** OSU's LARGE_MESSAGE_SIZE: above it, fewer iterations. */
    public static final int LARGE = 8192;

    public final String program;
    public final String impl;
    public final boolean direct;
    public final int[] sizes;
    public final int iters;
    public final int warmup;
    public final int itersLarge;
    public final int warmupLarge;
    public final double prewarmSeconds;
    public final int window;
    /** What is left after the options (the collective programs' operation). */
    public final String[] rest;

    private OsuFigures(String program, String impl, boolean direct, int[] sizes, int iters, int warmup, int itersLarge,
                       int warmupLarge, double prewarmSeconds, int window, String[] rest) {
        this.program = program;
        this.impl = impl;
        this.direct = direct;
        this.sizes = sizes;
        this.iters = iters;
        this.warmup = warmup;
        this.itersLarge = itersLarge;
        this.warmupLarge = warmupLarge;
        this.prewarmSeconds = prewarmSeconds;
        this.window = window;
        this.rest = rest;
    }

    /** Sizes 1 B to 4 MiB, powers of two (osu_latency's and osu_bw's, without 0). */
    public static int[] pointToPointSizes() {
        int[] s = new int[23];
        for (int i = 0; i < s.length; i++) {
            s[i] = 1 << i;
        }
        return s;
    }

    /** 8 B to 64 KiB, the sizes of the issue-6 collectives benchmark. */
    public static int[] collectiveSizes() {
        return new int[] {8, 32, 128, 256, 1024, 4096, 16384, 65536};
    }

    /**
     * Parses {@code args} for {@code program}; {@code defaults} gives iters, warmup, itersLarge,
     * warmupLarge. Bad options print one line and a usage line to stderr and exit 2.
     */
    public static OsuFigures parse(String program, String defaultImpl, int[] defaultSizes, int[] defaults, String[] args) {
        String impl = defaultImpl;
        boolean direct = false;
        int[] sizes = defaultSizes;
        int iters = defaults[0];
        int warmup = defaults[1];
        int itersLarge = defaults[2];
        int warmupLarge = defaults[3];
        double prewarm = 2.0;
        int window = 64;
        java.util.List<String> rest = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (!a.startsWith("--")) {
                    rest.add(a);
                    continue;
                }
                if (i + 1 >= args.length) {
                    usage(program, "option " + a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--impl" -> impl = v;
                    case "--buffer" -> {
                        if (!v.equals("array") && !v.equals("direct")) {
                            usage(program, "--buffer takes array or direct, not '" + v + "'");
                        }
                        direct = v.equals("direct");
                    }
                    case "--sizes" -> sizes = Arrays.stream(v.split(",")).mapToInt(Integer::parseInt).toArray();
                    case "--iters" -> iters = Integer.parseInt(v);
                    case "--warmup" -> warmup = Integer.parseInt(v);
                    case "--iters-large" -> itersLarge = Integer.parseInt(v);
                    case "--warmup-large" -> warmupLarge = Integer.parseInt(v);
                    case "--prewarm-seconds" -> prewarm = Double.parseDouble(v);
                    case "--window" -> window = Integer.parseInt(v);
                    default -> usage(program, "unknown option '" + a + "'");
                }
            }
        } catch (NumberFormatException e) {
            usage(program, "a number was expected: " + e.getMessage());
        }
        if (iters < 1 || itersLarge < 1 || warmup < 0 || warmupLarge < 0 || prewarm < 0 || window < 1
                || sizes.length == 0 || Arrays.stream(sizes).anyMatch(s -> s < 1)) {
            usage(program, "iterations and the window must be at least 1, warm-ups and sizes at least 0 and 1");
        }
        return new OsuFigures(program, impl, direct, sizes, iters, warmup, itersLarge, warmupLarge, prewarm, window,
                rest.toArray(new String[0]));
    }

    public int iters(int size) {
        return size > LARGE ? itersLarge : iters;
    }

    public int warmup(int size) {
        return size > LARGE ? warmupLarge : warmup;
    }

    public int maxSize() {
        return Arrays.stream(sizes).max().orElse(1);
    }

    public String buffer() {
        return direct ? "direct" : "array";
    }

    public long prewarmNanos() {
        return (long) (prewarmSeconds * 1e9);
    }

    /** Nearest-rank percentile of sorted samples. */
    public static long percentile(long[] sorted, double p) {
        int k = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, k)) - 1];
    }

    private static double mean(long[] samples) {
        double sum = 0;
        for (long s : samples) {
            sum += s;
        }
        return sum / samples.length;
    }

    /** The latency line for round-trip samples in nanoseconds (reported as half round trips); sorts them. */
    public String latencyLine(int size, long[] roundTrips) {
        Arrays.sort(roundTrips);
        return String.format(Locale.ROOT,
                "osu impl=%s op=latency n=2 buffer=%s size=%d median_us=%.3f p99_us=%.3f avg_us=%.3f iters=%d samples=%d%s",
                impl, buffer(), size, percentile(roundTrips, 50) / 2000.0, percentile(roundTrips, 99) / 2000.0,
                mean(roundTrips) / 2000.0, roundTrips.length, roundTrips.length, when(roundTrips, 1));
    }

    /** The bandwidth line for per-window samples in nanoseconds; sorts them. */
    public String bandwidthLine(int size, long[] windows) {
        Arrays.sort(windows);
        double bytes = (double) size * window;
        long median = percentile(windows, 50);
        long p99 = percentile(windows, 99);
        return String.format(Locale.ROOT,
                "osu impl=%s op=bw n=2 buffer=%s size=%d window=%d mibps=%.1f mibps_p99=%.1f mibps_avg=%.1f median_us=%.3f p99_us=%.3f iters=%d samples=%d%s",
                impl, buffer(), size, window, mibps(bytes, median), mibps(bytes, p99), mibps(bytes, mean(windows)),
                median / 1000.0, p99 / 1000.0, windows.length, windows.length, when(windows, 1));
    }

    /**
     * When the samples were taken, for matching them with the machine's state (CoreDistanceProbe):
     * now, as the line is made right after the last sample, in milliseconds since the epoch, and
     * how long the timed calls took together ({@code peers} ranks' samples of concurrent calls count
     * once), which leaves out the untimed steps between them.
     */
    private static String when(long[] samples, int peers) {
        double sum = 0;
        for (long s : samples) {
            sum += s;
        }
        return String.format(Locale.ROOT, " end_ms=%d span_ms=%d", System.currentTimeMillis(),
                Math.round(sum / peers / 1e6));
    }

    private static double mibps(double bytes, double nanos) {
        return bytes / (nanos / 1e9) / (1 << 20);
    }

    /** The collective line for every rank's samples in nanoseconds ({@code iters} per rank); sorts them. */
    public String collectiveLine(String op, int n, int size, int iters, long[] all) {
        Arrays.sort(all);
        return String.format(Locale.ROOT,
                "osu impl=%s op=%s n=%d buffer=%s size=%d median_us=%.3f p99_us=%.3f avg_us=%.3f iters=%d samples=%d%s",
                impl, op, n, buffer(), size, percentile(all, 50) / 1000.0, percentile(all, 99) / 1000.0,
                mean(all) / 1000.0, iters, all.length, when(all, n));
    }

    /** Prints the problem and the usage line to stderr and exits 2. */
    public static void usage(String program, String problem) {
        System.err.println(program + ": " + problem);
        System.err.println("usage: " + program + (program.contains("Coll") || program.equals("OsuStyleJob") ? " OP" : "")
                + " [--impl NAME] [--buffer array|direct] [--sizes a,b,..] [--iters N] [--warmup N]"
                + " [--iters-large N] [--warmup-large N] [--prewarm-seconds S] [--window N]");
        System.exit(2);
    }
}

package io.cohort.bench;

import io.cohort.Cohort;
import io.cohort.Communicator;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Ping-pong between ranks 0 and 1 of a real job (separate processes), for whichever transport
 * {@code cohort run --transport} chose. Prints a Markdown table of half round-trip median, p99 and
 * mean in microseconds (the mean is what OSU's osu_latency reports), with the sample count, and
 * streaming bandwidth at the large sizes. A benchmark, not a test: it asserts nothing.
 *
 * <pre>
 *   cohort run -n 2 --transport shm --idle busy-spin -cp ... io.cohort.bench.ProcessPingPong [--quick]
 * </pre>
 */
public final class ProcessPingPong {
    private static final int[] SIZES = {8, 64, 512, 4096, 32768, 65536, 262144, 1048576, 4194304};
    private static final int MAX_SIZE = 4194304;

    private ProcessPingPong() {
    }

    public static void main(String[] args) {
        boolean quick = false;
        int[] sizes = SIZES;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--sizes" -> sizes = java.util.Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                default -> throw new IllegalArgumentException("usage: ProcessPingPong [--quick] [--sizes 8,64,...]");
            }
        }
        try (Communicator world = Cohort.init()) {
            if (world.size() != 2) {
                throw new IllegalArgumentException("run with -n 2");
            }
            int rank = world.rank();
            int other = 1 - rank;
            ByteBuffer buf = ByteBuffer.allocateDirect(MAX_SIZE);
            StringBuilder out = new StringBuilder(
                    "| size B | median us | p99 us | mean us | samples | MiB/s streaming |\n|---:|---:|---:|---:|---:|---:|\n");
            // JIT warm-up, not recorded: long enough for C2 to compile the send and receive paths.
            for (int i = 0; i < (quick ? 1_000 : 1_000_000); i++) {
                buf.clear().limit(64);
                if (rank == 0) {
                    world.send(other, 1, buf);
                    buf.clear().limit(64);
                    world.recv(other, 1, buf);
                } else {
                    world.recv(other, 1, buf);
                    buf.clear().limit(64);
                    world.send(other, 1, buf);
                }
            }
            for (int size : sizes) {
                int iterations = quick ? 200 : size <= 65536 ? 50_000 : 1_000;
                int warmup = quick ? 100 : iterations / 5;
                Histogram h = new Histogram(3_600_000_000_000L, 3);
                long total = 0;
                // Round trips go to a plain array and into the histogram afterwards, so the echoing
                // side is back in its receive at once (as the C benchmark's array store is).
                long[] samples = new long[iterations];
                world.barrier();
                for (int i = 0; i < warmup + iterations; i++) {
                    long t0 = System.nanoTime();
                    if (rank == 0) {
                        buf.clear().limit(size);
                        world.send(other, 1, buf);
                        buf.clear().limit(size);
                        world.recv(other, 1, buf);
                    } else {
                        buf.clear().limit(size);
                        world.recv(other, 1, buf);
                        buf.clear().limit(size);
                        world.send(other, 1, buf);
                    }
                    long rtt = System.nanoTime() - t0;
                    if (i >= warmup) {
                        samples[i - warmup] = rtt;
                    }
                }
                for (long rtt : samples) {
                    h.recordValue(rtt);
                    total += rtt;
                }
                String bandwidth = size >= 262144 ? String.format(Locale.ROOT, "%.0f", stream(world, buf, size, quick)) : "";
                out.append(String.format(Locale.ROOT, "| %d | %.3f | %.3f | %.3f | %d | %s |%n", size,
                        h.getValueAtPercentile(50) / 2000.0, h.getValueAtPercentile(99) / 2000.0,
                        total / 2000.0 / iterations, iterations, bandwidth));
            }
            if (rank == 0) {
                System.out.print(out);
            }
        }
    }

    /** Rank 0 sends messages back to back, rank 1 receives them and acknowledges the last: MiB/s. */
    private static double stream(Communicator world, ByteBuffer buf, int size, boolean quick) {
        int count = quick ? 10 : Math.max(20, (256 << 20) / size);
        world.barrier();
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
            buf.clear().limit(size);
            if (world.rank() == 0) {
                world.send(1, 2, buf);
            } else {
                world.recv(0, 2, buf);
            }
        }
        if (world.rank() == 0) {
            world.recv(1, 3);
        } else {
            world.send(0, 3, new byte[1]);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return (double) count * size / seconds / (1 << 20);
    }
}

package io.cohort.bench;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How far apart two processors are right now, measured the whole time a benchmark runs: the round
 * trip of one cache line between two processes, each pinned to one processor (by {@code taskset},
 * which {@code scripts/bench-mpi.sh} starts them under), a thousand times every period.
 *
 * <p>Why: on a virtual machine the host moves the guest's processors between its own cores. On the
 * two-processor KVM guest of docs/benchmarks.md this probe reads 100-230 ns for seconds, then
 * 350-600 ns (the two processors on cores that share no cache), and every copy between two
 * processes slows three to five times with it. A result line is only comparable to another taken in
 * the same mode; the lines this prints let scripts/lib/bench-mpi-table.py say which mode each
 * result was taken in.
 *
 * <p>Two roles over one shared file of two cache lines: {@code lead} writes a count into the first
 * line and waits for {@code follow} to copy it into the second. Both sleep between probes, waking
 * on the same wall-clock ticks, so the probe costs the benchmark 0.1-0.3 % of each processor. The
 * lead prints, after a few silent probes that let the JIT compile the loop,
 * <pre>
 *   probe end_ms=1795939238279 rtt_ns=121 p10_ns=117 p90_ns=140
 * </pre>
 * (the end of the probe in milliseconds since the epoch; the median, 10th and 90th percentile round
 * trips, over batches of ten). A probe whose partner does not answer within 20 ms is dropped; after
 * ten such probes in a row a role stops, saying so on stderr. Both roles also stop when the process
 * that started them is gone, else until killed.
 *
 * <p>Usage: {@code CoreDistanceProbe lead|follow FILE [period-ms]}.
 */
public final class CoreDistanceProbe {
    /** A probe: this many batches of {@link #BATCH} round trips, each batch timed as a whole. */
    private static final int BATCHES = 100;
    private static final int BATCH = 10;
    private static final int SILENT = 5;
    private static final long WAIT_NANOS = 20_000_000L;
    /** How long the follower waits for the first count of a probe: both wake on the same tick. */
    private static final long FIRST_WAIT_NANOS = 3_000_000L;
    /** Probes in a row without an answer after which a role stops (its partner is not running). */
    private static final int GIVE_UP = 10;
    private static final int PING = 0;
    private static final int PONG = 128;
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private CoreDistanceProbe() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 2 || args.length > 3 || !args[0].equals("lead") && !args[0].equals("follow")) {
            System.err.println("usage: CoreDistanceProbe lead|follow FILE [period-ms]");
            System.exit(2);
        }
        long period;
        try {
            period = args.length == 3 ? Long.parseLong(args[2]) : 200;
        } catch (NumberFormatException e) {
            period = -1;
        }
        if (period < 10) {
            System.err.println("CoreDistanceProbe: the period is a whole number of milliseconds, at least 10");
            System.exit(2);
        }
        MappedByteBuffer line;
        try (FileChannel ch = FileChannel.open(Path.of(args[1]), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            line = ch.map(FileChannel.MapMode.READ_WRITE, 0, 256);
        }
        if (args[0].equals("lead")) {
            lead(line, period);
        } else {
            follow(line, period);
        }
    }

    /** Sleeps until the next multiple of {@code period} milliseconds since the epoch. */
    private static void awaitTick(long period) throws InterruptedException {
        long now = System.currentTimeMillis();
        Thread.sleep(period - Math.floorMod(now, period));
    }

    /** Ends this role, saying why, when its partner has been silent too long or its starter is gone. */
    private static void checkGoOn(Optional<ProcessHandle> parent, int silentProbes, String role) {
        if (parent.isPresent() && !parent.get().isAlive()) {
            System.exit(0); // the script that started us is gone: so is the run we measured for
        }
        if (silentProbes >= GIVE_UP) {
            System.err.println("CoreDistanceProbe " + role + ": no answer in " + GIVE_UP + " probes in a row; is the other"
                    + " role running (same file, same period)? stopping");
            System.exit(1);
        }
    }

    private static void lead(MappedByteBuffer line, long period) throws InterruptedException {
        Optional<ProcessHandle> parent = ProcessHandle.current().parent();
        long[] rtt = new long[BATCHES];
        long count = Math.max(0, (long) LONG.getAcquire(line, PONG));
        int silent = 0;
        for (int probe = 0; ; probe++) {
            checkGoOn(parent, silent, "lead");
            awaitTick(period);
            boolean answered = true;
            // Batch -1 waits for the follower, who woke on the same tick, and is not counted.
            for (int b = -1; b < BATCHES && answered; b++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < BATCH && answered; i++) {
                    long v = ++count;
                    // Release: the follower sees the new count; acquire below pairs with its release.
                    LONG.setRelease(line, PING, v);
                    while ((long) LONG.getAcquire(line, PONG) != v) {
                        if (System.nanoTime() - t0 > WAIT_NANOS) {
                            answered = false;
                            break;
                        }
                    }
                }
                if (b >= 0) {
                    rtt[b] = (System.nanoTime() - t0) / BATCH;
                }
            }
            LONG.setRelease(line, PING, -count); // done: the follower goes back to sleep
            silent = answered ? 0 : silent + 1;
            if (answered && probe >= SILENT) {
                Arrays.sort(rtt);
                System.out.printf(Locale.ROOT, "probe end_ms=%d rtt_ns=%d p10_ns=%d p90_ns=%d%n",
                        System.currentTimeMillis(), rtt[BATCHES / 2], rtt[BATCHES / 10], rtt[BATCHES * 9 / 10]);
            }
        }
    }

    private static void follow(MappedByteBuffer line, long period) throws InterruptedException {
        Optional<ProcessHandle> parent = ProcessHandle.current().parent();
        long last = 0;
        int silent = 0;
        for (;;) {
            checkGoOn(parent, silent, "follow");
            awaitTick(period);
            // The lead starts on the same tick: a short wait for its first count, a longer one between counts.
            long deadline = System.nanoTime() + FIRST_WAIT_NANOS;
            boolean echoed = false;
            for (;;) {
                long v = (long) LONG.getAcquire(line, PING);
                if (v > 0 && v != last) {
                    // Release: pairs with the lead's acquire of the answer.
                    LONG.setRelease(line, PONG, v);
                    last = v;
                    echoed = true;
                    deadline = System.nanoTime() + WAIT_NANOS;
                } else if (v < 0 && echoed || System.nanoTime() > deadline) {
                    break; // this probe is over (or its lead is late): sleep until the next tick
                }
            }
            silent = echoed ? 0 : silent + 1;
        }
    }
}

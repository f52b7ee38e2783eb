package io.cohort.bench;

import io.cohort.Cohort;
import io.cohort.Communicator;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How late a waiting peer sees a message that comes after a pause: rank 0 works (sleeps) for
 * {@code gap} ms, then sends its {@code System.nanoTime()}; rank 1, in a blocking receive the whole
 * time, takes the difference with its own clock on arrival (one host, one monotonic clock). That is
 * the latency of a worker waiting for its next task, or of the last peer into a collective: the
 * receiver's idle strategy has long since gone from spinning to sleeping, so what is measured is
 * how it is woken (shared memory's doorbell, or a timer without one).
 *
 * <pre>
 *   cohort run -n 2 --transport shm -cp ... io.cohort.bench.IdleWakeJob [rounds] [gapMillis] [label]
 * </pre>
 * Prints one line from rank 1: {@code idle-wake label=.. gap_ms=.. median_us=.. p99_us=.. max_us=..}.
 */
public final class IdleWakeJob {
    private IdleWakeJob() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int gapMillis = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        String label = args.length > 2 ? args[2] : "cohort";
        try (Communicator world = Cohort.init()) {
            if (world.size() != 2) {
                throw new IllegalArgumentException("IdleWakeJob runs with exactly 2 peers, not " + world.size());
            }
            ByteBuffer b = ByteBuffer.allocate(8);
            long[] delays = new long[rounds]; // plain arrays: the job runs on the bench classes alone
            for (int i = 0; i < rounds + 5; i++) {
                if (world.rank() == 0) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(gapMillis));
                    b.clear();
                    b.putLong(0, System.nanoTime());
                    world.send(1, 1, b);
                } else {
                    b.clear();
                    world.recv(0, 1, b);
                    long delay = System.nanoTime() - b.getLong(0);
                    if (i >= 5) { // the first rounds warm the code up
                        delays[i - 5] = delay;
                    }
                }
            }
            if (world.rank() == 1) {
                Arrays.sort(delays);
                System.out.printf("idle-wake label=%s gap_ms=%d rounds=%d median_us=%.1f p99_us=%.1f max_us=%.1f%n",
                        label, gapMillis, rounds, delays[rounds / 2] / 1e3,
                        delays[Math.min(rounds - 1, (int) Math.ceil(rounds * 0.99) - 1)] / 1e3, delays[rounds - 1] / 1e3);
            }
            world.barrier();
        }
    }
}

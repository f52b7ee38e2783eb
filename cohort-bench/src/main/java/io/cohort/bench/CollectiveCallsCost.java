package io.cohort.bench;

import io.cohort.LocalCohort;
import io.cohort.Op;
import io.cohort.stacks.CollectiveCalls;

import java.util.Arrays;
import java.util.Locale;

/**
 * What naming the running collective for the stacks ({@link CollectiveCalls}) costs each collective,
 * beside the fastest collectives it is added to, in one run: (1) finding the calling thread's
 * slot (the one kept from the last call) and one enter and exit, as {@code Collectives} does per call; (2) a barrier and an allreduce of one
 * long between two in-JVM peers over the shared-memory transport, busy-spinning (the shortest
 * collectives Cohort has, so the ratio is an upper bound). Each figure is the median of its blocks.
 * <p>
 * Usage: {@code CollectiveCallsCost [--blocks 30]}
 */
public final class CollectiveCallsCost {
    private static final int SLOT_CALLS = 1_000_000;
    private static final int COLLECTIVES = 20_000;
    private static volatile long sink;

    private CollectiveCallsCost() {
    }

    public static void main(String[] args) {
        int blocks = args.length == 2 && args[0].equals("--blocks") ? Integer.parseInt(args[1]) : 30;
        double slot = slotNanos(blocks);
        double[] coll = collectiveNanos(blocks);
        System.out.printf(Locale.ROOT, "| what | median ns per call | slot / call |%n|---|---:|---:|%n");
        System.out.printf(Locale.ROOT, "| slot (kept) + enter + exit | %.1f | |%n", slot);
        System.out.printf(Locale.ROOT, "| barrier, 2 in-JVM peers, shm, busy-spin | %.0f | %.2f %% |%n", coll[0], 100 * slot / coll[0]);
        System.out.printf(Locale.ROOT, "| allreduce of 1 long, same | %.0f | %.2f %% |%n", coll[1], 100 * slot / coll[1]);
    }

    private static double slotNanos(int blocks) {
        int[] buffer = new int[4];
        double[] per = new double[blocks];
        for (int warm = 0; warm < 5; warm++) {
            slotBlock(buffer);
        }
        for (int b = 0; b < blocks; b++) {
            long t0 = System.nanoTime();
            slotBlock(buffer);
            per[b] = (System.nanoTime() - t0) / (double) SLOT_CALLS;
        }
        return median(per);
    }

    private static void slotBlock(int[] buffer) {
        long s = 0;
        CollectiveCalls.Slot last = null;
        for (int i = 0; i < SLOT_CALLS; i++) {
            CollectiveCalls.Slot slot = CollectiveCalls.mine(last); // as Collectives keeps it
            last = slot;
            slot.enter("bcast", 0, "", i, 0, buffer, 4, null);
            slot.exit();
            s += i;
        }
        sink = s;
    }

    /** Medians per call of blocks of barriers, then of allreduces, timed at rank 0. */
    private static double[] collectiveNanos(int blocks) {
        double[][] per = new double[2][blocks];
        LocalCohort.builder().size(2).transport("shm").idle("busy-spin").run(world -> {
            long[] one = {1};
            long[] sum = new long[1];
            for (int warm = 0; warm < 5 * COLLECTIVES; warm++) {
                world.barrier();
                world.allreduce(one, sum, Op.SUM);
            }
            for (int b = 0; b < blocks; b++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < COLLECTIVES; i++) {
                    world.barrier();
                }
                long t1 = System.nanoTime();
                for (int i = 0; i < COLLECTIVES; i++) {
                    world.allreduce(one, sum, Op.SUM);
                }
                long t2 = System.nanoTime();
                if (world.rank() == 0) {
                    per[0][b] = (t1 - t0) / (double) COLLECTIVES;
                    per[1][b] = (t2 - t1) / (double) COLLECTIVES;
                }
            }
            if (sum[0] != 2) {
                throw new IllegalStateException("allreduce gave " + sum[0]);
            }
        });
        return new double[] {median(per[0]), median(per[1])};
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}

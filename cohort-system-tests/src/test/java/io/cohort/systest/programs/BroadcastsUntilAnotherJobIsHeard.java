package io.cohort.systest.programs;

import io.cohort.BroadcastDomain;
import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.Op;

import java.nio.charset.StandardCharsets;

/**
 * {@code BroadcastsUntilAnotherJobIsHeard <min-rounds> <deadline-seconds>}: the all-to-all broadcast
 * of the {@code broadcast} example, every message checked, repeated until at least min-rounds
 * rounds are done and some peer of this job has dropped a datagram that was not this job's, or
 * until rank 0 has run for deadline-seconds. Two such jobs on one broadcast port therefore overlap
 * for certain, however late the second one starts. Rank 0 prints
 * {@code until-heard: R rounds, W wrong, F foreign datagrams dropped}; any wrong message exits 1.
 */
public final class BroadcastsUntilAnotherJobIsHeard {
    private static final int CHECK_EVERY = 20;

    private BroadcastsUntilAnotherJobIsHeard() {
    }

    private static String text(int from, int round) {
        return "round " + round + " from rank " + from;
    }

    public static void main(String[] args) {
        int minRounds = Integer.parseInt(args[0]);
        long deadline = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
        try (Communicator world = Cohort.init()) {
            int rank = world.rank();
            int size = world.size();
            BroadcastDomain domain = world.broadcastDomain();
            int[][] targets = new int[size][];
            for (int p = 0; p < size; p++) {
                int[] t = new int[size - 1];
                for (int q = 0, k = 0; q < size; q++) {
                    if (q != p) {
                        t[k++] = q;
                    }
                }
                targets[p] = t;
            }
            long wrong = 0;
            long[] totals = new long[3]; // wrong, foreign dropped, rank 0's deadline passed
            int round = 0;
            while (true) {
                domain.multicast(text(rank, round).getBytes(StandardCharsets.UTF_8), targets[rank]);
                for (int source = 0; source < size; source++) {
                    if (source != rank) {
                        String got = new String(domain.request(source, targets[source]), StandardCharsets.UTF_8);
                        if (!got.equals(text(source, round))) {
                            wrong++;
                            System.err.println("rank " + rank + " got '" + got + "' from rank " + source);
                        }
                    }
                }
                round++;
                if (round >= minRounds && round % CHECK_EVERY == 0) {
                    long late = rank == 0 && System.nanoTime() - deadline > 0 ? 1 : 0;
                    world.allreduce(new long[] {wrong, domain.counters().dropped(), late}, totals, Op.SUM);
                    if (totals[1] > 0 || totals[2] > 0) {
                        break;
                    }
                }
            }
            if (rank == 0) {
                System.out.println("until-heard: " + round + " rounds, " + totals[0] + " wrong, " + totals[1]
                        + " foreign datagrams dropped");
            }
            if (totals[0] != 0) {
                System.exit(1);
            }
        }
    }
}

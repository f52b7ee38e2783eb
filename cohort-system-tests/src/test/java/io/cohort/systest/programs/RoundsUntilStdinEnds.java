package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.Op;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code RoundsUntilStdinEnds}: every rank runs rounds of a bcast, an allreduce and a ring of
 * point-to-point messages, checked, until
 * rank 0's standard input ends. Prints "rank R round 1" after the first round and "rank R did N
 * rounds" at the end, so a job that is suspended and continued in the middle shows whether its
 * collectives survived.
 */
public final class RoundsUntilStdinEnds {
    private RoundsUntilStdinEnds() {
    }

    public static void main(String[] args) {
        Communicator world = Cohort.init();
        int rank = world.rank();
        int size = world.size();
        AtomicBoolean ended = new AtomicBoolean();
        if (rank == 0) {
            Thread reader = new Thread(() -> {
                try {
                    while (System.in.read() >= 0) {
                        // Only the end matters.
                    }
                } catch (IOException e) {
                    // The same as the end.
                }
                ended.set(true);
            }, "stdin");
            reader.setDaemon(true);
            reader.start();
        }
        int[] last = new int[1];
        long[] contribution = new long[1];
        long[] sum = new long[1];
        long[] ring = new long[1];
        long rounds = 0;
        do {
            last[0] = rank == 0 && ended.get() ? 1 : 0;
            world.bcast(0, last);
            contribution[0] = rank + 1 + rounds;
            world.allreduce(contribution, sum, Op.SUM);
            long expected = (long) size * (size + 1) / 2 + size * rounds;
            if (sum[0] != expected) {
                throw new IllegalStateException("rank " + rank + " round " + rounds + ": allreduce gave " + sum[0]
                        + ", expected " + expected);
            }
            if (size > 1) { // and a ring of point-to-point messages, which go over the pairs' transport
                world.send((rank + 1) % size, 1, new long[] {rounds});
                world.recv((rank + size - 1) % size, 1, ring);
                if (ring[0] != rounds) {
                    throw new IllegalStateException("rank " + rank + " round " + rounds + ": the ring gave " + ring[0]);
                }
            }
            rounds++;
            if (rounds == 1) {
                System.out.println("rank " + rank + " round 1");
                System.out.flush();
            }
        } while (last[0] == 0);
        System.out.println("rank " + rank + " did " + rounds + " rounds");
    }
}

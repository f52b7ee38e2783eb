package io.cohort.examples;

import io.cohort.Cohort;
import io.cohort.Communicator;

/**
 * A token goes around the ring of peers; each peer adds one as it passes. Argument: number of
 * laps (default 10). Rank 0 checks the final value is laps * size.
 */
public final class Ring {
    private Ring() {
    }

    public static void main(String[] args) {
        int laps = (int) Argument.wholeNumber("ring", args, 10);
        try (Communicator world = Cohort.init()) {
            int rank = world.rank();
            int size = world.size();
            int next = (rank + 1) % size;
            int prev = (rank - 1 + size) % size;
            long token = 0;
            for (int lap = 0; lap < laps; lap++) {
                if (rank == 0) {
                    world.send(next, lap, new long[] {token + 1});
                    token = world.recv(prev, lap).asLongs()[0];
                } else {
                    token = world.recv(prev, lap).asLongs()[0];
                    world.send(next, lap, new long[] {token + 1});
                }
            }
            if (rank == 0) {
                long expected = (long) laps * size;
                System.out.println("ring: token went " + Words.count(laps, "time") + " around " + Words.count(size, "peer") + ", final value "
                        + token + (token == expected ? " (correct)" : " (WRONG, expected " + expected + ")"));
                if (token != expected) {
                    System.exit(1);
                }
            }
        }
    }
}

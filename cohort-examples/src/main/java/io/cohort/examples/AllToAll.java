package io.cohort.examples;

import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.Request;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Every peer sends a distinct message to every other and checks what it got. Argument: number of
 * rounds (default 1). Rank 0 prints the total once every peer has checked its messages.
 */
public final class AllToAll {
    private AllToAll() {
    }

    static String text(int from, int to, int round) {
        return "from " + from + " to " + to + " round " + round;
    }

    public static void main(String[] args) {
        int rounds = (int) Argument.wholeNumber("alltoall", args, 1);
        try (Communicator world = Cohort.init()) {
            int rank = world.rank();
            int size = world.size();
            long bad = 0;
            for (int round = 0; round < rounds; round++) {
                List<Request> sends = new ArrayList<>();
                for (int peer = 0; peer < size; peer++) {
                    if (peer != rank) {
                        sends.add(world.isend(peer, round, text(rank, peer, round).getBytes(StandardCharsets.UTF_8)));
                    }
                }
                for (int peer = 0; peer < size; peer++) {
                    if (peer != rank) {
                        String got = new String(world.recv(peer, round).bytes(), StandardCharsets.UTF_8);
                        if (!got.equals(text(peer, rank, round))) {
                            bad++;
                            System.err.println("rank " + rank + " got '" + got + "' from rank " + peer);
                        }
                    }
                }
                Request.awaitAll(sends);
            }
            long[] counts = {bad};
            if (rank == 0) {
                long totalBad = bad;
                for (int peer = 1; peer < size; peer++) {
                    totalBad += world.recv(peer, Integer.MAX_VALUE).asLongs()[0];
                }
                long messages = (long) rounds * size * (size - 1);
                System.out.println("alltoall: " + Words.count(size, "peer") + " exchanged " + Words.count(messages, "message")
                        + " in " + Words.count(rounds, "round") + ", " + (totalBad == 0 ? "all correct" : totalBad + " WRONG"));
                if (totalBad != 0) {
                    System.exit(1);
                }
            } else {
                world.send(0, Integer.MAX_VALUE, counts);
            }
        }
    }
}

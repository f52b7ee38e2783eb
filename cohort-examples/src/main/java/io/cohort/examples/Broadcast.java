package io.cohort.examples;

import io.cohort.BroadcastDomain;
import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.DomainCounters;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The PCODE paper's all-to-all broadcast on the job's broadcast domain: in every round each peer
 * multicasts one message to all the others (one datagram on the wire, whatever the number of
 * peers) and then requests the message of each other peer. Every message is checked. Argument:
 * number of rounds (default 10). Rank 0 prints the total, what recovering lost datagrams cost, and
 * how many datagrams of other jobs or strangers the peers dropped.
 *
 * <pre>
 *   cohort run -n 4 --example broadcast 1000
 *   cohort run -n 4 --fault loss=0.05 --example broadcast 1000     # 5% of datagrams dropped on arrival
 * </pre>
 */
public final class Broadcast {
    private Broadcast() {
    }

    static String text(int from, int round) {
        return "round " + round + " from rank " + from;
    }

    static int[] allBut(int size, int excluded) {
        int[] t = new int[size - 1];
        for (int p = 0, k = 0; p < size; p++) {
            if (p != excluded) {
                t[k++] = p;
            }
        }
        return t;
    }

    public static void main(String[] args) {
        int rounds = (int) Argument.wholeNumber("broadcast", args, 10);
        try (Communicator world = Cohort.init()) {
            int rank = world.rank();
            int size = world.size();
            BroadcastDomain domain = world.broadcastDomain();
            int[][] targets = new int[size][];
            for (int p = 0; p < size; p++) {
                targets[p] = allBut(size, p);
            }
            long bad = 0;
            for (int round = 0; round < rounds; round++) {
                if (size > 1) { // a job of one has no one to multicast to
                    domain.multicast(text(rank, round).getBytes(StandardCharsets.UTF_8), targets[rank]);
                }
                for (int source = 0; source < size; source++) {
                    if (source != rank) {
                        String got = new String(domain.request(source, targets[source]), StandardCharsets.UTF_8);
                        if (!got.equals(text(source, round))) {
                            bad++;
                            System.err.println("rank " + rank + " got '" + got + "' from rank " + source);
                        }
                    }
                }
            }
            long[] mine = {bad, domain.counters().nacksSent(),
                    domain.counters().get(DomainCounters.Counter.RETRANSMISSIONS), domain.counters().dropped()};
            if (rank == 0) {
                long[] total = mine.clone();
                for (int peer = 1; peer < size; peer++) {
                    long[] theirs = world.recv(peer, 1).asLongs();
                    Arrays.setAll(total, i -> total[i] + theirs[i]);
                }
                long messages = size > 1 ? (long) rounds * size : 0; // a job of one multicasts nothing
                System.out.println("broadcast: " + Words.count(size, "peer") + " multicast " + Words.count(messages, "message")
                        + " in " + Words.count(rounds, "round") + ", " + (total[0] == 0 ? "all correct" : total[0] + " WRONG") + "; " + total[1]
                        + " NACKs, " + total[2] + " retransmissions, " + total[3] + " foreign datagrams dropped");
                if (total[0] != 0) {
                    System.exit(1);
                }
            } else {
                world.send(0, 1, mine);
            }
        }
    }
}

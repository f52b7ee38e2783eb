package io.cohort.collective;

import io.cohort.LocalCohort;
import io.cohort.collective.Fixtures.Kind;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Every collective over point-to-point, for N = 1 to 9, every element type and every op that
 * applies, lengths 0, 1 and odd, each p2p algorithm forced on its own; long vectors on a few N.
 */
@Timeout(120)
class P2pCollectivesTest {
    /** Each set forces one algorithm per operation; together they cover every p2p algorithm. */
    private static final Algorithm[][] SETS = {
        {Algorithm.BARRIER_DISSEMINATION, Algorithm.BCAST_BINOMIAL, Algorithm.ALLGATHER_RECURSIVE_DOUBLING,
            Algorithm.ALLREDUCE_RECURSIVE_DOUBLING},
        {Algorithm.BARRIER_BINOMIAL, Algorithm.ALLGATHER_RING, Algorithm.ALLREDUCE_RABENSEIFNER},
        {Algorithm.ALLGATHER_GATHER_LINEAR, Algorithm.ALLREDUCE_LINEAR},
        {Algorithm.BARRIER_LINEAR, Algorithm.ALLREDUCE_REDUCE_BCAST, Algorithm.ALLGATHER_GATHER_BCAST, Algorithm.BCAST_LINEAR},
    };

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void everyCollectiveMatchesTheSequentialReference(int n) {
        AtomicInteger arrivals = new AtomicInteger();
        LocalCohort.builder().size(n).timeout(Duration.ofSeconds(100)).run(world -> {
            try (Collectives c = Fixtures.collectives(world, CollectiveMode.P2P, s -> { })) {
                CollectiveChecks k = new CollectiveChecks(c);
                int round = 0;
                for (Algorithm[] set : SETS) {
                    c.clearForced();
                    for (Algorithm a : set) {
                        c.force(a);
                    }
                    k.barrier(arrivals, ++round);
                    for (Kind kind : Kind.values()) {
                        for (int len : new int[] {0, 1, 7}) {
                            k.bcast(kind, len);
                            k.allgather(kind, len);
                            k.reductions(kind, len == 0 ? 0 : len + 2); // 3 and 9 elements (pairs for *LOC)
                        }
                        k.gatherScatter(kind, 5);
                        k.alltoall(kind, 3);
                    }
                    k.matrices(5);
                    k.barrier(arrivals, ++round);
                }
            }
        });
    }

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {3, 8})
    void longVectorsMatchTheSequentialReference(int n) {
        int len = 100_000;
        LocalCohort.builder().size(n).timeout(Duration.ofSeconds(100)).run(world -> {
            try (Collectives c = Fixtures.collectives(world, CollectiveMode.P2P, s -> { })) {
                CollectiveChecks k = new CollectiveChecks(c);
                for (Algorithm[] set : SETS) {
                    for (Algorithm a : set) {
                        c.force(a);
                    }
                    k.bcast(Kind.INT, len);
                    k.allgather(Kind.INT, len / n);
                    k.reductions(Kind.DOUBLE, len, io.cohort.Op.SUM);
                    k.reductions(Kind.INT, len / 2, io.cohort.Op.MAXLOC);
                    k.matrices(len / 4);
                }
                k.alltoall(Kind.LONG, len / n);
                k.gatherScatter(Kind.INT, len / n);
                // Longer than the scratch memory a communicator keeps (Scratch.KEEP_MAX): made per call.
                k.bcast(Kind.DOUBLE, 3 * len);
                k.reductions(Kind.LONG, 3 * len, io.cohort.Op.SUM);
                k.bcast(Kind.DIRECT_BUFFER, 11);
            }
        });
    }
}

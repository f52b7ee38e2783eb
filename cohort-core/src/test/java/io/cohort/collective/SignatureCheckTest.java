package io.cohort.collective;

import io.cohort.CohortException;
import io.cohort.LocalCohort;
import io.cohort.Op;
import io.cohort.stacks.CollectiveCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code --check-collectives}: calls that cannot meet fail at every rank in one sentence; calls that can run as ever. */
@Timeout(60)
class SignatureCheckTest {
    private static CollectiveCall call(String operation, int root, long count, String type, String op) {
        return new CollectiveCall(operation, 0, "", 7, root, count, type, op);
    }

    @Test
    void theVerdictNamesTheRanksOfEachCall() {
        CollectiveCall barrier = call("barrier", -1, -1, "", "");
        CollectiveCall bcast = call("bcast", 0, 4, "int[]", "");
        assertNull(SignatureCheck.verdict(new CollectiveCall[] {barrier, call("ibarrier", -1, -1, "", ""), barrier}));
        assertEquals("the ranks of world disagree about collective #7: [0-2] barrier; [3] bcast from root 0 of 4 ints;"
                        + " every rank must make the same collective calls in the same order (--check-collectives)",
                SignatureCheck.verdict(new CollectiveCall[] {barrier, barrier, barrier, bcast}));
        CollectiveCall[] split = {new CollectiveCall("allgather", 6, "[1,3]", 0, -1, 2, "int[]", ""),
                new CollectiveCall("allgather", 6, "[1,3]", 0, -1, 1, "long[]", "")};
        assertEquals("the ranks of communicator 6 [1,3] (ranks of that communicator) disagree about collective #0: [0]"
                + " allgather of 2 ints; [1] allgather of 1 long; every rank must make the same collective calls in the same"
                + " order (--check-collectives)", SignatureCheck.verdict(split));
        assertEquals(call("reduce", 2, 5, "double[]", "MAX"),
                call("reduce", 2, 5, "double[]", "MAX")); // the record's equality, which the wire form keeps:
        byte[] wire = SignatureCheck.encode(call("reduce", 2, 5, "double[]", "MAX"));
        assertEquals(2 + 6 + 4 + 8 + 2 + 8 + 2 + 3, wire.length);
    }

    /** Every rank's message, or null where its call returned. */
    private static AtomicReferenceArray<String> runChecked(int n, CollectiveMode mode, java.util.function.BiConsumer<Collectives, Integer> body) {
        AtomicReferenceArray<String> errors = new AtomicReferenceArray<>(n);
        try {
            LocalCohort.builder().size(n).timeout(Duration.ofSeconds(50)).run(world -> {
                // Named as the world's (context 0), as a job's world collectives are.
                try (Collectives c = new Collectives(Fixtures.channel(world, Fixtures.CONTEXT), mode, s -> { }, 0)) {
                    c.checkSignatures(true);
                    try {
                        body.accept(c, world.rank());
                    } catch (CohortException e) {
                        errors.set(world.rank(), e.getMessage());
                    }
                }
            });
        } catch (CohortException e) {
            for (int r = 0; r < n; r++) {
                if (errors.get(r) != null) {
                    return errors; // the check's failure may end the local job too; the messages are what counts
                }
            }
            throw e; // anything else, an assertion in the body included, fails the test
        }
        return errors;
    }

    @ParameterizedTest
    @EnumSource(CollectiveMode.class)
    void aRankInAnotherCollectiveFailsEveryRankInsteadOfHanging(CollectiveMode mode) {
        AtomicReferenceArray<String> errors = runChecked(4, mode, (c, rank) -> {
            if (rank == 3) {
                c.bcast(0, new int[4]);
            } else {
                c.barrier();
            }
        });
        String expected = "the ranks of world disagree about collective #0: [0-2] barrier; [3] bcast from root 0 of 4 ints;"
                + " every rank must make the same collective calls in the same order (--check-collectives)";
        for (int r = 0; r < 4; r++) {
            assertEquals(expected, errors.get(r), "rank " + r);
        }
    }

    @Test
    void anAllgatherOfIntsAgainstLongsOfTheSameBytesIsCaughtWhereItWouldReadWrongValues() {
        AtomicReferenceArray<String> errors = runChecked(2, CollectiveMode.P2P, (c, rank) -> {
            if (rank == 0) {
                c.allgather(new int[2], new int[4]);
            } else {
                c.allgather(new long[1], new long[2]);
            }
        });
        assertEquals("the ranks of world disagree about collective #0: [0] allgather of 2 ints; [1] allgather of 1 long;"
                + " every rank must make the same collective calls in the same order (--check-collectives)", errors.get(0));
        assertEquals(errors.get(0), errors.get(1));
    }

    @Test
    void differentRootsAndOpsAreCaught() {
        AtomicReferenceArray<String> roots = runChecked(3, CollectiveMode.P2P, (c, rank) -> c.bcast(rank == 2 ? 1 : 0, new long[3]));
        assertEquals("the ranks of world disagree about collective #0: [0,1] bcast from root 0 of 3 longs; [2] bcast from root 1"
                + " of 3 longs; every rank must make the same collective calls in the same order (--check-collectives)", roots.get(2));
        AtomicReferenceArray<String> ops = runChecked(2, CollectiveMode.P2P,
                (c, rank) -> c.allreduce(new double[2], new double[2], rank == 0 ? Op.SUM : Op.MAX));
        assertEquals("the ranks of world disagree about collective #0: [0] allreduce with SUM of 2 doubles; [1] allreduce with MAX"
                + " of 2 doubles; every rank must make the same collective calls in the same order (--check-collectives)", ops.get(1));
    }

    @ParameterizedTest
    @EnumSource(CollectiveMode.class)
    void correctProgramsRunAsEverWithTheCheckOn(CollectiveMode mode) {
        int n = 3;
        AtomicReferenceArray<String> errors = runChecked(n, mode, (c, rank) -> {
            long[] b = rank == 1 ? new long[] {4, 5, 6} : new long[3];
            c.bcast(1, b);
            assertArrayEquals(new long[] {4, 5, 6}, b);
            byte[] bytes = c.bcastBytes(0, rank == 0 ? new byte[] {9} : null); // a length only the root knows
            assertArrayEquals(new byte[] {9}, bytes);
            int[] sum = new int[1];
            c.allreduce(new int[] {rank}, sum, Op.SUM);
            assertEquals(n * (n - 1) / 2, sum[0]);
            int[] counts = {1, 2, 3};
            int[] all = new int[6];
            c.allgatherv(new int[counts[rank]], all, counts, new int[] {0, 1, 3}); // counts differ by rank: allowed
            int[] mine = new int[1];
            c.scatter(0, rank == 0 ? new int[] {7, 8, 9} : null, mine);
            assertEquals(7 + rank, mine[0]);
            c.ibcast(0, new int[2]).await();
            c.barrier();
            c.ibarrier().await();
        });
        for (int r = 0; r < n; r++) {
            assertNull(errors.get(r), "rank " + r);
        }
    }
}

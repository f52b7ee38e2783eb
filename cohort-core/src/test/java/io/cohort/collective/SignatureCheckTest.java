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
    }

    @Test
    void aSignatureTravelsWithoutItsCommunicatorAndNumberWhichAreTheReceiversOwn() {
        CollectiveCall sent = new CollectiveCall("reduce", 9, "[4,5]", 3, 2, 5, "double[]", "MAX");
        CollectiveCall mine = new CollectiveCall("reduce", 6, "[1,3]", 7, 2, 5, "double[]", "MAX");
        byte[] wire = SignatureCheck.encode(sent);
        assertEquals(2 + 6 + 4 + 8 + 2 + 8 + 2 + 3, wire.length);
        assertEquals(new CollectiveCall("reduce", 6, "[1,3]", 7, 2, 5, "double[]", "MAX"), SignatureCheck.decode(wire, mine));
        for (int cut = 0; cut < wire.length; cut++) {
            assertNull(SignatureCheck.decode(java.util.Arrays.copyOf(wire, cut), mine), "cut at " + cut);
        }
    }

    @Test
    void theSettingIsOnOffOrRefused() {
        assertEquals(true, SignatureCheck.parse("X", "1"));
        assertEquals(true, SignatureCheck.parse("X", " TRUE "));
        assertEquals(false, SignatureCheck.parse("X", null));
        assertEquals(false, SignatureCheck.parse("X", "0"));
        assertEquals(false, SignatureCheck.parse("X", "false"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SignatureCheck.parse("COHORT_CHECK_COLLECTIVES", "yes"));
        assertEquals("setting COHORT_CHECK_COLLECTIVES=yes is neither true (1) nor false (0)", e.getMessage());
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
        assertEverywhere("the ranks of world disagree about collective #0: [0,1] bcast from root 0 of 3 longs; [2] bcast from root 1"
                + " of 3 longs; every rank must make the same collective calls in the same order (--check-collectives)", roots);
        AtomicReferenceArray<String> ops = runChecked(2, CollectiveMode.P2P,
                (c, rank) -> c.allreduce(new double[2], new double[2], rank == 0 ? Op.SUM : Op.MAX));
        assertEverywhere("the ranks of world disagree about collective #0: [0] allreduce with SUM of 2 doubles; [1] allreduce with MAX"
                + " of 2 doubles; every rank must make the same collective calls in the same order (--check-collectives)", ops);
        // The root's bcast of a byte[] and another rank's bcast of the root's bytes are different calls: without the
        // check the second one gets the first one's header as data.
        AtomicReferenceArray<String> bytes = runChecked(2, CollectiveMode.P2P, (c, rank) -> {
            if (rank == 0) {
                c.bcast(0, new byte[] {1, 2, 3});
            } else {
                c.bcastBytes(0, null);
            }
        });
        assertEverywhere("the ranks of world disagree about collective #0: [0] bcast from root 0 of 3 bytes; [1] bcastBytes from root"
                + " 0; every rank must make the same collective calls in the same order (--check-collectives)", bytes);
    }

    private static void assertEverywhere(String expected, AtomicReferenceArray<String> errors) {
        for (int r = 0; r < errors.length(); r++) {
            assertEquals(expected, errors.get(r), "rank " + r);
        }
    }

    /** Two ints, little-endian as the wire carries them. */
    private static byte[] intsAsBytes(int a, int b) {
        return java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(a).putInt(b).array();
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
            // Packed data: the other ranks send their two ints as 8 bytes, the root receives ints (the mpi
            // and mpj layers' PACKED and struct types do this), in the v form and the plain one.
            int[] gathered = new int[2 * n];
            Object block = rank == 0 ? new int[] {10, 11} : intsAsBytes(10 * rank + 10, 10 * rank + 11);
            c.gatherv(0, block, rank == 0 ? gathered : null, new int[] {2, 2, 2}, new int[] {0, 2, 4});
            c.gather(0, block, rank == 0 ? gathered : new int[0]);
            if (rank == 0) {
                assertArrayEquals(new int[] {10, 11, 20, 21, 30, 31}, gathered);
            }
            String[] names = new String[n];
            c.gather(0, rank == 1 ? new Object[] {"b"} : new String[] {rank == 0 ? "a" : "c"}, names); // objects alike
            if (rank == 0) {
                assertArrayEquals(new String[] {"a", "b", "c"}, names);
            }
            byte[] raw = rank == 0 ? new byte[] {5, 6} : new byte[2];
            c.bcast(0, rank == 2 ? java.nio.ByteBuffer.wrap(raw) : raw); // a ByteBuffer meets a byte[]
            assertArrayEquals(new byte[] {5, 6}, raw);
            long[] swapped = new long[n];
            c.alltoall(new long[] {rank, rank, rank}, swapped);
            assertArrayEquals(new long[] {0, 1, 2}, swapped);
            long[] max = new long[1];
            c.reduce(2, new long[] {rank}, max, Op.MAX);
            int[] part = new int[1];
            c.reduceScatter(new int[] {1, 1, 1}, part, new int[] {1, 1, 1}, Op.SUM);
            assertEquals(n, part[0]);
            long[] prefix = new long[1];
            c.scan(new long[] {1}, prefix, Op.SUM);
            assertEquals(rank + 1, prefix[0]);
            c.exscan(new long[] {1}, prefix, Op.SUM);
            c.iallreduce(new int[] {1}, sum, Op.SUM).await();
            assertEquals(n, sum[0]);
            assertEquals("x", c.bcastObject(0, rank == 0 ? "x" : null));
            int[] from = new int[1];
            c.scatterv(1, rank == 1 ? new int[] {4, 5, 6} : null, new int[] {1, 1, 1}, new int[] {0, 1, 2}, from);
            assertEquals(4 + rank, from[0]);
        });
        for (int r = 0; r < n; r++) {
            assertNull(errors.get(r), "rank " + r);
        }
    }
}

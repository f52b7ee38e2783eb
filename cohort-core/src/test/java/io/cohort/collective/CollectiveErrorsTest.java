package io.cohort.collective;

import io.cohort.CohortException;
import io.cohort.LocalCohort;
import io.cohort.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.nio.ByteBuffer;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad calls fail with one sentence naming the bad value, before any message is sent (so nobody hangs). */
@Timeout(60)
class CollectiveErrorsTest {
    private static void fails(String message, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertEquals(message, e.getMessage());
    }

    @Test
    void badArgumentsFailAtEveryPeerBeforeAnyMessage() {
        LocalCohort.builder().size(3).timeout(Duration.ofSeconds(50)).run(world -> {
            try (Collectives c = Fixtures.collectives(world, CollectiveMode.AUTO, s -> { })) {
                fails("BAND does not apply to double[]", () -> c.allreduce(new double[2], new double[2], Op.BAND));
                fails("root 3 does not exist; ranks are 0 to 2", () -> c.bcast(3, new int[1]));
                fails("bcast buffer is a java.lang.String; collectives take primitive arrays, ByteBuffers and Object[]"
                        + " of Serializable elements", () -> c.bcast(0, "text"));
                fails("bcast buffer is null; pass a primitive array, a ByteBuffer or an Object[]", () -> c.bcast(0, null));
                fails("allreduce recv buffer holds 1 elements but needs 2", () -> c.allreduce(new int[2], new int[1], Op.SUM));
                fails("allreduce needs send and recv buffers of one element type, not int[] and long[]",
                        () -> c.allreduce(new int[2], new long[2], Op.SUM));
                fails("MINLOC needs an even number of elements, read as (value, index) pairs, not 3",
                        () -> c.allreduce(new int[3], new int[3], Op.MINLOC));
                fails("allgather needs an op, not null".replace("allgather needs an op", "scan needs an op"),
                        () -> c.scan(new int[1], new int[1], null));
                fails("alltoall send buffer holds 4 elements, not a multiple of 3 peers", () -> c.alltoall(new int[4], new int[3]));
                fails("allgatherv counts must have one entry per rank (3), not 2",
                        () -> c.allgatherv(new int[1], new int[3], new int[] {1, 1}, new int[] {0, 1}));
                fails("allgatherv block of rank 2 (count 1 at displacement 2) does not fit in a buffer of 2 elements",
                        () -> c.allgatherv(new int[1], new int[2], new int[] {1, 1, 1}, new int[] {0, 1, 2}));
                fails("gather recv buffer holds 1 elements but needs 6", () -> c.gather(c.rank(), new int[2], new int[1]));
                fails("gather send buffer is null; pass a primitive array, a ByteBuffer or an Object[]", () -> c.gather(c.rank(), null, new int[3]));
                fails("scatter send buffer holds 5 elements but needs 6", () -> c.scatter(c.rank(), new int[5], new int[2]));
                fails("allgather recv buffer holds 5 elements but needs 6", () -> c.allgather(new int[2], new int[5]));
                fails("alltoall recv buffer holds 2 elements but needs 3", () -> c.alltoall(new int[3], new int[2]));
                fails("allreduce recv buffer is a read-only ByteBuffer; results cannot be written into it",
                        () -> c.allreduce(ByteBuffer.allocate(2), ByteBuffer.allocate(2).asReadOnlyBuffer(), Op.SUM));
                fails("user int op does not apply to long[]; it combines int[]",
                        () -> c.allreduce(new long[1], new long[1], Op.ofInts(Integer::sum, true)));
                fails("setting cohort.collectives=fast is not a collectives mode; use auto, p2p or bcast",
                        () -> CollectiveMode.parse("fast"));
                c.barrier(); // nothing was sent above: the peers are still in step
                int[] x = {1};
                c.allreduce(x, x, Op.SUM);
                assertEquals(3, x[0]);
            }
        });
    }

    @Test
    void aBcastIntoAMismatchedBufferFailsAtThatPeerWithTheRootsTypeAndCount() {
        CohortException e = assertThrows(CohortException.class, () ->
                LocalCohort.builder().size(3).timeout(Duration.ofSeconds(50)).run(world -> {
                    try (Collectives c = Fixtures.collectives(world, CollectiveMode.P2P, s -> { })) {
                        c.bcast(0, world.rank() == 2 ? new long[4] : new int[4]);
                    }
                }));
        assertTrue(e.getCause() instanceof IllegalArgumentException, String.valueOf(e.getCause()));
        assertEquals("rank 2's bcast buffer is long[] of 4 elements but root 0 sent int[] of 4 elements;"
                + " pass buffers of one type and length", e.getCause().getMessage());
    }

    /** A rank in a bcast where its root is in a barrier receives the barrier's empty message, and says what it means. */
    @Test
    void aBcastThatReceivesAnotherCollectivesMessageSaysTheRanksAreNotInTheSameCollective() {
        String[] errors = new String[2];
        assertThrows(CohortException.class, () ->
                LocalCohort.builder().size(2).timeout(Duration.ofSeconds(50)).run(world -> {
                    try (Collectives c = Fixtures.collectives(world, CollectiveMode.P2P, s -> { })) {
                        c.force(Algorithm.BARRIER_DISSEMINATION);
                        c.force(Algorithm.BCAST_BINOMIAL);
                        try {
                            if (world.rank() == 0) {
                                c.barrier();
                            } else {
                                c.bcast(0, new int[4]);
                            }
                        } catch (RuntimeException e) {
                            errors[world.rank()] = e.getMessage();
                            assertNull(io.cohort.stacks.CollectiveCalls.snapshot().get(Thread.currentThread().getId()),
                                    "a collective that failed is left, for the stacks");
                            throw e;
                        }
                    }
                }));
        assertEquals("rank 1's bcast from root 0 received 0 bytes that are no bcast's: the ranks are not in the same"
                + " collective; every rank must make the same collective calls in the same order", errors[1]);
    }

    /**
     * Root 0 bcasts objects; rank 2, which forwards to rank 3 in the tree, passes a short int[] and
     * cuts the message. Rank 2 names the root's type; rank 3, whose buffer is right, is told that a
     * forwarding peer cut it rather than failing to deserialize.
     */
    @Test
    void aBcastCutByAForwardingPeerSaysSoBelowIt() {
        String[] errors = new String[4];
        assertThrows(CohortException.class, () ->
                LocalCohort.builder().size(4).timeout(Duration.ofSeconds(50)).run(world -> {
                    try (Collectives c = Fixtures.collectives(world, CollectiveMode.P2P, s -> { })) {
                        Object[] objects = new Object[3];
                        if (world.rank() == 0) {
                            java.util.Arrays.fill(objects, "a string long enough to be cut by a buffer of 2 ints");
                        }
                        try {
                            c.bcast(0, world.rank() == 2 ? new int[2] : objects);
                        } catch (RuntimeException e) {
                            errors[world.rank()] = e.getMessage();
                            throw e;
                        }
                    }
                }));
        assertEquals("rank 2's bcast buffer is int[] of 2 elements but root 0 sent Object[] of 3 elements;"
                + " pass buffers of one type and length", errors[2]);
        assertEquals("rank 3 received a cut copy of root 0's bcast: a peer that forwards it to this one passed a"
                + " shorter buffer", errors[3]);
        assertNull(errors[1], "rank 1 gets the root's message whole");
    }

    /**
     * Peers whose allgatherv counts disagree: rank 1 sends 3 elements and says so, rank 0 expects 2
     * from it. In place (ring, recursive doubling) rank 0 receives more bytes than its counts make
     * and names the sender; rank 1, whose own expectation is met, completes.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = Algorithm.class,
            names = {"ALLGATHER_RECURSIVE_DOUBLING", "ALLGATHER_RING"})
    void anAllgatherOfDisagreeingCountsFailsWhereTheyDoNotFit(Algorithm algorithm) {
        String[] errors = new String[2];
        assertThrows(CohortException.class, () ->
                LocalCohort.builder().size(2).timeout(Duration.ofSeconds(50)).run(world -> {
                    try (Collectives c = Fixtures.collectives(world, CollectiveMode.P2P, s -> { })) {
                        c.force(algorithm);
                        int[] counts = world.rank() == 0 ? new int[] {2, 2} : new int[] {2, 3};
                        try {
                            c.allgatherv(new int[counts[world.rank()]], new int[5], counts, new int[] {0, 2});
                        } catch (RuntimeException e) {
                            errors[world.rank()] = e.getMessage();
                            throw e;
                        }
                    }
                }));
        assertEquals("rank 0 received 12 bytes of allgather blocks from rank 1 where its counts make 8; do the peers"
                + " pass the same counts?", errors[0]);
        assertNull(errors[1]);
    }

    /**
     * Peers that pass different counts to an allreduce: both ends of the swap fail, naming the
     * partner and both lengths; the shorter side's receive is cut (truncated), the longer side's
     * comes short, and neither waits for anything more.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = Algorithm.class,
            names = {"ALLREDUCE_RECURSIVE_DOUBLING", "ALLREDUCE_RABENSEIFNER"})
    void anAllreduceOfDifferentCountsFailsAtBothPeers(Algorithm algorithm) {
        CohortException e = assertThrows(CohortException.class, () ->
                LocalCohort.builder().size(2).timeout(Duration.ofSeconds(50)).run(world -> {
                    try (Collectives c = Fixtures.collectives(world, CollectiveMode.P2P, s -> { })) {
                        c.force(algorithm);
                        int n = world.rank() == 0 ? 4096 : 2048;
                        double[] x = new double[n];
                        try {
                            c.allreduce(x, x, Op.SUM);
                            throw new AssertionError("rank " + world.rank() + "'s allreduce of mismatched counts completed");
                        } catch (CohortException expected) {
                            assertTrue(expected.getMessage().contains(" from rank " + (1 - world.rank()) + " carried "),
                                    expected.getMessage());
                            assertTrue(expected.getMessage().endsWith("do the peers pass the same counts and types?"),
                                    expected.getMessage());
                            throw expected;
                        }
                    }
                }));
        assertTrue(e.getMessage().contains("carried") || String.valueOf(e.getCause()).contains("carried"), e.toString());
    }

    @Test
    void collectivesOnOnePeerNeedNoMessages() {
        LocalCohort.builder().size(1).run(world -> {
            for (CollectiveMode mode : CollectiveMode.values()) {
                try (Collectives c = Fixtures.collectives(world, mode, s -> { })) {
                    int[] x = {7};
                    c.allreduce(x, x, Op.PROD);
                    c.bcast(0, x);
                    c.barrier();
                    c.ibarrier().await();
                    assertEquals(7, x[0]);
                }
            }
        });
    }
}

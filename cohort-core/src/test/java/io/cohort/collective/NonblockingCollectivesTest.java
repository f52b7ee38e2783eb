package io.cohort.collective;

import io.cohort.LocalCohort;
import io.cohort.Op;
import io.cohort.Request;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ibcast, iallreduce and ibarrier: many in flight at once, mixed with blocking collectives, in
 * every mode; each completes with the right result, on the instance's own thread.
 */
@Timeout(60)
class NonblockingCollectivesTest {
    @ParameterizedTest
    @EnumSource(CollectiveMode.class)
    void manyInFlightMixedWithBlockingOnes(CollectiveMode mode) {
        int n = 5;
        Set<String> threads = ConcurrentHashMap.newKeySet();
        LocalCohort.builder().size(n).timeout(Duration.ofSeconds(50)).run(world -> {
            int me = world.rank();
            try (Collectives c = Fixtures.collectives(world, mode, s -> { })) {
                for (int round = 0; round < 10; round++) {
                    List<Request> pending = new ArrayList<>();
                    long[][] bufs = new long[4][];
                    long[][] sums = new long[4][];
                    for (int i = 0; i < 4; i++) {
                        bufs[i] = me == i ? new long[] {round, i, 42} : new long[3];
                        pending.add(c.ibcast(i, bufs[i]));
                        sums[i] = new long[2];
                        int fi = i;
                        pending.add(c.iallreduce(new long[] {me + fi, 1}, sums[i], Op.ofLongs((a, b) -> {
                            threads.add(Thread.currentThread().getName());
                            return a + b;
                        }, true)));
                        pending.add(c.ibarrier());
                    }
                    int[] blocking = {me};
                    c.allreduce(blocking, blocking, Op.MAX); // waits for the ones above first
                    assertEquals(n - 1, blocking[0]);
                    for (Request r : pending) {
                        assertTrue(r.isDone(), "a blocking collective returned before the nonblocking ones before it");
                        r.await();
                        assertNull(r.message());
                    }
                    for (int i = 0; i < 4; i++) {
                        assertArrayEquals(new long[] {round, i, 42}, bufs[i]);
                        assertArrayEquals(new long[] {n * (n - 1) / 2 + (long) n * i, n}, sums[i]);
                    }
                }
            }
        });
        for (String t : threads) {
            assertTrue(t.startsWith("cohort-coll-"), "nonblocking collectives ran on " + t);
        }
    }

    /** Request.awaitAny over nonblocking collectives alone, and with a collective before a receive. */
    @ParameterizedTest
    @EnumSource(CollectiveMode.class)
    void awaitAnyTakesNonblockingCollectivesAloneOrBeforeAReceive(CollectiveMode mode) {
        LocalCohort.builder().size(3).timeout(Duration.ofSeconds(50)).run(world -> {
            int me = world.rank();
            try (Collectives c = Fixtures.collectives(world, mode, s -> { })) {
                int[] value = {me == 0 ? 7 : 0};
                List<Request> collectives = List.of(c.ibarrier(), c.ibcast(0, value));
                int first = Request.awaitAny(collectives);
                assertTrue(collectives.get(first).isDone());
                Request.awaitAll(collectives);
                assertEquals(7, value[0]);

                Request barrier = c.ibarrier();
                Request recv = world.irecv((me + 1) % 3, 5);
                world.send((me + 2) % 3, 5, new byte[] {(byte) me});
                List<Request> mixed = List.of(barrier, recv);
                int any = Request.awaitAny(mixed);
                assertTrue(mixed.get(any).isDone());
                Request.awaitAll(mixed);
                assertEquals((me + 1) % 3, recv.message().bytes()[0]);
            }
        });
    }

    /** A bcast whose non-root buffers are too short: their requests fail, the root's and later ones succeed. */
    @ParameterizedTest
    @EnumSource(CollectiveMode.class)
    void aFailedNonblockingCollectiveFailsItsRequestOnly(CollectiveMode mode) {
        LocalCohort.builder().size(4).timeout(Duration.ofSeconds(50)).run(world -> {
            try (Collectives c = Fixtures.collectives(world, mode, s -> { })) {
                int me = world.rank();
                Request bad = c.ibcast(0, me == 0 ? new int[] {1, 2, 3} : new int[2]);
                Request good = c.ibarrier();
                good.await(Duration.ofSeconds(30));
                if (me == 0) {
                    bad.await();
                } else {
                    try {
                        bad.await();
                        throw new AssertionError("a bcast into a too-short buffer completed");
                    } catch (IllegalArgumentException e) {
                        assertEquals("rank " + me + "'s bcast buffer is int[] of 2 elements but root 0 sent int[] of 3"
                                + " elements; pass buffers of one type and length", e.getMessage());
                    }
                }
                int[] x = {1};
                c.allreduce(x, x, Op.SUM);
                assertEquals(4, x[0]);
            }
        });
    }
}

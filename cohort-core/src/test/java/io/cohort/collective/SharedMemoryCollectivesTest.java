package io.cohort.collective;

import io.cohort.CohortException;
import io.cohort.Communicator;
import io.cohort.LocalCohort;
import io.cohort.Op;
import io.cohort.PeerClosedException;
import io.cohort.PeerFailedException;
import io.cohort.collective.Fixtures.Kind;
import io.cohort.comm.EngineCommunicator;
import io.cohort.transport.shm.ShmTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared-memory collectives ({@link SharedMemoryCollectives}) between in-JVM peers over real
 * shared-memory transports and segments in /dev/shm: every collective they run against the
 * sequential reference for N = 1 to 9, every element type and op, lengths 0, 1 and odd; vectors of
 * many chunks; the doorbell for peers that sleep; and what happens when a peer fails, leaves or
 * errs half-way.
 */
@Timeout(120)
class SharedMemoryCollectivesTest {
    private static final Algorithm[] SHARED = {Algorithm.BARRIER_SHARED_MEMORY, Algorithm.BCAST_SHARED_MEMORY,
        Algorithm.ALLGATHER_SHARED_MEMORY, Algorithm.ALLREDUCE_SHARED_MEMORY, Algorithm.REDUCE_SHARED_MEMORY};

    private static LocalCohort shm(int n) {
        return LocalCohort.builder().size(n).transport("shm").timeout(Duration.ofSeconds(100));
    }

    /** Collectives on the world's engine that run every operation they can through shared memory. */
    private static Collectives shared(Communicator world, ConcurrentLinkedQueue<String> log) {
        Collectives c = Fixtures.collectives(world, CollectiveMode.P2P, log::add);
        for (Algorithm a : SHARED) {
            c.force(a);
        }
        return c;
    }

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9})
    void everyCollectiveMatchesTheSequentialReference(int n) {
        AtomicInteger arrivals = new AtomicInteger();
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        shm(n).run(world -> {
            try (Collectives c = shared(world, log)) {
                CollectiveChecks k = new CollectiveChecks(c);
                k.barrier(arrivals, 1);
                for (Kind kind : Kind.values()) {
                    for (int len : new int[] {0, 1, 7}) {
                        k.bcast(kind, len);
                        k.allgather(kind, len);
                        k.reductions(kind, len == 0 ? 0 : len + 2); // 3 and 9 elements (pairs for *LOC)
                    }
                    k.gatherScatter(kind, 5);
                }
                k.matrices(5);
                k.barrier(arrivals, 2);
            }
        });
        if (n > 1) {
            assertTrue(log.stream().anyMatch(s -> s.contains("allreduce") && s.contains("shared-memory-reduce-scatter")),
                    "the allreduces ran through shared memory: " + log);
            assertTrue(log.stream().noneMatch(s -> s.contains("no shared-memory segment")), String.valueOf(log));
        }
    }

    /**
     * Slots of 4 KiB: vectors of many chunks, bcasts whose root runs ahead of its readers by two
     * areas, allgathers whose blocks end in different rounds.
     */
    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {2, 3, 8})
    void vectorsOfManyChunksMatchTheSequentialReference(int n) {
        int len = 20_000;
        shm(n).run(world -> {
            try (Collectives c = shared(world, new ConcurrentLinkedQueue<>())) {
                c.sharedMemory().areaBytesForTests(4096);
                CollectiveChecks k = new CollectiveChecks(c);
                k.bcast(Kind.INT, len);
                k.bcast(Kind.DIRECT_BUFFER, len + 5);
                k.allgather(Kind.DOUBLE, len / n + 3);
                k.reductions(Kind.DOUBLE, len, Op.SUM);
                k.reductions(Kind.INT, len / 2, Op.MAXLOC);
                k.reductions(Kind.BOOLEAN, 4099, Op.LXOR);
                k.matrices(len / 4 + 1);
                int[] counts = new int[n];
                int[] displs = new int[n];
                int total = 0;
                for (int r = 0; r < n; r++) {
                    counts[r] = r * 1500; // rank 0 sends nothing; the longest block takes several rounds
                    displs[r] = total;
                    total += counts[r];
                }
                long[] mine = new long[counts[world.rank()]];
                for (int i = 0; i < mine.length; i++) {
                    mine[i] = world.rank() * 1_000_000L + i;
                }
                long[] all = new long[total];
                c.allgatherv(mine, all, counts, displs);
                for (int r = 0; r < n; r++) {
                    for (int i = 0; i < counts[r]; i++) {
                        assertEquals(r * 1_000_000L + i, all[displs[r] + i], "allgatherv block " + r + " element " + i);
                    }
                }
            }
        });
    }

    /**
     * Under the park strategy every wait sleeps at once, so every step is ended by a ring of the
     * doorbell, not by a time-out: a thousand barriers in well under the 100 ms a lost ring costs each.
     */
    @Test
    void peersThatSleepAreRungByTheArrivalTheyWaitFor() {
        long[] rings = new long[4];
        LocalCohort.builder().size(4).transport("shm").idle("park").timeout(Duration.ofSeconds(100)).run(world -> {
            try (Collectives c = shared(world, new ConcurrentLinkedQueue<>())) {
                ShmTransport t = (ShmTransport) ((EngineCommunicator) world).engine().transportTo((world.rank() + 1) % 4);
                long before = t.doorbellRingsSent();
                long start = System.nanoTime();
                for (int i = 0; i < 1000; i++) {
                    c.barrier();
                }
                long took = System.nanoTime() - start;
                rings[world.rank()] = t.doorbellRingsSent() - before;
                assertTrue(took < 50_000_000_000L, "1000 barriers took " + took / 1_000_000 + " ms");
                double[] sum = {world.rank()};
                c.allreduce(sum, sum, Op.SUM);
                assertEquals(6.0, sum[0]);
            }
        });
        assertTrue(java.util.Arrays.stream(rings).sum() > 0, "no arrival rang a sleeping peer");
    }

    /**
     * A nonblocking allreduce runs on the collectives' own thread while the program's thread waits
     * in a receive that only comes after the allreduce is done elsewhere: the collective's thread
     * waits apart from the one that polls, and is woken when its step comes.
     */
    @Test
    void aNonblockingCollectiveFinishesWhileTheProgramWaitsForAMessage() {
        LocalCohort.builder().size(3).transport("shm").idle("park").timeout(Duration.ofSeconds(100)).run(world -> {
            try (Collectives c = shared(world, new ConcurrentLinkedQueue<>())) {
                c.barrier();
                for (int i = 0; i < 20; i++) {
                    double[] x = {world.rank() + i};
                    if (world.rank() == 0) {
                        io.cohort.Request r = c.iallreduce(x, x, Op.SUM);
                        assertEquals(i, world.recv(1, 7).asInts()[0]);
                        r.await();
                    } else {
                        c.allreduce(x, x, Op.SUM);
                        if (world.rank() == 1) {
                            world.send(0, 7, new int[] {i});
                        }
                    }
                    assertEquals(3.0 + 3 * i, x[0]);
                }
            }
        });
    }

    /** Two communicators' collectives interleave without touching each other's segment. */
    @Test
    void communicatorsHaveSegmentsOfTheirOwn() {
        shm(4).run(world -> {
            Communicator odd = world.split(world.rank() % 2, world.rank());
            try (Collectives a = shared(world, new ConcurrentLinkedQueue<>());
                 Collectives b = new Collectives(Fixtures.channel(world, Fixtures.CONTEXT + 1), CollectiveMode.P2P, s -> { })) {
                for (Algorithm alg : SHARED) {
                    b.force(alg);
                }
                for (int i = 0; i < 50; i++) {
                    long[] x = {world.rank() + i};
                    long[] y = {10L * world.rank()};
                    a.allreduce(x, x, Op.SUM);
                    b.allreduce(y, y, Op.MAX);
                    assertEquals(6 + 4L * i, x[0]);
                    assertEquals(30, y[0]);
                    int[] root = {world.rank() == i % 4 ? i : -1};
                    b.bcast(i % 4, root);
                    assertEquals(i, root[0]);
                }
                int[] sum = {world.rank()};
                odd.allreduce(sum, sum, Op.SUM);
                assertEquals(world.rank() % 2 == 0 ? 2 : 4, sum[0]);
            } finally {
                odd.close();
            }
        });
    }

    /** A channel without shared memory (the in-JVM transport) runs the forced algorithms over point-to-point. */
    @Test
    void withoutSharedMemoryTheCollectivesFallBackToPointToPoint() {
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        LocalCohort.builder().size(3).timeout(Duration.ofSeconds(50)).run(world -> {
            try (Collectives c = shared(world, log)) {
                int[] x = {world.rank()};
                c.allreduce(x, x, Op.SUM);
                assertEquals(3, x[0]);
                c.barrier();
            }
        });
        assertTrue(log.stream().anyMatch(s -> s.contains("no shared-memory segment for the collectives (its peers do not"
                + " all share this host's memory); they use point-to-point")), String.valueOf(log));
        assertTrue(log.stream().anyMatch(s -> s.contains("allreduce of 4 B at 3 peers uses recursive-doubling")),
                String.valueOf(log));
    }

    /** A rank that closes its world without the barrier the others are in fails them, naming it. */
    @Test
    void aRankThatLeftEndsTheOthersWaitWithItsName() {
        List<Throwable> errors = othersInASecondBarrier(2, () -> { });
        assertEquals(2, errors.size(), String.valueOf(errors));
        for (Throwable e : errors) {
            assertInstanceOf(PeerClosedException.class, e);
            assertTrue(e.getMessage().startsWith("rank 2 closed its world"), e.getMessage());
        }
    }

    /** A rank that dies (its thread fails outside any collective) ends the others' wait for it with its failure. */
    @Test
    void aRankThatDiesEndsTheOthersWaitAsAFailureNamingIt() {
        List<Throwable> errors = othersInASecondBarrier(1, () -> {
            throw new IllegalStateException("rank 1 dies");
        });
        assertEquals(2, errors.size(), String.valueOf(errors));
        for (Throwable e : errors) {
            assertInstanceOf(PeerFailedException.class, e);
            assertEquals(1, ((PeerFailedException) e).peer());
            assertTrue(e.getMessage().contains("rank 1 dies"), e.getMessage());
        }
    }

    /**
     * Three ranks set their segment up with a barrier; then rank {@code victim} runs {@code leave}
     * and leaves its program, and the others enter a second barrier. Returns what they failed with.
     */
    private static List<Throwable> othersInASecondBarrier(int victim, Runnable leave) {
        List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        assertThrows(CohortException.class, () -> shm(3).run(world -> {
            try (Collectives c = shared(world, new ConcurrentLinkedQueue<>())) {
                c.barrier();
                if (world.rank() == victim) {
                    leave.run();
                    return;
                }
                try {
                    c.barrier();
                } catch (RuntimeException e) {
                    errors.add(e);
                    throw e;
                }
            }
        }));
        return errors;
    }

    /**
     * A user op that throws at rank 1 half-way through an allreduce: rank 1 fails with its own
     * error, the others at once with one naming rank 1, and later collectives fail too, not hang.
     */
    @Test
    void aRankThatFailsHalfWayFailsTheOthersInsteadOfLeavingThemWaiting() {
        Op fragile = Op.ofInts((a, b) -> {
            if (a == 13 || b == 13) {
                throw new IllegalStateException("no thirteens");
            }
            return a + b;
        }, true);
        String[] errors = new String[3];
        String[] later = new String[3];
        assertThrows(CohortException.class, () -> shm(3).run(world -> {
            try (Collectives c = shared(world, new ConcurrentLinkedQueue<>())) {
                // Long enough to be split (not reduced whole by each): rank 1 reduces elements 1000 to 1999.
                int[] x = new int[3000];
                x[1500] = world.rank() == 0 ? 13 : 0;
                try {
                    c.allreduce(x, x, fragile);
                } catch (RuntimeException e) {
                    errors[world.rank()] = e.getClass().getSimpleName() + ": " + e.getMessage();
                }
                try {
                    c.barrier();
                } catch (RuntimeException e) {
                    later[world.rank()] = e.getMessage();
                    throw e;
                }
            }
        }));
        assertEquals("IllegalStateException: no thirteens", errors[1]);
        for (int r : new int[] {0, 2}) {
            assertEquals(PeerFailedException.class.getSimpleName() + ": rank 1 left this collective with an error (its"
                    + " own report says which), so the others cannot finish it", errors[r]);
        }
        assertTrue(later[1].startsWith("an earlier collective on this communicator failed at rank 1"), later[1]);
    }

    /**
     * An op whose indivisible unit is longer than a slot (4 KiB here: 600 doubles) cannot be
     * chunked: the reductions go by point-to-point, and every rank agrees so.
     */
    @Test
    void anOpWhoseUnitDoesNotFitASlotGoesByPointToPoint() {
        Op blocks = Op.create("sum of blocks of 600", true, 600, (in, inout, count) -> {
            for (int i = 0; i < count; i++) {
                ((double[]) inout)[i] += ((double[]) in)[i];
            }
        });
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        shm(3).run(world -> {
            try (Collectives c = shared(world, log)) {
                c.sharedMemory().areaBytesForTests(4096);
                double[] x = new double[1200];
                java.util.Arrays.fill(x, world.rank());
                c.allreduce(x, x, blocks);
                assertEquals(3.0, x[1199]);
                c.reduce(2, x, x, blocks);
                assertEquals(world.rank() == 2 ? 9.0 : 3.0, x[0]);
            }
        });
        assertTrue(log.stream().anyMatch(s -> s.startsWith("cohort: allreduce of 9600 B at 3 peers uses ")), String.valueOf(log));
        assertTrue(log.stream().noneMatch(s -> s.contains("reduce of") && s.contains("shared-memory")), String.valueOf(log));
    }

    /**
     * The grouping of a reduction is the binomial tree's: {@code ((x0 x1)(x2 x3))((x4 x5) x6)} at
     * N = 7, as MPI libraries group at N = 2^k (Java Grande's MolDyn checks its sums to the last bit
     * at 4 processes). An op that is neither associative nor commutative shows the grouping, for
     * short vectors (reduced whole by every rank) and long ones (split into parts).
     */
    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {2, 4, 5, 7})
    void reductionsGroupAsABinomialTree(int n) {
        Op pairs = Op.ofLongs((a, b) -> a * 1000 + b, false); // (x o y) = 1000 x + y: the grouping shows
        long expected = group(0, n);
        shm(n).run(world -> {
            try (Collectives c = shared(world, new ConcurrentLinkedQueue<>())) {
                for (int len : new int[] {3, 9000}) {
                    long[] x = new long[len];
                    java.util.Arrays.fill(x, world.rank() + 1);
                    c.allreduce(x, x, pairs);
                    assertEquals(expected, x[0], "allreduce of " + len);
                    assertEquals(expected, x[len - 1], "allreduce of " + len);
                }
            }
        });
    }

    /** The binomial tree's grouping of ranks [lo, hi) with values rank + 1. */
    private static long group(int lo, int hi) {
        if (hi - lo == 1) {
            return lo + 1;
        }
        int half = Integer.highestOneBit(hi - lo - 1); // the largest aligned power of two below the count
        return group(lo, lo + half) * 1000 + group(lo + half, hi);
    }

    /** The slot size setting: a power of two from 4 KiB to 16 MiB, else one sentence; the default shrinks with N. */
    @Test
    void theSlotSizeSettingIsCheckedAndTheDefaultFitsTheBudget() {
        assertEquals(8192, SharedMemoryCollectives.checkedAreaBytes(" 8192 "));
        for (String bad : new String[] {"5000", "2048", "33554432", "lots"}) {
            io.cohort.BadSettingException e = assertThrows(io.cohort.BadSettingException.class,
                    () -> SharedMemoryCollectives.checkedAreaBytes(bad));
            assertEquals("cohort.collectives.sharedAreaBytes=" + bad + " must be a power of two from 4096 to 16777216",
                    e.getMessage());
        }
        assertEquals(64 << 10, SharedMemoryCollectives.areaBytes(126), "(126 + 2) slots of 64 KiB: 8 MiB");
        assertEquals(64 << 10, SharedMemoryCollectives.areaBytes(254), "16 MiB exactly");
        assertEquals(32 << 10, SharedMemoryCollectives.areaBytes(255));
        assertEquals(4096, SharedMemoryCollectives.areaBytes(100_000), "never below 4 KiB");
    }

    /** A bcast into a buffer unlike the root's fails there, in step, and leaves the communicator usable. */
    @Test
    void aMismatchedBcastFailsAtThatRankAlone() {
        String[] errors = new String[3];
        shm(3).run(world -> {
            try (Collectives c = shared(world, new ConcurrentLinkedQueue<>())) {
                c.sharedMemory().areaBytesForTests(4096);
                try {
                    c.bcast(0, world.rank() == 2 ? new long[3000] : new int[3000]);
                } catch (IllegalArgumentException e) {
                    errors[world.rank()] = e.getMessage();
                }
                int[] x = {world.rank()};
                c.allreduce(x, x, Op.SUM);
                assertEquals(3, x[0]);
                byte[] got = c.bcastBytes(1, world.rank() == 1 ? new byte[] {1, 2, 3} : null);
                assertArrayEquals(new byte[] {1, 2, 3}, got);
            }
        });
        assertEquals(null, errors[0]);
        assertEquals(null, errors[1]);
        assertEquals("rank 2's bcast buffer is long[] of 3000 elements but root 0 sent int[] of 3000 elements;"
                + " pass buffers of one type and length", errors[2]);
    }
}

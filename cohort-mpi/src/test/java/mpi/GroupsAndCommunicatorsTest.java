package mpi;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Groups and their set operations, and communicators made by dup, split and create. */
@Timeout(60)
class GroupsAndCommunicatorsTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void groupSetOperationsAndTranslation(int np) {
        MpiJob.run(np, (rank, size) -> {
            Group world = MPI.COMM_WORLD.getGroup();
            assertEquals(size, world.getSize());
            assertEquals(rank, world.getRank());
            int[] evensRanks = java.util.stream.IntStream.range(0, size).filter(r -> r % 2 == 0).toArray();
            Group evens = world.incl(evensRanks);
            Group odds = world.excl(evensRanks);
            assertEquals(evensRanks.length, evens.getSize());
            assertEquals(size - evensRanks.length, odds.getSize());
            assertEquals(rank % 2 == 0 ? rank / 2 : MPI.UNDEFINED, evens.getRank());
            Group both = Group.union(odds, evens);
            assertEquals(size, both.getSize());
            assertEquals(size == 1 ? MPI.IDENT : MPI.SIMILAR, Group.compare(both, world));
            assertEquals(0, Group.intersection(evens, odds).getSize());
            assertEquals(evens.getSize(), Group.difference(world, odds).getSize());
            assertEquals(MPI.IDENT, Group.compare(Group.difference(world, odds), evens));
            assertEquals(MPI.UNEQUAL, size > 1 ? Group.compare(evens, odds) : MPI.UNEQUAL);
            // translateRanks: world rank r is evens rank r / 2 when even, else UNDEFINED.
            int[] all = java.util.stream.IntStream.range(0, size).toArray();
            int[] t = Group.translateRanks(world, all, evens);
            for (int r = 0; r < size; r++) {
                assertEquals(r % 2 == 0 ? r / 2 : MPI.UNDEFINED, t[r]);
            }
            assertArrayEquals(new int[] {MPI.PROC_NULL}, Group.translateRanks(world, new int[] {MPI.PROC_NULL}, evens));
            // Ranges: every third rank from the top down.
            Group range = world.rangeIncl(new int[][] {{size - 1, 0, -3}});
            assertEquals((size + 2) / 3, range.getSize());
            assertEquals(0, MPI.GROUP_EMPTY.getSize());
            assertEquals(MPI.UNDEFINED, MPI.GROUP_EMPTY.getRank());
            evens.free();
            assertTrue(evens.isNull());
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void splitCreateDupKeepTrafficApart(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            // Split by parity, ranked in reverse.
            Intracomm half = w.split(rank % 2, -rank);
            int members = rank % 2 == 0 ? (size + 1) / 2 : size / 2;
            assertEquals(members, half.getSize());
            int[] sum = new int[1];
            half.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            int expected = 0;
            for (int r = rank % 2; r < size; r += 2) {
                expected += r;
            }
            assertEquals(expected, sum[0]);
            // Ranks run in reverse: the highest world rank of the colour is rank 0.
            int[] top = {rank};
            half.bcast(top, 1, MPI.INT, 0);
            int highest = rank % 2 + 2 * ((size - 1 - rank % 2) / 2);
            assertEquals(highest, top[0]);

            // The same tag on the world and on a dup: each receive gets its own message.
            Intracomm dup = w.dup();
            assertEquals(MPI.CONGRUENT, Comm.compare(dup, w));
            assertEquals(MPI.IDENT, Comm.compare(w, w));
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            Request a = w.iSend(new int[] {1000 + rank}, 1, MPI.INT, next, 5);
            Request b = dup.iSend(new int[] {2000 + rank}, 1, MPI.INT, next, 5);
            int[] fromDup = new int[1];
            int[] fromWorld = new int[1];
            dup.recv(fromDup, 1, MPI.INT, prev, 5);
            w.recv(fromWorld, 1, MPI.INT, prev, 5);
            Request.waitAll(new Request[] {a, b});
            assertEquals(2000 + prev, fromDup[0]);
            assertEquals(1000 + prev, fromWorld[0]);

            // create: the first half of the world; the others get a null communicator.
            Group first = w.getGroup().incl(java.util.stream.IntStream.range(0, (size + 1) / 2).toArray());
            Intracomm made = w.create(first);
            if (rank < (size + 1) / 2) {
                assertFalse(made.isNull());
                assertEquals((size + 1) / 2, made.getSize());
                assertEquals(rank, made.getRank());
                made.barrier();
                made.free();
                assertTrue(made.isNull());
            } else {
                assertTrue(made.isNull());
            }
            Intracomm none = w.split(rank == 0 ? 0 : MPI.UNDEFINED, 0);
            assertEquals(rank != 0, none.isNull());

            // COMM_SELF is this process alone.
            assertEquals(1, MPI.COMM_SELF.getSize());
            assertEquals(0, MPI.COMM_SELF.getRank());
            int[] self = {rank};
            MPI.COMM_SELF.allReduce(self, 1, MPI.INT, MPI.SUM);
            assertEquals(rank, self[0]);
            half.free();
            dup.free();
        });
    }
    /** createGroup: only the group's members call it; here the even ranks, while the odd ones do not. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void createGroupIsMadeByTheMembersAlone(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            if (rank % 2 == 0) {
                int[] evens = java.util.stream.IntStream.range(0, size).filter(r -> r % 2 == 0).toArray();
                Intracomm c = w.createGroup(w.getGroup().incl(evens), 7);
                assertEquals(evens.length, c.getSize());
                assertEquals(rank / 2, c.getRank());
                int[] sum = new int[1];
                c.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
                assertEquals(java.util.Arrays.stream(evens).sum(), sum[0]);
                c.free();
            }
            w.setErrhandler(MPI.ERRORS_RETURN);
            if (size > 1 && rank == 1) {
                MPIException e = org.junit.jupiter.api.Assertions.assertThrows(MPIException.class,
                        () -> w.createGroup(w.getGroup().incl(new int[] {0}), 0));
                assertEquals(MPI.ERR_GROUP, e.getErrorClass());
                assertTrue(e.getMessage().contains("is not in the group"), e.getMessage());
            }
            w.barrier();
        });
    }

    /**
     * THREAD_MULTIPLE: two threads of every process make communicators from different parents at
     * once, and each new communicator's messages reach only its own receives.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void threadsMakeCommunicatorsAtOnce(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm other = MPI.COMM_WORLD.dup();
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                java.util.concurrent.Future<?> a = pool.submit(() -> makeAndUse(MPI.COMM_WORLD, 1, c -> c.dup()));
                java.util.concurrent.Future<?> b = pool.submit(() -> makeAndUse(other, 2, c -> c.split(0, -rank)));
                a.get();
                b.get();
            } finally {
                pool.shutdownNow();
            }
            other.free();
        });
    }

    @FunctionalInterface
    private interface Maker {
        Intracomm make(Intracomm parent) throws MPIException;
    }

    private static Void makeAndUse(Intracomm parent, int which, Maker maker) throws MPIException {
        for (int i = 0; i < 40; i++) {
            Intracomm c = maker.make(parent);
            int me = c.getRank();
            int n = c.getSize();
            int[] out = {which, i, me};
            int[] in = new int[3];
            Request r = c.iSend(out, 3, MPI.INT, (me + 1) % n, 9);
            Status s = c.recv(in, 3, MPI.INT, MPI.ANY_SOURCE, 9);
            r.waitFor();
            assertArrayEquals(new int[] {which, i, (me + n - 1) % n}, in, "a message of another communicator");
            assertEquals((me + n - 1) % n, s.getSource());
            c.free();
        }
        return null;
    }
}

package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input gives one clear sentence: thrown under ERRORS_RETURN, fatal (one line, exit 1) by default. */
@Timeout(60)
class ErrorsTest {

    @Test
    void errorsReturnThrowsOneSentencePerMistake() {
        MpjJob.run(2, (rank, size) -> {
            MPI.Errorhandler_set(MPI.ERRORS_RETURN);
            assertSame(MPI.ERRORS_RETURN, MPI.Errorhandler_get());
            Intracomm w = MPI.COMM_WORLD;
            assertMessage(() -> w.Send(new int[1], 0, 1, MPI.INT, 7, 0), "destination rank 7");
            assertMessage(() -> w.Send(new int[1], 0, 1, MPI.DOUBLE, 1, 0), "int[] but its datatype MPI.DOUBLE");
            assertMessage(() -> w.Send(new int[2], 1, 2, MPI.INT, 1, 0), "need 3 elements but the buffer has 2");
            assertMessage(() -> w.Send(new int[1], -1, 1, MPI.INT, 1, 0), "offset is negative");
            assertMessage(() -> w.Send(new int[1], 0, 1, MPI.INT, 1, -5), "tag -5 is negative");
            assertMessage(() -> w.Recv(new int[1], 0, 1, MPI.INT, 5, 0), "source rank 5");
            assertMessage(() -> w.Send("text", 0, 1, MPI.OBJECT, 1, 0), "pass an array");
            assertMessage(() -> w.Bcast(new int[1], 0, 1, MPI.INT, 3), "root 3");
            assertMessage(() -> w.Allreduce(new double[1], 0, new double[1], 0, 1, MPI.DOUBLE, MPI.BAND), "BAND");
            assertMessage(() -> w.Allreduce(new int[1], 0, new int[1], 0, 1, MPI.INT, MPI.MINLOC), "pair type");
            assertMessage(() -> w.Allreduce(new Object[1], 0, new Object[1], 0, 1, MPI.OBJECT, MPI.SUM), "User_function");
            // After SUM and MINLOC have run on int, their quick acceptance still refuses what it refused.
            int[] sum = new int[1];
            w.Allreduce(new int[] {1}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            assertEquals(size, sum[0]);
            int[] loc = new int[2];
            w.Allreduce(new int[] {rank, rank}, 0, loc, 0, 1, MPI.INT2, MPI.MINLOC);
            assertEquals(0, loc[0]);
            assertMessage(() -> w.Allreduce(new int[1], 0, new int[1], 0, 1, MPI.INT, MPI.MINLOC), "pair type");
            assertMessage(() -> w.Allreduce(new Object[1], 0, new Object[1], 0, 1, MPI.OBJECT, MPI.SUM), "User_function");
            assertMessage(() -> w.Allreduce(new int[1], 0, new int[1], 0, 2, MPI.INT, MPI.SUM), "need 2 elements");
            assertMessage(() -> w.Split(-5, 0), "color -5");
            assertMessage(() -> MPI.COMM_WORLD.Create_cart(new int[] {3, 3}, new boolean[2], false), "needs 9 processes");
            assertMessage(() -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1}, new Datatype[] {MPI.INT, MPI.DOUBLE}),
                    "share one base type");
            assertMessage(() -> MPI.COMM_WORLD.Group().Incl(new int[] {0, 0}), "given twice");
            assertMessage(() -> MPI.COMM_WORLD.Free(), "cannot be freed");
            assertMessage(() -> MPI.Init(new String[0]), "already initialized");
            // A message longer than the receive buffer.
            if (rank == 0) {
                w.Send(new int[] {1, 2, 3}, 0, 3, MPI.INT, 1, 1);
                w.Send(new Object[] {"a", "b"}, 0, 2, MPI.OBJECT, 1, 2);
            } else {
                int[] head = new int[2];
                assertMessage(() -> w.Recv(head, 0, 2, MPI.INT, 0, 1), "longer than the receive buffer");
                org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {1, 2}, head, "the items that fit are there");
                Object[] one = new Object[1];
                assertMessage(() -> w.Recv(one, 0, 1, MPI.OBJECT, 0, 2), "does not fit");
                assertEquals("a", one[0]);
            }
            w.Barrier();
        });
    }

    @Test
    void vCollectivesRangesPackSizesAndGraphMapsAreChecked() {
        MpjJob.run(2, (rank, size) -> {
            MPI.Errorhandler_set(MPI.ERRORS_RETURN);
            Intracomm w = MPI.COMM_WORLD;
            int[] counts = {1, 1};
            assertMessage(() -> w.Allgatherv(new int[1], 0, 1, MPI.INT, new int[2], 0, counts, null, MPI.INT), "not null");
            assertMessage(() -> w.Alltoallv(new int[2], 0, counts, null, MPI.INT, new int[2], 0, counts, new int[] {0, 1},
                    MPI.INT), "not null");
            assertMessage(() -> w.Gatherv(new int[1], 0, 1, MPI.INT, new int[2], 0, counts, null, MPI.INT, rank), "not null");
            // Receive blocks that overlap: the result would depend on which arrived last.
            assertMessage(() -> w.Allgatherv(new int[2], 0, 2, MPI.INT, new int[3], 0, new int[] {2, 2}, new int[] {0, 1},
                    MPI.INT), "the blocks of ranks 0 (items 0..1) and 1 (items 1..2) overlap");
            assertMessage(() -> w.Group().Range_incl(new int[][] {{0, Integer.MAX_VALUE, 1}}), "outside the group's ranks 0..1");
            assertMessage(() -> w.Pack_size(-3, MPI.INT), "count is negative");
            Graphcomm g = w.Create_graph(new int[] {1, 2}, new int[] {1, 0}, false);
            assertMessage(() -> g.Map(null, null), "Graphcomm.Map");
            assertMessage(() -> g.Map(new int[] {1, 2, 3, 4, 5}, new int[] {9}), "Graphcomm.Map");
            assertEquals(rank, g.Map(new int[] {1, 2}, new int[] {1, 0}));
            w.Barrier();
        });
    }

    @Test
    void intercommunicatorGroupsMustBeDisjointAndInThePeerCommunicator() {
        MpjJob.run(4, (rank, size) -> {
            MPI.Errorhandler_set(MPI.ERRORS_RETURN);
            Intracomm parity = MPI.COMM_WORLD.Split(rank % 2, rank);
            // Holds the two leaders (world ranks 0 and 1) but not ranks 2 and 3.
            Intracomm low = MPI.COMM_WORLD.Split(rank <= 1 ? 0 : 1, rank);
            assertMessage(() -> low.Create_intercomm(parity, 0, rank <= 1 ? 1 - rank : 0, 4),
                    "not in the peer communicator");
            assertMessage(() -> MPI.COMM_WORLD.Create_intercomm(MPI.COMM_WORLD, 0, 0, 5), "must be disjoint");
            MPI.COMM_WORLD.Barrier();
        });
    }

    @Test
    void errorsAreFatalByDefault() {
        io.cohort.CohortException e = assertThrows(io.cohort.CohortException.class, () -> MpjJob.run(1, (rank, size) -> {
            assertSame(MPI.ERRORS_ARE_FATAL, MPI.Errorhandler_get());
            MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, 3, 0);
        }));
        MpjJob.Fatal f = (MpjJob.Fatal) e.getCause();
        assertTrue(f.error.getMessage().startsWith("Send: destination rank 3"), f.error.getMessage());
    }


    @Test
    void initReturnsTheArgumentsAndAbortEndsTheJob() {
        int[] code = {-1};
        Errors.abortAction = c -> code[0] = c;
        try {
            io.cohort.LocalCohort.run(1, world -> {
                Peer.bind(new Peer(world));
                try {
                    String[] rest = MPI.Init(new String[] {"a", "b"});
                    assertEquals(java.util.List.of("a", "b"), java.util.List.of(rest));
                    assertTrue(MPI.Initialized());
                    assertTrue(MPI.Wtime() > 0);
                    assertTrue(MPI.Wtick() > 0);
                    assertTrue(!MPI.Get_processor_name().isEmpty());
                    MPI.COMM_WORLD.Abort(7);
                    MPI.Finalize();
                    assertFalse(MPI.Initialized(), "false after Finalize, as in MPJ Express: programs guard Finalize with it");
                } finally {
                    Peer.unbind();
                }
            });
        } finally {
            Errors.abortAction = System::exit;
        }
        assertEquals(7, code[0]);
        assertEquals(1, io.cohort.mpi.support.AbortStatus.of(0), "status 0 would end nothing");
        assertEquals(1, io.cohort.mpi.support.AbortStatus.of(512));
    }

    @Test
    void callsBeforeInitAreFatalByDefaultAndSayToCallInit() throws ClassNotFoundException {
        Class.forName(MpjJob.class.getName()); // its static block turns the fatal exit into MpjJob.Fatal
        MpjJob.Fatal outside = assertThrows(MpjJob.Fatal.class, () -> MPI.COMM_WORLD.Rank());
        assertEquals("Rank: MPI is not initialized; call MPI.Init(args) first", outside.error.getMessage());
        io.cohort.LocalCohort.run(1, world -> {
            Peer.bind(new Peer(world));
            try {
                MpjJob.Fatal fatal = assertThrows(MpjJob.Fatal.class, () -> MPI.COMM_WORLD.Barrier());
                assertTrue(fatal.error.getMessage().endsWith("MPI is not initialized; call MPI.Init(args) first"),
                        fatal.error.getMessage());
            } finally {
                Peer.unbind();
            }
        });
    }

    private static void assertMessage(Runnable call, String part) {
        MPIException e = assertThrows(MPIException.class, call::run, part);
        assertTrue(e.getMessage().contains(part), "expected \"" + part + "\" in: " + e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), "one line: " + e.getMessage());
    }
}

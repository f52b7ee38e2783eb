package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inter-communicators: createIntercomm, point-to-point to the remote group (blocking,
 * nonblocking, wildcards, probes), the remote group, dup, merge, refused collectives, getParent
 * and the creation's mistakes.
 */
@Timeout(60)
class IntercommTest {

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void twoHalvesTalkAcrossAndMerge(int np) {
        MpiJob.run(np, (rank, size) -> {
            int low = size / 2;
            int color = rank < low ? 0 : 1;
            Intracomm local = MPI.COMM_WORLD.split(color, rank);
            Intercomm inter = MPI.COMM_WORLD.createIntercomm(local, 0, color == 0 ? low : 0, 99);
            int mine = color == 0 ? low : size - low;
            int theirs = size - mine;
            int remoteBase = color == 0 ? low : 0; // world rank of remote rank 0
            assertTrue(inter.isInter());
            assertFalse(local.isInter());
            assertEquals(mine, inter.getSize());
            assertEquals(local.getRank(), inter.getRank());
            assertEquals(theirs, inter.getRemoteSize());
            Group remote = inter.getRemoteGroup();
            assertEquals(theirs, remote.getSize());
            assertEquals(MPI.UNDEFINED, remote.getRank());
            assertEquals(mine, inter.getGroup().getSize());
            assertEquals(inter.getRank(), inter.getGroup().getRank());
            int[] toWorld = Group.translateRanks(remote, new int[] {0}, MPI.COMM_WORLD.getGroup());
            assertEquals(remoteBase, toWorld[0]);

            // Every process sends its world rank to remote rank (local rank mod remote size),
            // nonblocking; receives name the sender by its rank in its own group.
            int me = inter.getRank();
            Request sent = inter.iSend(new int[] {rank}, 1, MPI.INT, me % theirs, 5);
            int incoming = 0;
            for (int r = 0; r < theirs; r++) {
                if (r % mine == me) {
                    incoming++;
                }
            }
            for (int i = 0; i < incoming; i++) {
                Status probed = inter.probe(MPI.ANY_SOURCE, 5);
                int[] got = new int[1];
                Status st = inter.recv(got, 1, MPI.INT, probed.getSource(), 5);
                assertEquals(probed.getSource(), st.getSource());
                assertEquals(remoteBase + st.getSource(), got[0], "the status names the sender's rank in its group");
            }
            sent.waitFor();

            // A ring across: local rank r sends to remote rank r (when there is one) and posts a
            // receive from the same remote rank with iRecv; its status is translated too.
            if (me < theirs) {
                int[] back = new int[1];
                Request r = inter.iRecv(back, 1, MPI.INT, me, 6);
                inter.send(new int[] {rank * 10}, 1, MPI.INT, me, 6);
                Status st = r.waitStatus();
                assertEquals(me, st.getSource());
                assertEquals((remoteBase + me) * 10, back[0]);
            }

            Intercomm copy = inter.dup();
            assertTrue(copy.isInter());
            assertEquals(theirs, copy.getRemoteSize());
            if (me == 0) {
                int[] got = new int[1];
                Status st = copy.sendRecv(new int[] {rank}, 1, MPI.INT, 0, 7, got, 1, MPI.INT, 0, 7);
                assertEquals(0, st.getSource());
                assertEquals(remoteBase, got[0]);
            }
            copy.free();

            inter.setErrhandler(MPI.ERRORS_RETURN);
            ErrorHandlersTest.expect(MPI.ERR_COMM, () -> inter.barrier());
            ErrorHandlersTest.expect(MPI.ERR_COMM, () -> inter.bcast(new int[1], 1, MPI.INT, 0));
            ErrorHandlersTest.expect(MPI.ERR_COMM, () -> inter.allReduce(new int[1], new int[1], 1, MPI.INT, MPI.SUM));
            ErrorHandlersTest.expect(MPI.ERR_RANK, () -> inter.send(new int[1], 1, MPI.INT, theirs, 0));

            Intracomm merged = inter.merge(color == 1);
            assertEquals(size, merged.getSize());
            assertEquals(rank, merged.getRank());
            Intracomm flipped = inter.merge(color == 0);
            assertEquals(color == 1 ? rank - low : theirs + rank, flipped.getRank());
            int[] sum = new int[1];
            merged.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            assertEquals(size * (size - 1) / 2, sum[0]);
            merged.free();
            flipped.free();
            inter.free();
            local.free();
        });
    }

    /** Two of three groups, with the world as the peer communicator and the largest tag; the third takes no part. */
    @ParameterizedTest
    @ValueSource(ints = {3, 4, 8})
    void twoOfThreeGroups(int np) {
        MpiJob.run(np, (rank, size) -> {
            int color = rank % 3;
            Intracomm local = MPI.COMM_WORLD.split(color, rank);
            if (color == 2) {
                int[] n = new int[1];
                local.allReduce(new int[] {1}, n, 1, MPI.INT, MPI.SUM);
                assertEquals(local.getSize(), n[0]);
                return;
            }
            Intercomm inter = MPI.COMM_WORLD.createIntercomm(local, 0, color == 0 ? 1 : 0, Integer.MAX_VALUE);
            assertEquals(color == 0 ? (size + 1) / 3 : (size + 2) / 3, inter.getRemoteSize());
            if (inter.getRank() == 0) {
                int[] got = new int[1];
                inter.sendRecv(new int[] {rank}, 1, MPI.INT, 0, 3, got, 1, MPI.INT, 0, 3);
                assertEquals(color == 0 ? 1 : 0, got[0]);
            }
            // Messages longer than the buffer: the error names the sender's rank in its group, on
            // the typed path (int[]), the raw path (byte[]) and a nonblocking receive.
            inter.setErrhandler(MPI.ERRORS_RETURN);
            if (inter.getRank() == 0 && color == 1) {
                inter.send(new int[] {1, 2}, 2, MPI.INT, 0, 8);
                inter.send(new byte[] {1, 2}, 2, MPI.BYTE, 0, 10);
                inter.send(new byte[] {3, 4}, 2, MPI.BYTE, 0, 9);
            } else if (inter.getRank() == 0) {
                assertMessage(() -> inter.recv(new int[1], 1, MPI.INT, 0, 8), "from rank 0 (tag 8)");
                assertMessage(() -> inter.recv(new byte[1], 1, MPI.BYTE, 0, 10), "from rank 0 (tag 10)");
                Request r = inter.iRecv(new byte[1], 1, MPI.BYTE, MPI.ANY_SOURCE, 9);
                assertMessage(r::waitFor, "from rank 0 (tag 9)");
            }
            int[] max = new int[1];
            inter.merge(false).allReduce(new int[] {color}, max, 1, MPI.INT, MPI.MAX);
            assertEquals(1, max[0]);
        });
    }

    @Test
    void creationMistakesAreOneSentenceAtEveryProcess() {
        MpiJob.run(4, (rank, size) -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            Intracomm parity = MPI.COMM_WORLD.split(rank % 2, rank);
            // Holds the two leaders (world ranks 0 and 1) but not ranks 2 and 3.
            Intracomm low = MPI.COMM_WORLD.split(rank <= 1 ? 0 : 1, rank);
            low.setErrhandler(MPI.ERRORS_RETURN);
            assertMessage(() -> low.createIntercomm(parity, 0, rank <= 1 ? 1 - rank : 0, 4),
                    "not in the peer communicator");
            assertMessage(() -> MPI.COMM_WORLD.createIntercomm(MPI.COMM_WORLD, 0, 0, 5), "must be disjoint");
            assertMessage(() -> MPI.COMM_WORLD.createIntercomm(parity, 2, 0, 5), "local leader 2");
            MPI.COMM_WORLD.barrier();
        });
    }

    @Test
    void noParentWithoutSpawn() {
        MpiJob.run(1, (rank, size) -> assertTrue(Intercomm.getParent().isNull()));
    }

    private static void assertMessage(ErrorHandlersTest.Executable call, String part) {
        try {
            call.run();
        } catch (MPIException e) {
            assertTrue(e.getMessage().contains(part), "expected \"" + part + "\" in: " + e.getMessage());
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
            return;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("no error; expected one with \"" + part + "\"");
    }
}

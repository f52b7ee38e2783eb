package mpi;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Groups, Split, Create, clone, Compare; inter-communicators and Merge. */
@Timeout(60)
class GroupsAndCommunicatorsTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void groupOperations(int np) {
        MpjJob.run(np, (rank, size) -> {
            Group world = MPI.COMM_WORLD.Group();
            assertEquals(size, world.Size());
            assertEquals(rank, world.Rank());
            int[] evenRanks = IntStream.range(0, size).filter(r -> r % 2 == 0).toArray();
            Group evens = world.Incl(evenRanks);
            Group odds = world.Excl(evenRanks);
            assertEquals(rank % 2 == 0 ? rank / 2 : MPI.UNDEFINED, evens.Rank());
            assertEquals(size, Group.Union(odds, evens).Size());
            assertEquals(size == 1 ? MPI.IDENT : MPI.SIMILAR, Group.Compare(Group.Union(odds, evens), world));
            assertEquals(MPI.IDENT, Group.Compare(Group.Difference(world, odds), evens));
            assertEquals(0, Group.Intersection(evens, odds).Size());
            if (size > 1) {
                assertEquals(MPI.UNEQUAL, Group.Compare(evens, odds));
            }
            int[] t = Group.Translate_ranks(world, IntStream.range(0, size).toArray(), evens);
            for (int r = 0; r < size; r++) {
                assertEquals(r % 2 == 0 ? r / 2 : MPI.UNDEFINED, t[r]);
            }
            Group ranged = world.Range_incl(new int[][] {{0, size - 1, 2}});
            assertEquals(MPI.IDENT, Group.Compare(ranged, evens));
            Group reversed = world.Range_incl(new int[][] {{size - 1, 0, -1}});
            assertEquals(size - 1 - rank, reversed.Rank());
            assertEquals(MPI.IDENT, Group.Compare(world.Range_excl(new int[][] {{0, size - 1, 2}}), odds));
            assertEquals(0, MPI.GROUP_EMPTY.Size());
            assertEquals(MPI.UNDEFINED, MPI.GROUP_EMPTY.Rank());
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void splitCreateCloneAndCompare(int np) {
        MpjJob.run(np, (rank, size) -> {
            Intracomm byParity = MPI.COMM_WORLD.Split(rank % 2, -rank); // reversed order within each
            int members = (size - rank % 2 + 1) / 2;
            assertEquals(members, byParity.Size());
            assertEquals(members - 1 - rank / 2, byParity.Rank());
            Intracomm notZero = MPI.COMM_WORLD.Split(rank == 0 ? MPI.UNDEFINED : 1, 0);
            if (rank == 0) {
                assertNull(notZero, "MPI.UNDEFINED leaves the process out");
            } else {
                assertEquals(size - 1, notZero.Size());
            }
            Group first = MPI.COMM_WORLD.Group().Incl(new int[] {0});
            Intracomm alone = MPI.COMM_WORLD.Create(first);
            if (rank == 0) {
                assertEquals(1, alone.Size());
            } else {
                assertNull(alone);
            }
            // Disjoint groups (MPI-2.2): evens and odds each name their own.
            Group parity = MPI.COMM_WORLD.Group().Range_incl(new int[][] {{rank % 2, size - 1, 2}});
            Intracomm sameParity = MPI.COMM_WORLD.Create(parity);
            assertEquals(parity.Size(), sameParity.Size());
            assertEquals(rank / 2, sameParity.Rank());
            int[] total = new int[1];
            sameParity.Allreduce(new int[] {rank}, 0, total, 0, 1, MPI.INT, MPI.SUM);
            int expect = 0;
            for (int r = rank % 2; r < size; r += 2) {
                expect += r;
            }
            assertEquals(expect, total[0]);
            Intracomm dup = (Intracomm) MPI.COMM_WORLD.clone();
            assertEquals(MPI.CONGRUENT, Comm.Compare(dup, MPI.COMM_WORLD));
            assertEquals(MPI.IDENT, Comm.Compare(MPI.COMM_WORLD, MPI.COMM_WORLD));
            Intracomm reversed = MPI.COMM_WORLD.Split(0, -rank);
            assertEquals(size == 1 ? MPI.CONGRUENT : MPI.SIMILAR, Comm.Compare(reversed, MPI.COMM_WORLD));
            if (size > 1) {
                assertEquals(MPI.UNEQUAL, Intracomm.Compare(byParity, MPI.COMM_WORLD));
            }
            // Traffic on the dup never matches the world's.
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            int[] a = new int[1];
            int[] b = new int[1];
            Request ra = MPI.COMM_WORLD.Irecv(a, 0, 1, MPI.INT, prev, 0);
            Request rb = dup.Irecv(b, 0, 1, MPI.INT, prev, 0);
            dup.Send(new int[] {2}, 0, 1, MPI.INT, next, 0);
            MPI.COMM_WORLD.Send(new int[] {1}, 0, 1, MPI.INT, next, 0);
            ra.Wait();
            rb.Wait();
            assertEquals(1, a[0]);
            assertEquals(2, b[0]);
            assertEquals(1, MPI.COMM_SELF.Size());
            assertEquals(0, MPI.COMM_SELF.Rank());
            assertFalse(MPI.COMM_WORLD.Test_inter());
            assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.Topo_test());
            assertTrue((Integer) MPI.COMM_WORLD.Attr_get(MPI.TAG_UB) >= 32767);
            dup.Free();
            byParity.Free();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void intercommunicatorBetweenTwoHalvesAndMerge(int np) {
        MpjJob.run(np, (rank, size) -> {
            int color = rank < size / 2 ? 0 : 1; // the low half and the high half
            Intracomm local = MPI.COMM_WORLD.Split(color, rank);
            int remoteLeader = color == 0 ? size / 2 : 0;
            Intercomm inter = MPI.COMM_WORLD.Create_intercomm(local, 0, remoteLeader, 99);
            int lowSize = size / 2;
            int mySize = color == 0 ? lowSize : size - lowSize;
            int theirSize = size - mySize;
            assertTrue(inter.Test_inter());
            assertEquals(mySize, inter.Size());
            assertEquals(local.Rank(), inter.Rank());
            assertEquals(theirSize, inter.Remote_size());
            assertEquals(theirSize, inter.Remote_group().Size());
            // Each process sends its world rank to remote rank (its local rank mod the remote size).
            int dest = inter.Rank() % theirSize;
            Request s = inter.Isend(new int[] {rank}, 0, 1, MPI.INT, dest, 5);
            int incoming = 0;
            for (int r = 0; r < theirSize; r++) {
                if (r % mySize == inter.Rank()) {
                    incoming++;
                }
            }
            for (int i = 0; i < incoming; i++) {
                int[] got = new int[1];
                Status st = inter.Recv(got, 0, 1, MPI.INT, MPI.ANY_SOURCE, 5);
                int senderWorld = color == 0 ? lowSize + st.source : st.source;
                assertEquals(senderWorld, got[0], "the status names the sender's rank in the remote group");
            }
            s.Wait();
            Intracomm merged = inter.Merge(color == 1);
            assertEquals(size, merged.Size());
            assertEquals(rank, merged.Rank());
            Intracomm flipped = inter.Merge(color == 0);
            assertEquals(color == 1 ? rank - lowSize : theirSize + rank, flipped.Rank());
            int[] sum = new int[1];
            merged.Allreduce(new int[] {rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            assertEquals(size * (size - 1) / 2, sum[0]);
        });
    }

    /**
     * An inter-communicator between two of three groups, with the world as the peer communicator:
     * the third group takes no part, and runs its own traffic meanwhile.
     */
    @ParameterizedTest
    @ValueSource(ints = {3, 4, 8})
    void intercommunicatorBetweenTwoOfThreeGroups(int np) {
        MpjJob.run(np, (rank, size) -> {
            int color = rank % 3;
            Intracomm local = MPI.COMM_WORLD.Split(color, rank);
            if (color == 2) {
                int[] sum = new int[1];
                local.Allreduce(new int[] {1}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
                assertEquals(local.Size(), sum[0]);
                return;
            }
            Intercomm inter = MPI.COMM_WORLD.Create_intercomm(local, 0, color == 0 ? 1 : 0, Integer.MAX_VALUE); // the largest tag
            int theirs = color == 0 ? (size + 1) / 3 : (size + 2) / 3; // how many ranks are 1 or 0 mod 3
            assertEquals(theirs, inter.Remote_size());
            assertEquals(local.Rank(), inter.Rank());
            // Local rank 0 of each group sends its world rank to remote rank 0.
            if (inter.Rank() == 0) {
                int[] got = new int[1];
                inter.Sendrecv(new int[] {rank}, 0, 1, MPI.INT, 0, 3, got, 0, 1, MPI.INT, 0, 3);
                assertEquals(color == 0 ? 1 : 0, got[0]);
            }
            // A message longer than the buffer: the error names the sender's rank in its group.
            MPI.Errorhandler_set(MPI.ERRORS_RETURN);
            if (inter.Rank() == 0 && color == 1) {
                inter.Send(new byte[] {1, 2}, 0, 2, MPI.BYTE, 0, 10);
                inter.Send(new byte[] {3, 4}, 0, 2, MPI.BYTE, 0, 11);
                inter.Send(new int[] {5, 6}, 0, 2, MPI.INT, 0, 12);
                inter.Send(new int[] {7, 8}, 0, 2, MPI.INT, 0, 13);
            } else if (inter.Rank() == 0) {
                MPIException e = org.junit.jupiter.api.Assertions.assertThrows(MPIException.class,
                        () -> inter.Recv(new byte[1], 0, 1, MPI.BYTE, 0, 10));
                assertTrue(e.getMessage().contains("from rank 0 (tag 10)"), e.getMessage());
                Request r = inter.Irecv(new byte[1], 0, 1, MPI.BYTE, MPI.ANY_SOURCE, 11);
                MPIException w = org.junit.jupiter.api.Assertions.assertThrows(MPIException.class, r::Wait);
                assertTrue(w.getMessage().contains("from rank 0 (tag 11)"), w.getMessage());
                // The same through the request families, on the decoding path (int[]).
                Request[] any = {inter.Irecv(new int[1], 0, 1, MPI.INT, 0, 12)};
                MPIException a = org.junit.jupiter.api.Assertions.assertThrows(MPIException.class, () -> Request.Waitany(any));
                assertTrue(a.getMessage().contains("from rank 0 (tag 12)"), a.getMessage());
                Request[] all = {inter.Irecv(new int[1], 0, 1, MPI.INT, MPI.ANY_SOURCE, 13)};
                MPIException l = org.junit.jupiter.api.Assertions.assertThrows(MPIException.class, () -> Request.Waitall(all));
                assertTrue(l.getMessage().contains("from rank 0 (tag 13)"), l.getMessage());
            }
            Intracomm merged = inter.Merge(color == 1);
            assertEquals(local.Size() + theirs, merged.Size());
            int[] max = new int[1];
            merged.Allreduce(new int[] {color}, 0, max, 0, 1, MPI.INT, MPI.MAX);
            assertEquals(1, max[0]);
        });
    }
}

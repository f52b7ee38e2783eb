package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Derived datatypes (sizes, bounds, LB/UB markers) in point-to-point and collectives; Pack and Unpack. */
@Timeout(60)
class DatatypesTest {

    @Test
    void constructorsGiveMpiJavasSizesAndBoundsInElements() {
        MpjJob.run(1, (rank, size) -> {
            Datatype c = Datatype.Contiguous(3, MPI.INT);
            assertEquals(3, c.Size());
            assertEquals(3, c.Extent());
            assertEquals(0, c.Lb());
            assertEquals(3, c.Ub());
            Datatype v = Datatype.Vector(3, 2, 4, MPI.DOUBLE); // xx..xx..xx
            assertEquals(6, v.Size());
            assertEquals(10, v.Extent());
            Datatype vv = Datatype.Vector(2, 1, 3, c); // stride in extents of c: elements 0-2 and 9-11
            assertEquals(6, vv.Size());
            assertEquals(12, vv.Extent());
            Datatype h = Datatype.Hvector(2, 1, 5, c); // stride in elements: 0-2 and 5-7
            assertEquals(8, h.Extent());
            Datatype ix = Datatype.Indexed(new int[] {2, 1}, new int[] {1, 5}, MPI.SHORT);
            assertEquals(3, ix.Size());
            assertEquals(1, ix.Lb());
            assertEquals(5, ix.Extent());
            Datatype hx = Datatype.Hindexed(new int[] {1, 1}, new int[] {0, 7}, c);
            assertEquals(10, hx.Extent());
            Datatype s = Datatype.Struct(new int[] {1, 2, 1}, new int[] {0, 2, 8}, new Datatype[] {MPI.LB, MPI.INT, MPI.UB});
            assertEquals(2, s.Size());
            assertEquals(0, s.Lb());
            assertEquals(8, s.Extent());
            assertEquals(8, s.Ub());
            assertEquals(MPI.INT.getType(), s.getType());
            assertEquals(4, MPI.INT.getByteSize());
            assertEquals(1, MPI.INT.Size());
            assertEquals(2, MPI.DOUBLE2.Size());
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void aColumnOfAMatrixTravelsAsAVector(int np) {
        MpjJob.run(np, (rank, size) -> {
            int n = 4;
            double[] matrix = new double[n * n];
            for (int i = 0; i < matrix.length; i++) {
                matrix[i] = rank * 100 + i;
            }
            Datatype column = Datatype.Vector(n, 1, n, MPI.DOUBLE);
            column.Commit();
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            double[] got = new double[n * n];
            // Send column 1 into column 2.
            Request r = MPI.COMM_WORLD.Irecv(got, 2, 1, column, prev, 0);
            MPI.COMM_WORLD.Send(matrix, 1, 1, column, next, 0);
            Status s = r.Wait();
            assertEquals(1, s.Get_count(column));
            assertEquals(n, s.Get_elements(column));
            for (int i = 0; i < n; i++) {
                assertEquals(prev * 100 + i * n + 1, got[i * n + 2]);
                assertEquals(0, got[i * n + 1]);
            }
            // The same as a contiguous receive of n doubles.
            double[] flat = new double[n];
            MPI.COMM_WORLD.Sendrecv(matrix, 3, 1, column, next, 1, flat, 0, n, MPI.DOUBLE, prev, 1);
            for (int i = 0; i < n; i++) {
                assertEquals(prev * 100 + i * n + 3, flat[i]);
            }
            // Gather every process's diagonal (indexed) into rows of the root.
            int[] lens = new int[n];
            int[] displs = new int[n];
            for (int i = 0; i < n; i++) {
                lens[i] = 1;
                displs[i] = i * (n + 1);
            }
            Datatype diag = Datatype.Indexed(lens, displs, MPI.DOUBLE);
            double[] rows = new double[size * n];
            MPI.COMM_WORLD.Gather(matrix, 0, 1, diag, rows, 0, n, MPI.DOUBLE, 0);
            if (rank == 0) {
                for (int q = 0; q < size; q++) {
                    for (int i = 0; i < n; i++) {
                        assertEquals(q * 100 + i * (n + 1), rows[q * n + i]);
                    }
                }
            }
            // Bcast a column in place.
            MPI.COMM_WORLD.Bcast(matrix, 0, 1, column, 0);
            for (int i = 0; i < n; i++) {
                assertEquals(i * n, matrix[i * n]);
                assertEquals(rank * 100 + i * n + 1, matrix[i * n + 1]);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void structWithMarkersStridesThroughAnArrayInCollectives(int np) {
        MpjJob.run(np, (rank, size) -> {
            // Elements 1 and 2 of every 4: a struct of two ints, bounds 0 and 4 by the LB and UB markers.
            Datatype pairs = Datatype.Struct(new int[] {1, 2, 1}, new int[] {0, 1, 4},
                    new Datatype[] {MPI.LB, MPI.INT, MPI.UB});
            pairs.Commit();
            assertEquals(4, pairs.Extent());
            int[] mine = new int[8];
            for (int i = 0; i < 8; i++) {
                mine[i] = rank * 10 + i;
            }
            int[] sum = new int[8];
            MPI.COMM_WORLD.Allreduce(mine, 0, sum, 0, 2, pairs, MPI.SUM);
            int ranks = size * (size - 1) / 2;
            assertArrayEquals(new int[] {0, ranks * 10 + size, ranks * 10 + 2 * size, 0, 0, ranks * 10 + 5 * size,
                    ranks * 10 + 6 * size, 0}, sum);
            Object[] objs = new Object[6];
            for (int i = 0; i < 6; i++) {
                objs[i] = rank == 0 ? "o" + i : null;
            }
            Datatype everyOther = Datatype.Vector(3, 1, 2, MPI.OBJECT);
            MPI.COMM_WORLD.Bcast(objs, 0, 1, everyOther, 0);
            assertArrayEquals(rank == 0 ? new Object[] {"o0", "o1", "o2", "o3", "o4", "o5"}
                    : new Object[] {"o0", null, "o2", null, "o4", null}, objs);
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void anEmptyStructCarriesNothingWithAnyArray(int np) {
        MpjJob.run(np, (rank, size) -> {
            Datatype none = Datatype.Struct(new int[0], new int[0], new Datatype[0]);
            none.Commit();
            assertEquals(0, none.Size());
            assertEquals(0, none.Extent());
            int[] ii = {rank + 2};
            if (rank == 0) {
                MPI.COMM_WORLD.Send(ii, 0, 100, none, 1, 0);
            } else if (rank == 1) {
                Status s = MPI.COMM_WORLD.Recv(ii, 0, 100, none, 0, 0);
                assertEquals(3, ii[0], "nothing written");
                assertEquals(0, s.Get_count(none), "MPI: a zero-size type's count is 0");
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void packAndUnpackEveryKindIntoOneMessage(int np) {
        MpjJob.run(np, (rank, size) -> {
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            int[] ints = {rank, rank + 1, rank + 2};
            double[] doubles = {rank * 0.5};
            Object[] objects = {"from " + rank};
            int intBytes = MPI.COMM_WORLD.Pack_size(3, MPI.INT);
            assertEquals(12, intBytes);
            byte[] packed = new byte[1000];
            int pos = MPI.COMM_WORLD.Pack(ints, 0, 3, MPI.INT, packed, 0);
            assertEquals(12, pos);
            pos = MPI.COMM_WORLD.Pack(doubles, 0, 1, MPI.DOUBLE, packed, pos);
            pos = MPI.COMM_WORLD.Pack(objects, 0, 1, MPI.OBJECT, packed, pos);
            byte[] in = new byte[1000];
            Request r = MPI.COMM_WORLD.Irecv(in, 0, 1000, MPI.PACKED, prev, 0);
            MPI.COMM_WORLD.Send(packed, 0, pos, MPI.PACKED, next, 0);
            Status s = r.Wait();
            assertEquals(pos, s.Get_count(MPI.PACKED));
            int[] gotInts = new int[4];
            double[] gotDoubles = new double[1];
            Object[] gotObjects = new Object[1];
            int at = MPI.COMM_WORLD.Unpack(in, 0, gotInts, 1, 3, MPI.INT);
            at = MPI.COMM_WORLD.Unpack(in, at, gotDoubles, 0, 1, MPI.DOUBLE);
            at = MPI.COMM_WORLD.Unpack(in, at, gotObjects, 0, 1, MPI.OBJECT);
            assertEquals(pos, at);
            assertArrayEquals(new int[] {0, prev, prev + 1, prev + 2}, gotInts);
            assertEquals(prev * 0.5, gotDoubles[0]);
            assertEquals("from " + prev, gotObjects[0]);
        });
    }
}

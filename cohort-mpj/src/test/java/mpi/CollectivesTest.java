package mpi;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Array;
import java.util.function.LongBinaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every collective with offsets, every op against computed references, user ops, MINLOC/MAXLOC, OBJECT. */
@Timeout(60)
class CollectivesTest {
    static final Datatype[] TYPES = PointToPointTest.TYPES;

    static Object values(Datatype t, int n, int seed) {
        return PointToPointTest.values(t, n, seed);
    }

    static void same(Object expected, int from, Object actual, int at, int n, String what) {
        PointToPointTest.assertElements(expected, from, actual, at, n, what);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void bcastEveryTypeWholeAndAtAnOffset(int np) {
        MpjJob.run(np, (rank, size) -> {
            for (Datatype t : TYPES) {
                for (int root = 0; root < size; root += Math.max(1, size - 1)) {
                    Object whole = rank == root ? values(t, 6, root + 1) : PointToPointTest.newArray(t, 6);
                    MPI.COMM_WORLD.Bcast(whole, 0, 6, t, root);
                    same(values(t, 6, root + 1), 0, whole, 0, 6, t + " whole");
                    Object part = rank == root ? values(t, 8, root + 2) : PointToPointTest.newArray(t, 8);
                    MPI.COMM_WORLD.Bcast(part, 3, 4, t, root);
                    same(values(t, 8, root + 2), 3, part, 3, 4, t + " at offset 3");
                    if (rank != root) {
                        same(PointToPointTest.newArray(t, 3), 0, part, 0, 3, t + " before the offset");
                    }
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void gatherScatterAllgatherAlltoallWithOffsets(int np) {
        MpjJob.run(np, (rank, size) -> {
            for (Datatype t : TYPES) {
                int root = size - 1;
                // Gather 2 items from offset 1 of each into the root's buffer at offset 2.
                Object mine = values(t, 3, rank);
                Object all = PointToPointTest.newArray(t, 2 + 2 * size);
                MPI.COMM_WORLD.Gather(mine, 1, 2, t, all, 2, 2, t, root);
                if (rank == root) {
                    for (int r = 0; r < size; r++) {
                        same(values(t, 3, r), 1, all, 2 + 2 * r, 2, t + " gather from " + r);
                    }
                }
                // Scatter them back, to offset 1 of a fresh array.
                Object back = PointToPointTest.newArray(t, 3);
                MPI.COMM_WORLD.Scatter(all, 2, 2, t, back, 1, 2, t, root);
                same(values(t, 3, rank), 1, back, 1, 2, t + " scatter");
                // Allgather.
                Object every = PointToPointTest.newArray(t, 2 * size + 1);
                MPI.COMM_WORLD.Allgather(mine, 1, 2, t, every, 1, 2, t);
                for (int r = 0; r < size; r++) {
                    same(values(t, 3, r), 1, every, 1 + 2 * r, 2, t + " allgather from " + r);
                }
                // Alltoall: block q of rank r is values(t, size, r * 10 + q)[0].
                Object send = PointToPointTest.newArray(t, size + 1);
                for (int q = 0; q < size; q++) {
                    Array.set(send, q + 1, Array.get(values(t, 1, rank * 10 + q), 0));
                }
                Object recv = PointToPointTest.newArray(t, size);
                MPI.COMM_WORLD.Alltoall(send, 1, 1, t, recv, 0, 1, t);
                for (int q = 0; q < size; q++) {
                    assertEquals(Array.get(values(t, 1, q * 10 + rank), 0), Array.get(recv, q), t + " alltoall from " + q);
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void theVFormsPlaceBlocksAtTheirDisplacements(int np) {
        MpjJob.run(np, (rank, size) -> {
            for (Datatype t : TYPES) {
                int root = 0;
                // Longer than the communicator, as MPI allows (only the first size entries count).
                int[] counts = {0, 0, 0, 0, 0, 0, 0, 0, -1, -1};
                int[] displs = {0, 0, 0, 0, 0, 0, 0, 0, -1, -1};
                int total = 0;
                for (int r = 0; r < size; r++) {
                    counts[r] = r + 1;
                    displs[r] = total + r; // a gap of r elements before block r
                    total = displs[r] + counts[r];
                }
                Object mine = values(t, rank + 1, rank);
                Object all = PointToPointTest.newArray(t, total + 1);
                MPI.COMM_WORLD.Gatherv(mine, 0, rank + 1, t, all, 1, counts, displs, t, root);
                if (rank == root) {
                    for (int r = 0; r < size; r++) {
                        same(values(t, r + 1, r), 0, all, 1 + displs[r], counts[r], t + " gatherv from " + r);
                    }
                }
                Object back = PointToPointTest.newArray(t, rank + 2);
                MPI.COMM_WORLD.Scatterv(all, 1, counts, displs, t, back, 1, rank + 1, t, root);
                same(values(t, rank + 1, rank), 0, back, 1, rank + 1, t + " scatterv");
                Object every = PointToPointTest.newArray(t, total);
                MPI.COMM_WORLD.Allgatherv(mine, 0, rank + 1, t, every, 0, counts, displs, t);
                for (int r = 0; r < size; r++) {
                    same(values(t, r + 1, r), 0, every, displs[r], counts[r], t + " allgatherv from " + r);
                }
                // Alltoallv: rank r sends q + 1 elements to rank q, from displacement 2q.
                int[] sc = new int[size];
                int[] sd = new int[size];
                int[] rc = new int[size];
                int[] rd = new int[size];
                for (int q = 0; q < size; q++) {
                    sc[q] = q + 1;
                    sd[q] = q * (size + 1);
                    rc[q] = rank + 1;
                    rd[q] = q * (rank + 2);
                }
                Object send = PointToPointTest.newArray(t, size * (size + 1));
                for (int q = 0; q < size; q++) {
                    for (int i = 0; i < q + 1; i++) {
                        Array.set(send, sd[q] + i, Array.get(values(t, 1, rank * 10 + q + i), 0));
                    }
                }
                Object recv = PointToPointTest.newArray(t, size * (rank + 2));
                MPI.COMM_WORLD.Alltoallv(send, 0, sc, sd, t, recv, 0, rc, rd, t);
                for (int q = 0; q < size; q++) {
                    for (int i = 0; i < rank + 1; i++) {
                        assertEquals(Array.get(values(t, 1, q * 10 + rank + i), 0), Array.get(recv, rd[q] + i),
                                t + " alltoallv from " + q + " element " + i);
                    }
                }
            }
        });
    }

    /** The ops that apply to each integer-like type, with their reference. */
    static final Object[][] INTEGER_OPS = {
            {MPI.SUM, (LongBinaryOperator) Long::sum}, {MPI.PROD, (LongBinaryOperator) (a, b) -> a * b},
            {MPI.MIN, (LongBinaryOperator) Math::min}, {MPI.MAX, (LongBinaryOperator) Math::max},
            {MPI.BAND, (LongBinaryOperator) (a, b) -> a & b}, {MPI.BOR, (LongBinaryOperator) (a, b) -> a | b},
            {MPI.BXOR, (LongBinaryOperator) (a, b) -> a ^ b},
            {MPI.LAND, (LongBinaryOperator) (a, b) -> a != 0 && b != 0 ? 1 : 0},
            {MPI.LOR, (LongBinaryOperator) (a, b) -> a != 0 || b != 0 ? 1 : 0},
            {MPI.LXOR, (LongBinaryOperator) (a, b) -> (a != 0) != (b != 0) ? 1 : 0}};

    static long operand(int rank, int i) {
        return (rank * 7 + i * 3) % 5 + (i == 2 ? 0 : 1) + (rank == 1 && i == 0 ? 2 : 0);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void reduceAllreduceScanReduceScatterEveryOpOnIntegers(int np) {
        MpjJob.run(np, (rank, size) -> {
            int n = 3;
            for (Datatype t : new Datatype[] {MPI.BYTE, MPI.SHORT, MPI.INT, MPI.LONG}) {
                for (Object[] o : INTEGER_OPS) {
                    Op op = (Op) o[0];
                    LongBinaryOperator f = (LongBinaryOperator) o[1];
                    Object send = PointToPointTest.newArray(t, n + 1);
                    for (int i = 0; i < n; i++) {
                        set(send, i + 1, operand(rank, i));
                    }
                    long[] all = new long[n];
                    long[] prefix = new long[n];
                    for (int i = 0; i < n; i++) {
                        all[i] = operand(0, i);
                        for (int r = 1; r < size; r++) {
                            all[i] = f.applyAsLong(operand(r, i), all[i]);
                        }
                        prefix[i] = operand(0, i);
                        for (int r = 1; r <= rank; r++) {
                            prefix[i] = f.applyAsLong(operand(r, i), prefix[i]);
                        }
                    }
                    String what = op + " over " + t;
                    Object recv = PointToPointTest.newArray(t, n + 2);
                    MPI.COMM_WORLD.Reduce(send, 1, recv, 2, n, t, op, 0);
                    if (rank == 0) {
                        check(all, recv, 2, t, what + " reduce");
                    }
                    Object recv2 = PointToPointTest.newArray(t, n);
                    MPI.COMM_WORLD.Allreduce(send, 1, recv2, 0, n, t, op);
                    check(all, recv2, 0, t, what + " allreduce");
                    Object recv3 = PointToPointTest.newArray(t, n);
                    MPI.COMM_WORLD.Scan(send, 1, recv3, 0, n, t, op);
                    check(prefix, recv3, 0, t, what + " scan");
                    // Reduce_scatter: size * 1 items, rank r keeps item r.
                    Object rsend = PointToPointTest.newArray(t, size);
                    for (int i = 0; i < size; i++) {
                        set(rsend, i, operand(rank, i % n));
                    }
                    int[] counts = new int[size];
                    java.util.Arrays.fill(counts, 1);
                    Object rrecv = PointToPointTest.newArray(t, 1);
                    MPI.COMM_WORLD.Reduce_scatter(rsend, 0, rrecv, 0, java.util.Arrays.copyOf(counts, size + 1), t, op);
                    check(new long[] {all[rank % n]}, rrecv, 0, t, what + " reduce_scatter");
                }
            }
        });
    }

    static void set(Object a, int i, long v) {
        if (a instanceof byte[] b) {
            b[i] = (byte) v;
        } else if (a instanceof short[] s) {
            s[i] = (short) v;
        } else if (a instanceof int[] x) {
            x[i] = (int) v;
        } else if (a instanceof long[] l) {
            l[i] = v;
        } else if (a instanceof float[] x) {
            x[i] = v;
        } else if (a instanceof double[] d) {
            d[i] = v;
        } else {
            ((char[]) a)[i] = (char) v;
        }
    }

    static void check(long[] expected, Object actual, int at, Datatype t, String what) {
        for (int i = 0; i < expected.length; i++) {
            Object e = switch (t.getType()) {
                case 1 -> (byte) expected[i];
                case 3 -> (short) expected[i];
                case 5 -> (int) expected[i];
                case 7 -> (float) expected[i];
                case 8 -> (double) expected[i];
                case 2 -> (char) expected[i];
                default -> expected[i];
            };
            assertEquals(e, Array.get(actual, at + i), what + " element " + i);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void arithmeticOpsOnFloatingPointAndChar(int np) {
        MpjJob.run(np, (rank, size) -> {
            for (Datatype t : new Datatype[] {MPI.FLOAT, MPI.DOUBLE, MPI.CHAR}) {
                for (Op op : new Op[] {MPI.SUM, MPI.MIN, MPI.MAX, MPI.PROD}) {
                    Object send = PointToPointTest.newArray(t, 2);
                    set(send, 0, rank + 1);
                    set(send, 1, size - rank);
                    Object recv = PointToPointTest.newArray(t, 2);
                    MPI.COMM_WORLD.Allreduce(send, 0, recv, 0, 2, t, op);
                    long[] expect = new long[2];
                    for (int i = 0; i < 2; i++) {
                        long acc = op == MPI.SUM ? 0 : op == MPI.PROD ? 1 : op == MPI.MIN ? Long.MAX_VALUE : Long.MIN_VALUE;
                        for (int r = 0; r < size; r++) {
                            long v = i == 0 ? r + 1 : size - r;
                            acc = op == MPI.SUM ? acc + v : op == MPI.PROD ? acc * v : op == MPI.MIN ? Math.min(acc, v)
                                    : Math.max(acc, v);
                        }
                        expect[i] = acc;
                    }
                    check(expect, recv, 0, t, op + " over " + t);
                }
            }
            boolean[] b = {rank % 2 == 0, true, false};
            boolean[] land = new boolean[3];
            boolean[] lor = new boolean[3];
            boolean[] lxor = new boolean[3];
            MPI.COMM_WORLD.Allreduce(b, 0, land, 0, 3, MPI.BOOLEAN, MPI.LAND);
            MPI.COMM_WORLD.Allreduce(b, 0, lor, 0, 3, MPI.BOOLEAN, MPI.LOR);
            MPI.COMM_WORLD.Allreduce(b, 0, lxor, 0, 3, MPI.BOOLEAN, MPI.LXOR);
            int evens = (size + 1) / 2;
            assertArrayEquals(new boolean[] {size == 1, true, false}, land);
            assertArrayEquals(new boolean[] {true, true, false}, lor);
            assertArrayEquals(new boolean[] {evens % 2 == 1, size % 2 == 1, false}, lxor);
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void minlocAndMaxlocOverEveryPairType(int np) {
        MpjJob.run(np, (rank, size) -> {
            // Value (rank - 2)^2 peaks at the ends and is least at rank 2 (or the nearest); index = rank.
            long v = (long) (rank - 2) * (rank - 2);
            for (Datatype t : new Datatype[] {MPI.SHORT2, MPI.INT2, MPI.LONG2, MPI.FLOAT2, MPI.DOUBLE2}) {
                Object in = PointToPointTest.newArray(t, 5);
                set(in, 1, v);
                set(in, 2, rank);
                set(in, 3, -v);
                set(in, 4, rank);
                Object min = PointToPointTest.newArray(t, 4);
                Object max = PointToPointTest.newArray(t, 4);
                MPI.COMM_WORLD.Allreduce(in, 1, min, 0, 2, t, MPI.MINLOC);
                MPI.COMM_WORLD.Reduce(in, 1, max, 0, 2, t, MPI.MAXLOC, 0);
                long best = Long.MAX_VALUE;
                int bestAt = -1;
                long worst = Long.MIN_VALUE;
                int worstAt = -1;
                for (int r = 0; r < size; r++) {
                    long x = (long) (r - 2) * (r - 2);
                    if (x < best) {
                        best = x;
                        bestAt = r;
                    }
                    if (x > worst) {
                        worst = x;
                        worstAt = r;
                    }
                }
                check(new long[] {best, bestAt, -worst, worstAt}, min, 0, t, t + " MINLOC");
                if (rank == 0) {
                    check(new long[] {worst, worstAt, -best, bestAt}, max, 0, t, t + " MAXLOC");
                }
            }
        });
    }

    /** A non-commutative op: 2x2 integer matrix products, each item 4 ints. */
    static final class MatrixProduct extends User_function {
        @Override
        public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            int[] a = (int[]) invec;
            int[] b = (int[]) inoutvec;
            for (int k = 0; k < count; k++) {
                int i = inoffset + 4 * k;
                int o = inoutoffset + 4 * k;
                int p = a[i] * b[o] + a[i + 1] * b[o + 2];
                int q = a[i] * b[o + 1] + a[i + 1] * b[o + 3];
                int r = a[i + 2] * b[o] + a[i + 3] * b[o + 2];
                int s = a[i + 2] * b[o + 1] + a[i + 3] * b[o + 3];
                b[o] = p;
                b[o + 1] = q;
                b[o + 2] = r;
                b[o + 3] = s;
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void userOpsCommutativeOrNotAndOverObjects(int np) {
        MpjJob.run(np, (rank, size) -> {
            Datatype mat = Datatype.Contiguous(4, MPI.INT);
            mat.Commit();
            Op product = new Op(new MatrixProduct(), false);
            int[] m = {1, rank, 0, 1}; // upper unitriangular: products in rank order add the ranks up
            int[] out = new int[4];
            MPI.COMM_WORLD.Allreduce(m, 0, out, 0, 1, mat, product);
            int sum = size * (size - 1) / 2;
            assertArrayEquals(new int[] {1, sum, 0, 1}, out);
            // A non-commutative op where order shows: [[1,r],[0,2]]; the product's top right is sum r * 2^k.
            int[] m2 = {1, rank, 0, 2};
            int[] ref = {1, 0, 0, 1};
            for (int r = size - 1; r >= 0; r--) {
                int[] a = {1, r, 0, 2};
                new MatrixProduct().Call(a, 0, ref, 0, 1, mat);
            }
            int[] out2 = new int[4];
            MPI.COMM_WORLD.Reduce(m2, 0, out2, 0, 1, mat, product, 0);
            if (rank == 0) {
                assertArrayEquals(ref, out2);
            }
            int[] scan = new int[4];
            MPI.COMM_WORLD.Scan(m, 0, scan, 0, 1, mat, product);
            assertArrayEquals(new int[] {1, rank * (rank + 1) / 2, 0, 1}, scan);
            // Objects: concatenate strings, in rank order.
            Op concat = new Op(new User_function() {
                @Override
                public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype d) {
                    Object[] a = (Object[]) invec;
                    Object[] b = (Object[]) inoutvec;
                    for (int i = 0; i < count; i++) {
                        b[inoutoffset + i] = (String) a[inoffset + i] + b[inoutoffset + i];
                    }
                }
            }, false);
            Object[] mine = {null, "" + rank, "<" + rank + ">"};
            Object[] all = new Object[2];
            MPI.COMM_WORLD.Allreduce(mine, 1, all, 0, 2, MPI.OBJECT, concat);
            StringBuilder a = new StringBuilder();
            StringBuilder b = new StringBuilder();
            for (int r = 0; r < size; r++) {
                a.append(r);
                b.append('<').append(r).append('>');
            }
            assertArrayEquals(new Object[] {a.toString(), b.toString()}, all);
        });
    }

    /** A mutable value, changed in place by the op as mpiJava's object ops do. */
    static final class Counter implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        long value;

        Counter(long value) {
            this.value = value;
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void objectOpsThatChangeTheirInoutInPlace(int np) {
        MpjJob.run(np, (rank, size) -> {
            Op addInPlace = new Op(new User_function() {
                @Override
                public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype d) {
                    for (int i = 0; i < count; i++) {
                        ((Counter) ((Object[]) inoutvec)[inoutoffset + i]).value += ((Counter) ((Object[]) invec)[inoffset + i]).value;
                    }
                }
            }, true);
            Object[] mine = {new Counter(1), new Counter(rank)};
            Object[] scan = new Object[2];
            Object[] all = new Object[2];
            Object[] top = new Object[2];
            MPI.COMM_WORLD.Scan(mine, 0, scan, 0, 2, MPI.OBJECT, addInPlace);
            MPI.COMM_WORLD.Allreduce(mine, 0, all, 0, 2, MPI.OBJECT, addInPlace);
            MPI.COMM_WORLD.Reduce(mine, 0, top, 0, 2, MPI.OBJECT, addInPlace, 0);
            assertEquals(rank + 1, ((Counter) scan[0]).value);
            assertEquals((long) rank * (rank + 1) / 2, ((Counter) scan[1]).value);
            assertEquals(size, ((Counter) all[0]).value);
            assertEquals((long) size * (size - 1) / 2, ((Counter) all[1]).value);
            if (rank == 0) {
                assertEquals(size, ((Counter) top[0]).value);
            }
            assertEquals(1, ((Counter) mine[0]).value, "the send buffer's objects are left alone");
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void barrierAndSplitCommunicatorCollectivesStayApart(int np) {
        MpjJob.run(np, (rank, size) -> {
            MPI.COMM_WORLD.Barrier();
            Intracomm half = MPI.COMM_WORLD.Split(rank % 2, rank);
            int[] s = {rank};
            int[] r = new int[1];
            half.Allreduce(s, 0, r, 0, 1, MPI.INT, MPI.SUM);
            int expect = 0;
            for (int q = rank % 2; q < size; q += 2) {
                expect += q;
            }
            assertEquals(expect, r[0]);
            half.Free();
        });
    }
}

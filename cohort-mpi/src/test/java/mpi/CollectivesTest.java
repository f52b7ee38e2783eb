package mpi;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;

import static mpi.PointToPointTest.TYPES;
import static mpi.PointToPointTest.assertSame;
import static mpi.PointToPointTest.contents;
import static mpi.PointToPointTest.direct;
import static mpi.PointToPointTest.values;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every collective, blocking, in place and nonblocking, with every op, over arrays and direct buffers. */
@Timeout(120)
class CollectivesTest {
    /** Rank r's value at element i for reductions: small, so sums and products stay exact everywhere. */
    static long v(int r, int i) {
        return (r * 3L + i) % 7 + 1;
    }

    static Object operand(Datatype t, int r, int n) {
        Object a = Buffers.newCarrier(t.baseType, n);
        for (int i = 0; i < n; i++) {
            set(a, i, v(r, i));
        }
        return a;
    }

    static void set(Object a, int i, long x) {
        if (a instanceof byte[] b) {
            b[i] = (byte) x;
        } else if (a instanceof char[] b) {
            b[i] = (char) x;
        } else if (a instanceof short[] b) {
            b[i] = (short) x;
        } else if (a instanceof boolean[] b) {
            b[i] = x % 2 == 0;
        } else if (a instanceof int[] b) {
            b[i] = (int) x;
        } else if (a instanceof long[] b) {
            b[i] = x;
        } else if (a instanceof float[] b) {
            b[i] = x;
        } else {
            ((double[]) a)[i] = x;
        }
    }

    /** The reference result of {@code op} over ranks {@code from} to {@code to}, computed here, not by Cohort. */
    static Object reference(Op op, Datatype t, int from, int to, int n) {
        Object out = Buffers.newCarrier(t.baseType, n);
        for (int i = 0; i < n; i++) {
            if (t.baseType == Datatype.BOOLEAN) {
                boolean acc = v(from, i) % 2 == 0;
                for (int r = from + 1; r <= to; r++) {
                    boolean x = v(r, i) % 2 == 0;
                    acc = op == MPI.LAND || op == MPI.BAND ? acc && x : op == MPI.LOR || op == MPI.BOR ? acc || x : acc ^ x;
                }
                ((boolean[]) out)[i] = acc;
                continue;
            }
            long acc = v(from, i);
            for (int r = from + 1; r <= to; r++) {
                long x = v(r, i);
                if (op == MPI.SUM) {
                    acc += x;
                } else if (op == MPI.PROD) {
                    acc *= x;
                } else if (op == MPI.MIN) {
                    acc = Math.min(acc, x);
                } else if (op == MPI.MAX) {
                    acc = Math.max(acc, x);
                } else if (op == MPI.LAND) {
                    acc = acc != 0 && x != 0 ? 1 : 0;
                } else if (op == MPI.LOR) {
                    acc = acc != 0 || x != 0 ? 1 : 0;
                } else if (op == MPI.LXOR) {
                    acc = (acc != 0) != (x != 0) ? 1 : 0;
                } else if (op == MPI.BAND) {
                    acc &= x;
                } else if (op == MPI.BOR) {
                    acc |= x;
                } else {
                    acc ^= x;
                }
            }
            set(out, i, acc);
        }
        return out;
    }

    static final Op[] ARITH = {MPI.SUM, MPI.PROD, MPI.MIN, MPI.MAX};
    static final Op[] LOGIC = {MPI.LAND, MPI.LOR, MPI.LXOR};
    static final Op[] BITS = {MPI.BAND, MPI.BOR, MPI.BXOR};

    static boolean applies(Op op, Datatype t) {
        boolean arith = op == MPI.SUM || op == MPI.PROD || op == MPI.MIN || op == MPI.MAX;
        boolean floating = t == MPI.FLOAT || t == MPI.DOUBLE;
        if (t == MPI.BOOLEAN) {
            return !arith;
        }
        return arith || !floating;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void reductionsWithEveryOpAndType(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            int n = 9;
            for (Op[] family : new Op[][] {ARITH, LOGIC, BITS}) {
                for (Op op : family) {
                    for (Datatype t : TYPES) {
                        if (!applies(op, t)) {
                            continue;
                        }
                        String what = op + " over " + t;
                        Object all = reference(op, t, 0, size - 1, n);
                        Object recv = Buffers.newCarrier(t.baseType, n);
                        w.allReduce(operand(t, rank, n), recv, n, t, op);
                        assertSame(all, recv, "allReduce " + what);

                        int root = size - 1;
                        Object atRoot = Buffers.newCarrier(t.baseType, n);
                        w.reduce(operand(t, rank, n), atRoot, n, t, op, root);
                        if (rank == root) {
                            assertSame(all, atRoot, "reduce " + what);
                        }
                        // In place at the root (elsewhere buf is the operand); a root buffer longer
                        // than count, and no receive buffer at all at the other ranks.
                        Object mineAtRoot = operand(t, rank, n);
                        w.reduce(mineAtRoot, n, t, op, root);
                        if (rank == root) {
                            assertSame(all, mineAtRoot, "in-place reduce " + what);
                        }
                        Object longer = rank == root ? Buffers.newCarrier(t.baseType, n + 3) : null;
                        w.reduce(operand(t, rank, n), longer, n, t, op, root);
                        if (rank == root) {
                            assertSame(all, contents(longer, t, n), "reduce into a longer buffer " + what);
                        }

                        Object scanned = Buffers.newCarrier(t.baseType, n);
                        w.scan(operand(t, rank, n), scanned, n, t, op);
                        assertSame(reference(op, t, 0, rank, n), scanned, "scan " + what);

                        Object ex = Buffers.newCarrier(t.baseType, n);
                        w.exScan(operand(t, rank, n), ex, n, t, op);
                        if (rank > 0) {
                            assertSame(reference(op, t, 0, rank - 1, n), ex, "exScan " + what);
                        }

                        // In place, and into a direct buffer where the type has one.
                        Object mine = operand(t, rank, n);
                        w.allReduce(mine, n, t, op);
                        assertSame(all, mine, "in-place allReduce " + what);
                        if (t != MPI.BOOLEAN) {
                            Object d = direct(operand(t, rank, n), n);
                            w.allReduce(d, n, t, op);
                            assertSame(all, contents(d, t, n), "direct in-place allReduce " + what);
                            Object dr = direct(operand(t, rank, n), n);
                            w.reduce(dr, n, t, op, root);
                            if (rank == root) {
                                assertSame(all, contents(dr, t, n), "direct in-place reduce " + what);
                            }
                        }
                    }
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void reduceScatterAndBlocks(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            int[] counts = new int[size];
            int total = 0;
            for (int r = 0; r < size; r++) {
                counts[r] = r % 3 + 1;
                total += counts[r];
            }
            int offset = 0;
            for (int r = 0; r < rank; r++) {
                offset += counts[r];
            }
            long[] all = (long[]) reference(MPI.SUM, MPI.LONG, 0, size - 1, total);
            long[] mine = new long[counts[rank]];
            w.reduceScatter(operand(MPI.LONG, rank, total), mine, counts, MPI.LONG, MPI.SUM);
            for (int i = 0; i < counts[rank]; i++) {
                assertEquals(all[offset + i], mine[i]);
            }
            long[] inPlace = (long[]) operand(MPI.LONG, rank, total);
            w.reduceScatter(inPlace, counts, MPI.LONG, MPI.SUM);
            for (int i = 0; i < counts[rank]; i++) {
                assertEquals(all[offset + i], inPlace[i]);
            }
            int[] block = new int[2];
            w.reduceScatterBlock(operand(MPI.INT, rank, 2 * size), block, 2, MPI.INT, MPI.MAX);
            int[] ref = (int[]) reference(MPI.MAX, MPI.INT, 0, size - 1, 2 * size);
            assertArrayEquals(new int[] {ref[2 * rank], ref[2 * rank + 1]}, block);
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void bcastEveryTypeAndForm(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            for (int root = 0; root < size; root += Math.max(1, size / 2)) {
                for (Datatype t : TYPES) {
                    Object expected = values(t, 13, root);
                    Object arr = rank == root ? values(t, 13, root) : Buffers.newCarrier(t.baseType, 13);
                    w.bcast(arr, 13, t, root);
                    assertSame(expected, arr, "bcast array " + t);
                    // A longer array than the count: only the first items move.
                    Object longer = Buffers.newCarrier(t.baseType, 20);
                    if (rank == root) {
                        System.arraycopy(expected, 0, longer, 0, 13);
                    }
                    w.bcast(longer, 13, t, root);
                    assertSame(expected, contents(longer, t, 13), "bcast longer array " + t);
                    if (t != MPI.BOOLEAN) {
                        Object d = direct(rank == root ? values(t, 13, root) : Buffers.newCarrier(t.baseType, 13), 13);
                        w.bcast(d, 13, t, root);
                        assertSame(expected, contents(d, t, 13), "bcast direct " + t);
                    }
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void gatherScatterAllgatherAlltoall(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            int root = size / 2;
            int k = 3;
            int[] mine = {rank * 10, rank * 10 + 1, rank * 10 + 2};
            int[] everyone = new int[size * k];
            for (int r = 0; r < size; r++) {
                for (int j = 0; j < k; j++) {
                    everyone[r * k + j] = r * 10 + j;
                }
            }
            int[] gathered = new int[size * k];
            w.gather(mine, k, MPI.INT, gathered, k, MPI.INT, root);
            if (rank == root) {
                assertArrayEquals(everyone, gathered);
            }
            IntBuffer gatheredDirect = MPI.newIntBuffer(size * k);
            w.gather(direct(mine, k), k, MPI.INT, gatheredDirect, k, MPI.INT, root);
            if (rank == root) {
                assertArrayEquals(everyone, (int[]) contents(gatheredDirect, MPI.INT, size * k));
            }
            // In place: the root's block is already there.
            int[] inPlace = rank == root ? new int[size * k] : mine.clone();
            if (rank == root) {
                System.arraycopy(mine, 0, inPlace, root * k, k);
            }
            w.gather(inPlace, k, MPI.INT, root);
            if (rank == root) {
                assertArrayEquals(everyone, inPlace);
            }

            int[] part = new int[k];
            w.scatter(everyone, k, MPI.INT, part, k, MPI.INT, root);
            assertArrayEquals(mine, part);
            int[] sc = rank == root ? everyone.clone() : new int[k];
            w.scatter(sc, k, MPI.INT, root);
            if (rank != root) {
                assertArrayEquals(mine, java.util.Arrays.copyOf(sc, k));
            }

            int[] all = new int[size * k];
            w.allGather(mine, k, MPI.INT, all, k, MPI.INT);
            assertArrayEquals(everyone, all);
            int[] allInPlace = new int[size * k];
            System.arraycopy(mine, 0, allInPlace, rank * k, k);
            w.allGather(allInPlace, k, MPI.INT);
            assertArrayEquals(everyone, allInPlace);

            // v-forms: rank r has r + 1 items, placed with one free slot between blocks.
            int[] counts = new int[size];
            int[] displs = new int[size];
            int span = 0;
            for (int r = 0; r < size; r++) {
                counts[r] = r + 1;
                displs[r] = span;
                span += counts[r] + 1;
            }
            double[] vmine = new double[rank + 1];
            for (int j = 0; j <= rank; j++) {
                vmine[j] = rank + j / 10.0;
            }
            double[] vexpected = new double[span];
            java.util.Arrays.fill(vexpected, -1);
            for (int r = 0; r < size; r++) {
                for (int j = 0; j <= r; j++) {
                    vexpected[displs[r] + j] = r + j / 10.0;
                }
            }
            double[] vgathered = new double[span];
            java.util.Arrays.fill(vgathered, -1);
            w.gatherv(vmine, rank + 1, MPI.DOUBLE, vgathered, counts, displs, MPI.DOUBLE, root);
            if (rank == root) {
                assertArrayEquals(vexpected, vgathered);
            }
            double[] vall = new double[span];
            java.util.Arrays.fill(vall, -1);
            w.allGatherv(vmine, rank + 1, MPI.DOUBLE, vall, counts, displs, MPI.DOUBLE);
            assertArrayEquals(vexpected, vall);
            double[] vpart = new double[rank + 1];
            w.scatterv(vexpected, counts, displs, MPI.DOUBLE, vpart, rank + 1, MPI.DOUBLE, root);
            assertArrayEquals(vmine, vpart);

            // alltoall: block p of rank r is r * 100 + p.
            long[] out = new long[size * 2];
            for (int p = 0; p < size; p++) {
                out[2 * p] = rank * 100L + p;
                out[2 * p + 1] = -(rank * 100L + p);
            }
            long[] in = new long[size * 2];
            w.allToAll(out, 2, MPI.LONG, in, 2, MPI.LONG);
            for (int p = 0; p < size; p++) {
                assertEquals(p * 100L + rank, in[2 * p]);
                assertEquals(-(p * 100L + rank), in[2 * p + 1]);
            }
            ByteBuffer outB = MPI.newByteBuffer(size);
            for (int p = 0; p < size; p++) {
                outB.put(p, (byte) (rank * 16 + p));
            }
            ByteBuffer inB = MPI.newByteBuffer(size);
            w.allToAll(outB, 1, MPI.BYTE, inB, 1, MPI.BYTE);
            for (int p = 0; p < size; p++) {
                assertEquals((byte) (p * 16 + rank), inB.get(p));
            }
            // alltoallv: rank r sends p + 1 ints to p.
            int[] sc2 = new int[size];
            int[] sd2 = new int[size];
            int[] rc2 = new int[size];
            int[] rd2 = new int[size];
            int st = 0;
            int rt = 0;
            for (int p = 0; p < size; p++) {
                sc2[p] = p + 1;
                sd2[p] = st;
                st += sc2[p];
                rc2[p] = rank + 1;
                rd2[p] = rt;
                rt += rc2[p];
            }
            int[] sv = new int[st];
            for (int p = 0; p < size; p++) {
                for (int j = 0; j < sc2[p]; j++) {
                    sv[sd2[p] + j] = rank * 1000 + p * 10 + j;
                }
            }
            int[] rv = new int[rt];
            w.allToAllv(sv, sc2, sd2, MPI.INT, rv, rc2, rd2, MPI.INT);
            for (int p = 0; p < size; p++) {
                for (int j = 0; j <= rank; j++) {
                    assertEquals(p * 1000 + rank * 10 + j, rv[rd2[p] + j]);
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void minlocAndMaxlocOverPairTypes(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            int n = 3;
            // DOUBLE_INT in a direct buffer, through the DoubleInt accessors.
            ByteBuffer in = MPI.newByteBuffer(n * MPI.doubleInt.getExtent());
            for (int i = 0; i < n; i++) {
                DoubleInt.Data d = MPI.doubleInt.getData(in, i);
                d.putValue((rank * 7 + i * 3) % size + 0.5);
                d.putIndex(rank);
            }
            ByteBuffer out = MPI.newByteBuffer(n * MPI.doubleInt.getExtent());
            w.allReduce(in, out, n, MPI.DOUBLE_INT, MPI.MINLOC);
            for (int i = 0; i < n; i++) {
                double best = Double.MAX_VALUE;
                int at = -1;
                for (int r = 0; r < size; r++) {
                    double x = (r * 7 + i * 3) % size + 0.5;
                    if (x < best) {
                        best = x;
                        at = r;
                    }
                }
                DoubleInt.Data d = MPI.doubleInt.getData(out, i);
                assertEquals(best, d.getValue());
                assertEquals(at, d.getIndex());
            }
            // INT2 in a byte[], MAXLOC: ties go to the smaller index.
            byte[] pairs = new byte[MPI.int2.getExtent()];
            Int2.Data p = MPI.int2.getData(pairs);
            p.putValue(rank % 2);
            p.putIndex(rank);
            byte[] res = new byte[MPI.int2.getExtent()];
            w.reduce(pairs, res, 1, MPI.INT2, MPI.MAXLOC, 0);
            if (rank == 0) {
                Int2.Data r = MPI.int2.getData(res);
                assertEquals(size > 1 ? 1 : 0, r.getValue());
                assertEquals(size > 1 ? 1 : 0, r.getIndex());
            }
            // SHORT_INT, LONG_INT, FLOAT_INT through allReduce.
            ByteBuffer s = MPI.newByteBuffer(MPI.shortInt.getExtent());
            ShortInt.Data sd = MPI.shortInt.getData(s);
            sd.putValue((short) -rank);
            sd.putIndex(rank);
            w.allReduce(s, 1, MPI.SHORT_INT, MPI.MINLOC);
            assertEquals(-(size - 1), ((ShortInt.Data) MPI.shortInt.getData(s)).getValue());
            assertEquals(size - 1, ((ShortInt.Data) MPI.shortInt.getData(s)).getIndex());
            ByteBuffer l = MPI.newByteBuffer(MPI.longInt.getExtent());
            LongInt.Data ld = MPI.longInt.getData(l);
            ld.putValue(rank * 1_000_000_000_000L);
            ld.putIndex(rank);
            w.allReduce(l, 1, MPI.LONG_INT, MPI.MAXLOC);
            assertEquals((size - 1) * 1_000_000_000_000L, ((LongInt.Data) MPI.longInt.getData(l)).getValue());
            ByteBuffer f = MPI.newByteBuffer(MPI.floatInt.getExtent());
            FloatInt.Data fd = MPI.floatInt.getData(f);
            fd.putValue(1.5f);
            fd.putIndex(size - rank);
            w.allReduce(f, 1, MPI.FLOAT_INT, MPI.MINLOC);
            assertEquals(1, ((FloatInt.Data) MPI.floatInt.getData(f)).getIndex());
        });
    }

    /**
     * Associative but not commutative: each item is (digits, 10^length), and x op y appends y's
     * digits to x's, so the rank order shows in the result.
     */
    static final class Digits extends UserFunction {
        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
            long[] a = (long[]) inVec;
            long[] b = (long[]) inOutVec;
            for (int i = 0; i < count; i++) {
                b[2 * i] = a[2 * i] * b[2 * i + 1] + b[2 * i];
                b[2 * i + 1] = a[2 * i + 1] * b[2 * i + 1];
            }
        }
    }

    /** The buffer form of a commutative op on ints: the larger absolute value. */
    static final class AbsMax extends UserFunction {
        @Override
        public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) {
            IntBuffer a = in.asIntBuffer();
            IntBuffer b = inOut.asIntBuffer();
            for (int i = 0; i < count; i++) {
                if (Math.abs(a.get(i)) > Math.abs(b.get(i))) {
                    b.put(i, a.get(i));
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void userOpsKeepRankOrder(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            Op digits = new Op(new Digits(), false);
            assertTrue(!digits.isCommutative());
            Datatype item = Datatype.createContiguous(2, MPI.LONG);
            item.commit();
            long[] mine = {rank + 1, 10};
            long[] all = new long[2];
            w.allReduce(mine, all, 1, item, digits);
            long expected = 0;
            long scale = 1;
            for (int r = 0; r < size; r++) {
                expected = expected * 10 + r + 1;
                scale *= 10;
            }
            assertArrayEquals(new long[] {expected, scale}, all);
            long[] prefix = new long[2];
            w.scan(mine, prefix, 1, item, digits);
            long p = 0;
            for (int r = 0; r <= rank; r++) {
                p = p * 10 + r + 1;
            }
            assertEquals(p, prefix[0]);

            Op absMax = new Op(new AbsMax(), true);
            int[] v = {rank % 2 == 0 ? -rank : rank, 1};
            int[] got = new int[2];
            w.allReduce(v, got, 2, MPI.INT, absMax);
            int big = size - 1;
            assertEquals(big % 2 == 0 ? -big : big, got[0]);
            assertEquals(1, got[1]);
            absMax.free();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void nonblockingCollectivesWithArraysAndBuffers(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            int root = 0;
            int[] b = rank == root ? new int[] {7, 8, 9} : new int[3];
            Request bc = w.iBcast(b, 3, MPI.INT, root);
            double[] sum = new double[2];
            Request ar = w.iAllReduce(new double[] {rank, 1}, sum, 2, MPI.DOUBLE, MPI.SUM);
            int[] gathered = new int[size];
            Request ga = w.iGather(new int[] {rank}, 1, MPI.INT, gathered, 1, MPI.INT, root);
            IntBuffer scanned = MPI.newIntBuffer(1);
            Request sc = w.iScan(new int[] {1}, scanned, 1, MPI.INT, MPI.SUM);
            long[] all = new long[size];
            Request ag = w.iAllGather(new long[] {rank * 3L}, 1, MPI.LONG, all, 1, MPI.LONG);
            int[] a2a = new int[size];
            int[] mine = new int[size];
            for (int p = 0; p < size; p++) {
                mine[p] = rank * size + p;
            }
            Request aa = w.iAllToAll(mine, 1, MPI.INT, a2a, 1, MPI.INT);
            Request bar = w.iBarrier();
            int[] red = new int[1];
            Request re = w.iReduce(new int[] {rank}, red, 1, MPI.INT, MPI.MAX, root);
            // A blocking collective in between must wait for the queued ones and stay matched.
            int[] now = new int[1];
            w.allReduce(new int[] {1}, now, 1, MPI.INT, MPI.SUM);
            assertEquals(size, now[0]);
            Request.waitAll(new Request[] {bc, ar, ga, sc, ag, aa, bar, re});
            assertArrayEquals(new int[] {7, 8, 9}, b);
            assertArrayEquals(new double[] {size * (size - 1) / 2.0, size}, sum);
            if (rank == root) {
                for (int r = 0; r < size; r++) {
                    assertEquals(r, gathered[r]);
                }
                assertEquals(size - 1, red[0]);
            }
            assertEquals(rank + 1, scanned.get(0));
            for (int r = 0; r < size; r++) {
                assertEquals(r * 3L, all[r]);
                assertEquals(r * size + rank, a2a[r]);
            }
            // Cohort's own nonblocking forms when nothing is queued, tested to completion.
            ByteBuffer d = MPI.newByteBuffer(4);
            if (rank == root) {
                d.putInt(0, 1234);
            }
            Request ib = w.iBcast(d, 4, MPI.BYTE, root);
            while (!ib.test()) {
                Thread.onSpinWait();
            }
            assertEquals(1234, d.getInt(0));
        });
    }
}

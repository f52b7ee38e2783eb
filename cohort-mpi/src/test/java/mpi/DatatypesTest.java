package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Derived datatypes: contiguous, vector, hvector, indexed, struct, resized, in point-to-point and collectives. */
@Timeout(60)
class DatatypesTest {

    /** A struct of an int and two doubles, laid out at 0 and 8. */
    static final class Particle extends Struct {
        final int id = addInt();
        final int pos;

        Particle() {
            setOffset(8);
            pos = addDouble(2);
        }

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int id() {
                return getInt(id);
            }

            double pos(int i) {
                return getDouble(pos, i);
            }

            void set(int v, double x, double y) {
                putInt(id, v);
                putDouble(pos, 0, x);
                putDouble(pos, 1, y);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void sizesExtentsAndTypeMaps(int np) {
        MpiJob.run(np, (rank, size) -> {
            Datatype c = Datatype.createContiguous(3, MPI.INT);
            assertEquals(3, c.getSize());
            assertEquals(3, c.getExtent());
            Datatype v = Datatype.createVector(3, 2, 4, MPI.DOUBLE);
            assertEquals(6, v.getSize());
            assertEquals(10, v.getExtent());
            Datatype hv = Datatype.createHVector(3, 2, 32, MPI.DOUBLE);
            assertEquals(10, hv.getExtent());
            Datatype ix = Datatype.createIndexed(new int[] {2, 1}, new int[] {1, 5}, MPI.INT);
            assertEquals(3, ix.getSize());
            assertEquals(1, ix.getTrueLb());
            assertEquals(5, ix.getTrueExtent());
            Datatype st = Datatype.createStruct(new int[] {1, 2}, new int[] {0, 8}, new Datatype[] {MPI.INT, MPI.DOUBLE});
            assertEquals(20, st.getSize());
            assertEquals(24, st.getExtent());
            Datatype r = Datatype.createResized(MPI.INT, 0, 12);
            assertEquals(3, r.getExtent());
            assertEquals(1, r.getSize());
        });
    }

    @Test
    void getElementsCountsBasicElementsOfStructsAndPairs() {
        MpiJob.run(2, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            Datatype t = Datatype.createStruct(new int[] {2, 1}, new int[] {0, 16}, new Datatype[] {MPI.DOUBLE, MPI.INT});
            t.commit();
            Datatype two = Datatype.createContiguous(2, t); // built on the struct: its elements twice
            two.commit();
            if (rank == 0) {
                w.send(MPI.newByteBuffer(60), 3, t, 1, 0);
                w.send(MPI.newByteBuffer(48), 3, MPI.DOUBLE_INT, 1, 1);
                w.send(MPI.newByteBuffer(28), 28, MPI.BYTE, 1, 2); // one struct and a double of the next
                w.send(new int[5], 5, MPI.INT, 1, 3);
                w.send(MPI.newByteBuffer(400), 400, MPI.BYTE, 1, 4);
                w.send(MPI.newByteBuffer(48), 48, MPI.BYTE, 1, 5);
            } else {
                Status st = w.recv(MPI.newByteBuffer(100), 5, t, 0, 0);
                assertEquals(3, st.getCount(t));
                assertEquals(9, st.getElements(t), "two doubles and an int per item");
                assertEquals(MPI.UNDEFINED, st.getCount(two));
                assertEquals(9, st.getElements(two), "one item and a half of the contiguous type");
                Status pairs = w.recv(MPI.newByteBuffer(80), 5, MPI.DOUBLE_INT, 0, 1);
                assertEquals(3, pairs.getCount(MPI.DOUBLE_INT));
                assertEquals(6, pairs.getElements(MPI.DOUBLE_INT), "a double and an int per pair");
                Status part = w.recv(MPI.newByteBuffer(100), 100, MPI.BYTE, 0, 2);
                assertEquals(4, part.getElements(t), "three of the first item, one double of the second");
                assertEquals(5, w.recv(new int[5], 5, MPI.INT, 0, 3).getElements(MPI.INT));
                // Long blocks are one run each: a partial item of 2000 ints and a double still counts.
                Datatype big = Datatype.createStruct(new int[] {2000, 1}, new int[] {0, 8000}, new Datatype[] {MPI.INT, MPI.DOUBLE});
                big.commit();
                assertEquals(100, w.recv(MPI.newByteBuffer(400), 400, MPI.BYTE, 0, 4).getElements(big));
                Status complex = w.recv(MPI.newByteBuffer(48), 48, MPI.BYTE, 0, 5);
                assertEquals(3, complex.getElements(MPI.DOUBLE_COMPLEX), "a complex number is one element");
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void derivedTypesCarryTheirElements(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            // A column of a 4x4 row-major matrix, sent as one item and received contiguous.
            Datatype column = Datatype.createVector(4, 1, 4, MPI.DOUBLE);
            column.commit();
            double[] matrix = new double[16];
            for (int i = 0; i < 16; i++) {
                matrix[i] = rank * 100 + i;
            }
            Request s = w.iSend(MPI.slice(matrix, 1), 1, column, next, 1);
            double[] col = new double[4];
            Status st = w.recv(col, 4, MPI.DOUBLE, prev, 1);
            s.waitFor();
            assertEquals(4, st.getCount(MPI.DOUBLE));
            assertEquals(1, st.getCount(column));
            assertArrayEquals(new double[] {prev * 100 + 1, prev * 100 + 5, prev * 100 + 9, prev * 100 + 13}, col);

            // Indexed on both sides, into a direct buffer.
            Datatype ix = Datatype.createIndexed(new int[] {2, 1}, new int[] {0, 3}, MPI.DOUBLE);
            ix.commit();
            DoubleBuffer into = MPI.newDoubleBuffer(8);
            Request r = w.iRecv(into, 2, ix, prev, 2);
            w.send(new double[] {rank, rank + .1, 9, rank + .2, rank + .3, rank + .4, 9, rank + .5}, 2, ix, next, 2);
            r.waitFor();
            assertArrayEquals(new double[] {prev, prev + .1, 0, prev + .2, prev + .3, prev + .4, 0, prev + .5},
                    (double[]) PointToPointTest.contents(into, MPI.DOUBLE, 8));

            // A struct through the Struct helper, in a direct byte buffer, gathered at rank 0.
            Particle p = new Particle();
            ByteBuffer mine = MPI.newByteBuffer(p.getExtent());
            ((Particle.Data) p.getData(mine)).set(rank, rank * 1.5, -rank);
            ByteBuffer all = MPI.newByteBuffer(p.getExtent() * size);
            w.gather(mine, 1, p.getType(), all, 1, p.getType(), 0);
            if (rank == 0) {
                for (int q = 0; q < size; q++) {
                    Particle.Data d = p.getData(all, q);
                    assertEquals(q, d.id());
                    assertEquals(q * 1.5, d.pos(0));
                    assertEquals(-q, d.pos(1));
                }
            }

            // Bcast of a strided type: every other int of 10.
            Datatype everyOther = Datatype.createVector(5, 1, 2, MPI.INT);
            everyOther.commit();
            int[] data = new int[10];
            if (rank == 0) {
                for (int i = 0; i < 10; i++) {
                    data[i] = i + 1;
                }
            }
            w.bcast(data, 1, everyOther, 0);
            int[] expected = rank == 0 ? new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10} : new int[] {1, 0, 3, 0, 5, 0, 7, 0, 9, 0};
            assertArrayEquals(expected, data);

            // Allreduce over a contiguous derived type, and a resized type in a scatter.
            Datatype pair = Datatype.createContiguous(2, MPI.LONG);
            pair.commit();
            long[] sum = new long[4];
            w.allReduce(new long[] {1, rank, 2, rank}, sum, 2, pair, MPI.SUM);
            long ranks = size * (size - 1L) / 2;
            assertArrayEquals(new long[] {size, ranks, 2L * size, ranks}, sum);

            Datatype oneOfTwo = Datatype.createResized(MPI.INT, 0, 8);
            oneOfTwo.commit();
            int[] source = new int[2 * size];
            for (int q = 0; q < size; q++) {
                source[2 * q] = q * 7;
                source[2 * q + 1] = -1;
            }
            int[] got = new int[1];
            w.scatter(source, 1, oneOfTwo, got, 1, MPI.INT, 0);
            assertEquals(rank * 7, got[0]);
            column.free();
        });
    }
}

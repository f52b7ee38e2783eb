package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Array;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Blocking and nonblocking point-to-point with every basic datatype, over arrays and NIO buffers. */
@Timeout(60)
class PointToPointTest {
    static final Datatype[] TYPES = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE};

    /** An array of {@code n} values of the type's base type that depend on {@code seed}. */
    static Object values(Datatype t, int n, int seed) {
        Object a = Buffers.newCarrier(t.baseType, n);
        for (int i = 0; i < n; i++) {
            int v = seed * 31 + i * 7 + 1;
            switch (t.baseType) {
                case Datatype.CHAR -> ((char[]) a)[i] = (char) (v + 40000);
                case Datatype.SHORT -> ((short[]) a)[i] = (short) (-v);
                case Datatype.BOOLEAN -> ((boolean[]) a)[i] = v % 3 == 0;
                case Datatype.INT -> ((int[]) a)[i] = v * 100003;
                case Datatype.LONG -> ((long[]) a)[i] = v * 10_000_000_019L;
                case Datatype.FLOAT -> ((float[]) a)[i] = v * 0.5f;
                case Datatype.DOUBLE -> ((double[]) a)[i] = v * 0.25 - 1e10;
                default -> ((byte[]) a)[i] = (byte) v;
            }
        }
        return a;
    }

    /** The forms a buffer of {@code a}'s values may take: the array, a direct NIO buffer, a heap NIO buffer. */
    static List<Object> forms(Object a) {
        List<Object> out = new ArrayList<>();
        out.add(a);
        int n = Array.getLength(a);
        if (a instanceof boolean[]) {
            return out;
        }
        Object direct = direct(a, n);
        out.add(direct);
        if (a instanceof byte[] b) {
            out.add(ByteBuffer.wrap(b.clone()));
        } else if (a instanceof int[] x) {
            out.add(IntBuffer.wrap(x.clone()));
        } else if (a instanceof double[] x) {
            out.add(DoubleBuffer.wrap(x.clone()));
        }
        return out;
    }

    static Object direct(Object a, int n) {
        if (a instanceof byte[] x) {
            return MPI.newByteBuffer(n).put(x).clear();
        } else if (a instanceof char[] x) {
            return MPI.newCharBuffer(n).put(x).clear();
        } else if (a instanceof short[] x) {
            return MPI.newShortBuffer(n).put(x).clear();
        } else if (a instanceof int[] x) {
            return MPI.newIntBuffer(n).put(x).clear();
        } else if (a instanceof long[] x) {
            return MPI.newLongBuffer(n).put(x).clear();
        } else if (a instanceof float[] x) {
            return MPI.newFloatBuffer(n).put(x).clear();
        }
        return MPI.newDoubleBuffer(n).put((double[]) a).clear();
    }

    /** An empty buffer of the same form as {@code like}, {@code n} elements. */
    static Object emptyLike(Object like, Datatype t, int n) {
        if (like instanceof Buffer b) {
            Object z = direct(Buffers.newCarrier(t.baseType, n), n);
            if (!b.isDirect()) {
                Object arr = Buffers.newCarrier(t.baseType, n);
                return like instanceof ByteBuffer ? ByteBuffer.wrap((byte[]) arr)
                        : like instanceof IntBuffer ? IntBuffer.wrap((int[]) arr) : DoubleBuffer.wrap((double[]) arr);
            }
            return z;
        }
        return Buffers.newCarrier(t.baseType, n);
    }

    /** The first {@code n} values of any buffer form, as an array of the base type. */
    static Object contents(Object buf, Datatype t, int n) {
        Object out = Buffers.newCarrier(t.baseType, n);
        new io.cohort.mpi.support.buffers.ElementView(buf, t.baseType).toArray(0, n, out, 0);
        return out;
    }

    static void assertSame(Object expected, Object actual, String what) {
        int n = Array.getLength(expected);
        assertEquals(n, Array.getLength(actual), what);
        for (int i = 0; i < n; i++) {
            assertEquals(Array.get(expected, i), Array.get(actual, i), what + " element " + i);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void ringOfEveryTypeAndBufferForm(int np) {
        MpiJob.run(np, (rank, size) -> {
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            int tag = 0;
            for (Datatype t : TYPES) {
                for (int form = 0; form < forms(values(t, 5, 0)).size(); form++) {
                    tag++;
                    Object send = forms(values(t, 37, rank)).get(form);
                    Object recv = emptyLike(send, t, 40);
                    Request r = MPI.COMM_WORLD.iSend(send, 37, t, next, tag);
                    Status s = MPI.COMM_WORLD.recv(recv, 40, t, prev, tag);
                    r.waitFor();
                    assertEquals(prev, s.getSource());
                    assertEquals(tag, s.getTag());
                    assertEquals(37, s.getCount(t));
                    assertSame(values(t, 37, prev), contents(recv, t, 37), t + " form " + form);
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void nonblockingReceivesIntoArraysAndBuffers(int np) {
        MpiJob.run(np, (rank, size) -> {
            List<Request> reqs = new ArrayList<>();
            List<Object> recvs = new ArrayList<>();
            List<Integer> from = new ArrayList<>();
            for (Datatype t : TYPES) {
                List<Object> formsOf = forms(values(t, 3, 0));
                for (int form = 0; form < formsOf.size(); form++) {
                    for (int p = 0; p < size; p++) {
                        Object recv = emptyLike(formsOf.get(form), t, 11);
                        reqs.add(MPI.COMM_WORLD.iRecv(recv, 11, t, p, form * 100 + t.baseType));
                        recvs.add(recv);
                        from.add(p);
                    }
                }
            }
            List<Request> sends = new ArrayList<>();
            for (Datatype t : TYPES) {
                List<Object> formsOf = forms(values(t, 3, 0));
                for (int form = 0; form < formsOf.size(); form++) {
                    for (int p = 0; p < size; p++) {
                        Object send = forms(values(t, 11, rank * 1000 + p)).get(form);
                        sends.add(MPI.COMM_WORLD.iSend(send, 11, t, p, form * 100 + t.baseType));
                    }
                }
            }
            Request.waitAll(reqs.toArray(new Request[0]));
            Request.waitAll(sends.toArray(new Request[0]));
            int i = 0;
            for (Datatype t : TYPES) {
                int nforms = forms(values(t, 3, 0)).size();
                for (int form = 0; form < nforms; form++) {
                    for (int p = 0; p < size; p++) {
                        assertSame(values(t, 11, from.get(i) * 1000 + rank), contents(recvs.get(i), t, 11), t + " " + form);
                        assertTrue(reqs.get(i).isNull());
                        i++;
                    }
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void wildcardsProbeAndSendRecv(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            w.send(new int[] {rank, rank * 2, rank * 3}, 3, MPI.INT, next, 40 + rank);
            Status probed = w.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
            assertEquals(prev, probed.getSource());
            assertEquals(40 + prev, probed.getTag());
            assertEquals(3, probed.getCount(MPI.INT));
            assertEquals(12, probed.getCount(MPI.BYTE));
            int[] got = new int[3];
            Status s = w.recv(got, 3, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            assertEquals(prev, s.getSource());
            assertArrayEquals(new int[] {prev, prev * 2, prev * 3}, got);
            assertNull(w.iProbe(MPI.ANY_SOURCE, 999));

            double[] out = {rank + 0.5, rank + 1.5};
            double[] in = new double[2];
            Status sr = w.sendRecv(out, 2, MPI.DOUBLE, next, 7, in, 2, MPI.DOUBLE, prev, 7);
            assertEquals(prev, sr.getSource());
            assertArrayEquals(new double[] {prev + 0.5, prev + 1.5}, in);

            long[] both = {rank, -rank};
            w.sendRecvReplace(both, 2, MPI.LONG, next, 8, prev, 8);
            assertArrayEquals(new long[] {prev, -prev}, both);

            ByteBuffer direct = MPI.newByteBuffer(4);
            direct.putInt(0, rank);
            w.sendRecvReplace(direct, 4, MPI.BYTE, next, 9, prev, 9);
            assertEquals(prev, direct.getInt(0));

            // PROC_NULL: completes at once, receives nothing.
            int[] untouched = {42};
            Status none = w.recv(untouched, 1, MPI.INT, MPI.PROC_NULL, 0);
            assertEquals(MPI.PROC_NULL, none.getSource());
            assertEquals(0, none.getCount(MPI.INT));
            assertEquals(42, untouched[0]);
            w.send(untouched, 1, MPI.INT, MPI.PROC_NULL, 0);
            w.barrier();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void waitAnySomeTestAllAndPersistentRequests(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            int[][] in = new int[size][1];
            Request[] recvs = new Request[size];
            for (int p = 0; p < size; p++) {
                recvs[p] = w.iRecv(in[p], 1, MPI.INT, p, 3);
            }
            for (int p = 0; p < size; p++) {
                w.send(new int[] {rank * 10 + p}, 1, MPI.INT, p, 3);
            }
            boolean[] seen = new boolean[size];
            int done = 0;
            while (done < size) {
                if (done % 2 == 0) {
                    int i = Request.waitAny(recvs);
                    assertFalse(seen[i]);
                    seen[i] = true;
                    done++;
                } else {
                    int[] some = Request.waitSome(recvs);
                    assertNotNull(some);
                    for (int i : some) {
                        assertFalse(seen[i]);
                        seen[i] = true;
                        done++;
                    }
                }
            }
            assertEquals(MPI.UNDEFINED, Request.waitAny(recvs));
            assertNull(Request.waitSome(recvs));
            for (int p = 0; p < size; p++) {
                assertEquals(p * 10 + rank, in[p][0]);
            }

            // Persistent: the same requests started three times.
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            double[] out = new double[2];
            double[] got = new double[2];
            Prequest send = w.sendInit(out, 2, MPI.DOUBLE, next, 5);
            Prequest recv = w.recvInit(got, 2, MPI.DOUBLE, prev, 5);
            assertFalse(recv.isNull(), "a persistent request is a request before its first start");
            // An inactive request has the empty status: any source, any tag, nothing received.
            Status idle = Request.waitAllStatus(new Request[] {recv, MPI.REQUEST_NULL})[1];
            assertEquals(MPI.ANY_SOURCE, idle.getSource());
            assertEquals(MPI.ANY_TAG, idle.getTag());
            assertEquals(0, idle.getCount(MPI.INT));
            assertEquals(MPI.PROC_NULL, w.recv(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0).getSource(),
                    "a receive from PROC_NULL names it");
            Prequest edge = w.recvInit(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0); // a grid's edge, persistent
            edge.start();
            assertEquals(0, Request.waitAny(new Request[] {edge}), "started: active, complete at once");
            edge.start();
            assertEquals(MPI.PROC_NULL, edge.waitStatus().getSource(), "and it names PROC_NULL too");
            edge.free();
            for (int round = 0; round < 3; round++) {
                out[0] = rank * 100 + round;
                out[1] = -round;
                Prequest.startAll(new Prequest[] {recv, send});
                Request[] both = {recv, send};
                while (!Request.testAll(both)) {
                    Thread.onSpinWait();
                }
                assertArrayEquals(new double[] {prev * 100 + round, -round}, got);
                assertFalse(send.isNull() || recv.isNull(), "completed, inactive, still there to start again");
            }
            send.free();
            recv.free();
            assertTrue(send.isNull() && recv.isNull(), "freed");
        });
    }

    @Test
    void packAndUnpackRoundTrip() {
        MpiJob.run(2, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            byte[] packed = new byte[w.packSize(3, MPI.INT) + w.packSize(2, MPI.DOUBLE)];
            if (rank == 0) {
                int pos = w.pack(new int[] {1, 2, 3}, 3, MPI.INT, packed, 0);
                pos = w.pack(new double[] {0.5, 1.5}, 2, MPI.DOUBLE, packed, pos);
                assertEquals(packed.length, pos);
                w.send(packed, pos, MPI.PACKED, 1, 0);
            } else {
                Status s = w.recv(packed, packed.length, MPI.PACKED, 0, 0);
                assertEquals(packed.length, s.getCount(MPI.PACKED));
                int[] a = new int[3];
                double[] b = new double[2];
                int pos = w.unpack(packed, 0, a, 3, MPI.INT);
                w.unpack(packed, pos, b, 2, MPI.DOUBLE);
                assertArrayEquals(new int[] {1, 2, 3}, a);
                assertArrayEquals(new double[] {0.5, 1.5}, b);
            }
        });
    }

    @Test
    void slicesStartFurtherIn() {
        MpiJob.run(2, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            if (rank == 0) {
                int[] data = {9, 9, 1, 2, 3};
                w.send(MPI.slice(data, 2), 3, MPI.INT, 1, 0);
                IntBuffer direct = MPI.newIntBuffer(6);
                for (int i = 0; i < 6; i++) {
                    direct.put(i, i * 11);
                }
                w.send(MPI.slice(direct, 4), 2, MPI.INT, 1, 1);
            } else {
                int[] into = new int[6];
                w.recv(MPI.slice(into, 3), 3, MPI.INT, 0, 0);
                assertArrayEquals(new int[] {0, 0, 0, 1, 2, 3}, into);
                ByteBuffer bytes = MPI.newByteBuffer(16);
                w.recv(MPI.slice(bytes, 8), 8, MPI.BYTE, 0, 1);
                assertEquals(44, bytes.getInt(8));
                assertEquals(55, bytes.getInt(12));
            }
        });
    }

    static void unused(CharBuffer a, ShortBuffer b, LongBuffer c, FloatBuffer d) {
    }

    @org.junit.jupiter.api.Test
    void cancelWithdrawsAnUnmatchedReceiveSoItsWaitReturns() {
        MpiJob.run(2, (rank, size) -> {
            int[] buf = {42};
            Request r = MPI.COMM_WORLD.iRecv(buf, 1, MPI.INT, MPI.ANY_SOURCE, 99);
            MPI.COMM_WORLD.barrier();
            r.cancel();
            Status st = r.waitStatus();
            assertTrue(st.isCancelled());
            assertEquals(42, buf[0], "the buffer is as it was");
            assertTrue(r.isNull());
            // A send is not cancelled: it completes and its message arrives.
            Request s = MPI.COMM_WORLD.iSend(new int[] {rank}, 1, MPI.INT, 1 - rank, 98);
            s.cancel();
            assertFalse(s.waitStatus().isCancelled());
            int[] got = new int[1];
            assertFalse(MPI.COMM_WORLD.recv(got, 1, MPI.INT, 1 - rank, 98).isCancelled());
            assertEquals(1 - rank, got[0]);
        });
    }
}

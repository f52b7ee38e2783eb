package mpi;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Point-to-point of mpiJava 1.2: every datatype with offsets, every send mode, requests, probes. */
@Timeout(60)
class PointToPointTest {
    static final Datatype[] TYPES = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT,
            MPI.DOUBLE, MPI.OBJECT};

    /** An array for {@code t} of {@code n} elements, element i derived from {@code seed} and i. */
    static Object values(Datatype t, int n, int seed) {
        Object a = newArray(t, n);
        for (int i = 0; i < n; i++) {
            int v = seed * 100 + i;
            Object x = switch (t.getType()) {
                case 1 -> (byte) v;
                case 2 -> (char) ('a' + v % 26);
                case 3 -> (short) v;
                case 4 -> v % 3 == 0;
                case 5 -> v;
                case 6 -> (long) v << 33;
                case 7 -> v + 0.5f;
                case 8 -> v + 0.25;
                default -> "object " + v;
            };
            Array.set(a, i, x);
        }
        return a;
    }

    static Object newArray(Datatype t, int n) {
        return switch (t.getType()) {
            case 1 -> new byte[n];
            case 2 -> new char[n];
            case 3 -> new short[n];
            case 4 -> new boolean[n];
            case 5 -> new int[n];
            case 6 -> new long[n];
            case 7 -> new float[n];
            case 8 -> new double[n];
            default -> new Object[n];
        };
    }

    static void assertElements(Object expected, int from, Object actual, int at, int n, String what) {
        for (int i = 0; i < n; i++) {
            assertEquals(Array.get(expected, from + i), Array.get(actual, at + i), what + " element " + i);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void everyDatatypeTravelsARingWithOffsets(int np) {
        MpjJob.run(np, (rank, size) -> {
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            for (Datatype t : TYPES) {
                // Send 5 elements from offset 2 of a 9-element array; receive them at offset 3 of 10.
                Object out = values(t, 9, rank);
                Object in = newArray(t, 10);
                Request r = MPI.COMM_WORLD.Irecv(in, 3, 6, t, prev, 7);
                MPI.COMM_WORLD.Send(out, 2, 5, t, next, 7);
                Status s = r.Wait();
                assertEquals(prev, s.source);
                assertEquals(7, s.tag);
                assertEquals(5, s.Get_count(t), t + " count");
                assertElements(values(t, 9, prev), 2, in, 3, 5, t.toString());
                assertEquals(Array.get(newArray(t, 1), 0), Array.get(in, 2), t + " before the offset untouched");
                // Whole arrays, blocking receive.
                Object whole = values(t, 4, rank + 1);
                Object got = newArray(t, 4);
                Request sr = MPI.COMM_WORLD.Isend(whole, 0, 4, t, next, 8);
                Status s2 = MPI.COMM_WORLD.Recv(got, 0, 4, t, prev, 8);
                sr.Wait();
                assertEquals(4, s2.Get_count(t));
                assertElements(values(t, 4, prev + 1), 0, got, 0, 4, t + " whole");
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void everySendModeAndWildcards(int np) {
        MpjJob.run(np, (rank, size) -> {
            if (rank == 0) {
                int[] buf = new int[1];
                int seen = 0;
                for (int i = 0; i < 4 * (size - 1); i++) {
                    Status s = MPI.COMM_WORLD.Recv(buf, 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    assertEquals(s.source * 10 + s.tag, buf[0]);
                    seen += buf[0];
                }
                int expect = 0;
                for (int r = 1; r < size; r++) {
                    for (int tag = 0; tag < 4; tag++) {
                        expect += r * 10 + tag;
                    }
                }
                assertEquals(expect, seen);
            } else {
                MPI.COMM_WORLD.Send(new int[] {rank * 10}, 0, 1, MPI.INT, 0, 0);
                MPI.COMM_WORLD.Ssend(new int[] {rank * 10 + 1}, 0, 1, MPI.INT, 0, 1);
                MPI.COMM_WORLD.Bsend(new int[] {rank * 10 + 2}, 0, 1, MPI.INT, 0, 2);
                MPI.COMM_WORLD.Rsend(new int[] {rank * 10 + 3}, 0, 1, MPI.INT, 0, 3);
            }
            MPI.COMM_WORLD.Barrier();
            // The nonblocking modes, completed by Waitall.
            if (rank != 0) {
                Request[] rs = {
                        MPI.COMM_WORLD.Isend(new long[] {rank}, 0, 1, MPI.LONG, 0, 10),
                        MPI.COMM_WORLD.Issend(new long[] {rank}, 0, 1, MPI.LONG, 0, 11),
                        MPI.COMM_WORLD.Ibsend(new long[] {rank}, 0, 1, MPI.LONG, 0, 12),
                        MPI.COMM_WORLD.Irsend(new long[] {rank}, 0, 1, MPI.LONG, 0, 13)};
                Status[] st = Request.Waitall(rs);
                for (int i = 0; i < 4; i++) {
                    assertEquals(i, st[i].index);
                    assertTrue(rs[i].Is_null());
                }
            } else {
                long[] got = new long[4 * size];
                for (int r = 1; r < size; r++) {
                    for (int tag = 10; tag < 14; tag++) {
                        MPI.COMM_WORLD.Recv(got, r * 4 + tag - 10, 1, MPI.LONG, r, tag);
                        assertEquals(r, got[r * 4 + tag - 10]);
                    }
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void waitAndTestFamilies(int np) {
        MpjJob.run(np, (rank, size) -> {
            if (rank == 0) {
                int n = size - 1;
                int[][] bufs = new int[n][1];
                Request[] rs = new Request[n];
                for (int r = 1; r < size; r++) {
                    rs[r - 1] = MPI.COMM_WORLD.Irecv(bufs[r - 1], 0, 1, MPI.INT, r, 5);
                }
                assertNull(Request.Testall(new Request[] {rs[0], MPI.COMM_WORLD.Irecv(new int[1], 0, 1, MPI.INT, 1, 99)})
                        == null ? null : "completed a receive nobody sent");
                MPI.COMM_WORLD.Barrier(); // everyone may send now
                List<Integer> done = new ArrayList<>();
                Status first = Request.Waitany(rs);
                done.add(first.index);
                assertEquals(first.index + 1, first.source);
                while (done.size() < n) {
                    Status[] some = Request.Waitsome(rs);
                    assertNotNull(some);
                    for (Status s : some) {
                        done.add(s.index);
                        assertEquals(s.index + 1, s.source);
                    }
                }
                assertEquals(0, Request.Waitsome(rs).length, "no active request");
                assertEquals(MPI.UNDEFINED, Request.Waitany(rs).index);
                for (int r = 1; r < size; r++) {
                    assertEquals(r * r, bufs[r - 1][0]);
                }
                // Testany / Testsome / Test by polling until done.
                Request[] more = new Request[n];
                for (int r = 1; r < size; r++) {
                    more[r - 1] = MPI.COMM_WORLD.Irecv(bufs[r - 1], 0, 1, MPI.INT, r, 6);
                }
                MPI.COMM_WORLD.Barrier();
                int got = 0;
                Status one = null;
                while (one == null) {
                    one = Request.Testany(more);
                }
                got++;
                while (got < n) {
                    Status[] some = Request.Testsome(more);
                    got += some.length;
                }
                assertEquals(0, Request.Testsome(more).length);
                Request last = MPI.COMM_WORLD.Irecv(bufs[0], 0, 1, MPI.INT, 1, 7);
                MPI.COMM_WORLD.Barrier();
                Status t = null;
                while (t == null) {
                    t = last.Test();
                }
                assertEquals(1, t.source);
                assertTrue(last.Is_null());
                Status[] all = null;
                Request[] alls = {MPI.COMM_WORLD.Irecv(bufs[0], 0, 1, MPI.INT, 1, 8)};
                MPI.COMM_WORLD.Barrier();
                while (all == null) {
                    all = Request.Testall(alls);
                }
                assertEquals(1, all[0].source);
            } else {
                MPI.COMM_WORLD.Barrier();
                MPI.COMM_WORLD.Send(new int[] {rank * rank}, 0, 1, MPI.INT, 0, 5);
                MPI.COMM_WORLD.Barrier();
                MPI.COMM_WORLD.Send(new int[] {rank}, 0, 1, MPI.INT, 0, 6);
                MPI.COMM_WORLD.Barrier();
                if (rank == 1) {
                    MPI.COMM_WORLD.Send(new int[] {1}, 0, 1, MPI.INT, 0, 7);
                }
                MPI.COMM_WORLD.Barrier();
                if (rank == 1) {
                    MPI.COMM_WORLD.Send(new int[] {1}, 0, 1, MPI.INT, 0, 8);
                    MPI.COMM_WORLD.Send(new int[] {1}, 0, 1, MPI.INT, 0, 99);
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void persistentRequestsRestart(int np) {
        MpjJob.run(np, (rank, size) -> {
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            double[] out = new double[3];
            double[] in = new double[3];
            Prequest send = MPI.COMM_WORLD.Send_init(out, 1, 2, MPI.DOUBLE, next, 3);
            Prequest recv = MPI.COMM_WORLD.Recv_init(in, 0, 2, MPI.DOUBLE, prev, 3);
            Prequest[] both = {recv, send};
            assertFalse(recv.Is_null(), "a persistent request is a request before its first start");
            for (int round = 0; round < 5; round++) {
                out[1] = rank + round;
                out[2] = -rank - round;
                Prequest.Startall(both);
                Status[] st = Request.Waitall(both);
                assertEquals(prev, st[0].source);
                assertArrayEquals(new double[] {prev + round, -prev - round, 0}, in);
                assertFalse(send.Is_null() || recv.Is_null(), "completed, inactive, still there to start again");
            }
            for (Prequest p : new Prequest[] {
                    MPI.COMM_WORLD.Bsend_init(new int[] {1}, 0, 1, MPI.INT, next, 4),
                    MPI.COMM_WORLD.Ssend_init(new int[] {2}, 0, 1, MPI.INT, next, 4),
                    MPI.COMM_WORLD.Rsend_init(new int[] {3}, 0, 1, MPI.INT, next, 4)}) {
                int[] got = new int[1];
                Prequest r = MPI.COMM_WORLD.Recv_init(got, 0, 1, MPI.INT, prev, 4);
                r.Start();
                p.Start();
                p.Wait();
                r.Wait();
                assertTrue(got[0] >= 1 && got[0] <= 3);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void probeSizesTheReceive(int np) {
        MpjJob.run(np, (rank, size) -> {
            if (rank == 0) {
                for (int r = 1; r < size; r++) {
                    Status s = MPI.COMM_WORLD.Probe(MPI.ANY_SOURCE, 2);
                    int n = s.Get_count(MPI.SHORT);
                    assertEquals(s.source * 3, n);
                    assertEquals(n * 2, s.Get_elements(MPI.BYTE));
                    short[] buf = new short[n];
                    MPI.COMM_WORLD.Recv(buf, 0, n, MPI.SHORT, s.source, 2);
                    assertEquals((short) s.source, buf[n - 1]);
                }
                assertNull(MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, 3));
                MPI.COMM_WORLD.Barrier();
                Status s = null;
                while (s == null) {
                    s = MPI.COMM_WORLD.Iprobe(1, 3);
                }
                Object[] objs = new Object[2];
                Status got = MPI.COMM_WORLD.Recv(objs, 0, 2, MPI.OBJECT, 1, 3);
                assertEquals(2, got.Get_count(MPI.OBJECT));
                assertEquals(List.of(1, 2), objs[1]);
            } else {
                short[] buf = new short[rank * 3];
                java.util.Arrays.fill(buf, (short) rank);
                MPI.COMM_WORLD.Send(buf, 0, buf.length, MPI.SHORT, 0, 2);
                MPI.COMM_WORLD.Barrier();
                if (rank == 1) {
                    MPI.COMM_WORLD.Send(new Object[] {"x", List.of(1, 2)}, 0, 2, MPI.OBJECT, 0, 3);
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void sendrecvAndReplaceShiftARing(int np) {
        MpjJob.run(np, (rank, size) -> {
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            float[] out = {rank, rank + 0.5f};
            float[] in = new float[4];
            Status s = MPI.COMM_WORLD.Sendrecv(out, 0, 2, MPI.FLOAT, next, 1, in, 2, 2, MPI.FLOAT, prev, 1);
            assertEquals(prev, s.source);
            assertArrayEquals(new float[] {0, 0, prev, prev + 0.5f}, in);
            Object[] objs = {"a" + rank, "b" + rank, "c" + rank};
            MPI.COMM_WORLD.Sendrecv_replace(objs, 1, 2, MPI.OBJECT, next, 2, prev, 2);
            assertArrayEquals(new Object[] {"a" + rank, "b" + prev, "c" + prev}, objs);
            char[] chars = {(char) ('a' + rank), 'x', (char) ('A' + rank)};
            Datatype ends = Datatype.Vector(2, 1, 2, MPI.CHAR);
            MPI.COMM_WORLD.Sendrecv_replace(chars, 0, 1, ends, next, 3, prev, 3);
            assertArrayEquals(new char[] {(char) ('a' + prev), 'x', (char) ('A' + prev)}, chars);
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void procNullCompletesAtOnce(int np) {
        MpjJob.run(np, (rank, size) -> {
            int[] buf = {5};
            MPI.COMM_WORLD.Send(buf, 0, 1, MPI.INT, MPI.PROC_NULL, 0);
            Status s = MPI.COMM_WORLD.Recv(buf, 0, 1, MPI.INT, MPI.PROC_NULL, 0);
            assertEquals(MPI.PROC_NULL, s.source);
            assertEquals(0, s.Get_count(MPI.INT));
            assertEquals(5, buf[0]);
            Request r = MPI.COMM_WORLD.Irecv(buf, 0, 1, MPI.INT, MPI.PROC_NULL, 0);
            assertFalse(r.Is_null());
            assertEquals(MPI.PROC_NULL, r.Wait().source);
            assertTrue(r.Is_null());
            assertTrue(MPI.REQUEST_NULL.Is_null());
        });
    }

    @org.junit.jupiter.api.Test
    void cancelWithdrawsAnUnmatchedReceiveSoItsWaitReturns() {
        MpjJob.run(2, (rank, size) -> {
            int[] buf = {42};
            Request r = MPI.COMM_WORLD.Irecv(buf, 0, 1, MPI.INT, MPI.ANY_SOURCE, 99);
            MPI.COMM_WORLD.Barrier();
            r.Cancel();
            Status st = r.Wait();
            assertTrue(st.Test_cancelled());
            assertEquals(42, buf[0], "the array is as it was");
            Request s = MPI.COMM_WORLD.Isend(new int[] {rank}, 0, 1, MPI.INT, 1 - rank, 98);
            s.Cancel();
            assertFalse(s.Wait().Test_cancelled());
            int[] got = new int[1];
            assertFalse(MPI.COMM_WORLD.Recv(got, 0, 1, MPI.INT, 1 - rank, 98).Test_cancelled());
            assertEquals(1 - rank, got[0]);
        });
    }
}

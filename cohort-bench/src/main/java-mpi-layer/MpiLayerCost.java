import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.Op;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The {@code mpi} layer's own cost per call, where noise cancels: one job of two peers runs the
 * same operation through Cohort's API and through the layer (package {@code mpi}, cohort-mpi.jar)
 * in alternating blocks, so that whatever the machine does hits both alike, and reports each
 * variant's best and median block.
 *
 * <ul>
 *   <li>{@code pingpong}: 8-byte (or {@code size}) round trips of a {@code byte[]} and of a direct
 *       {@code ByteBuffer}: Cohort's {@code send(dest, tag, byte[], 0, size)} /
 *       {@code recv(source, tag, byte[])} and {@code send/recv(.., ByteBuffer)} against the layer's
 *       {@code send/recv(buf, size, MPI.BYTE, ..)}; half a round trip per call pair.</li>
 *   <li>{@code coll}: {@code bcast} of {@code size} bytes from rank 0 (in place, Cohort's
 *       {@code bcast(int, Object)}, which the layer calls) and {@code allreduce} of {@code size / 8}
 *       doubles with SUM, back to back (no barrier between calls): the time per call at rank 0.</li>
 *   <li>{@code reduce}: {@code reduce} of {@code size / 8} doubles to rank 0, SUM into a receive
 *       array and MAX in place, back to back: the time per call at rank 0.</li>
 *   <li>{@code osu}: the same calls as the OSU-style benchmarks time them (scripts/bench-mpi.sh):
 *       each call timed on its own, then an untimed barrier through the same API; the mean time per
 *       call at each rank, printed by each (rank 1's line is the bcast's receiver).</li>
 * </ul>
 *
 * Not built by Maven (cohort-bench has no dependency on cohort-mpi, whose package {@code mpi} is
 * also Open MPI's): {@code scripts/bench-mpi-layer.sh} compiles and runs it. Usage:
 * {@code MpiLayerCost pingpong|coll|reduce|osu [size] [blocks]}.
 */
public final class MpiLayerCost {
    private static final int TAG = 5;

    private MpiLayerCost() {
    }

    public static void main(String[] args) throws Exception {
        String what = args.length > 0 ? args[0] : "pingpong";
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int blocks = args.length > 2 ? Integer.parseInt(args[2]) : 120;
        boolean osu = what.equals("osu");
        boolean reduce = what.equals("reduce");
        if (!what.equals("pingpong") && !what.equals("coll") && !osu && !reduce || size < 0 || blocks < 1) {
            System.err.println("usage: MpiLayerCost pingpong|coll|reduce|osu [size >= 0] [blocks >= 1]");
            System.exit(2);
        }
        mpi.MPI.Init(args);
        Communicator world = Cohort.init();
        mpi.Intracomm mw = mpi.MPI.COMM_WORLD;
        if (world.size() != 2) {
            System.err.println("MpiLayerCost runs with 2 peers (cohort run -n 2)");
            System.exit(2);
        }
        boolean p2p = what.equals("pingpong");
        int iters = p2p ? 5000 : osu ? 1000 : 2000;
        String[] names = p2p ? new String[] {"byte[]", "direct"}
                : reduce ? new String[] {"reduce", "reduce-in-place"} : new String[] {"bcast", "allreduce"};
        long[][][] t = new long[2][2][blocks]; // [operation][0 cohort, 1 mpi][block]
        Buffers b = new Buffers(size);
        for (int block = -20; block < blocks; block++) { // 20 blocks of warm-up
            for (int slot = 0; slot < 4; slot++) {
                // Cohort's form first in even blocks, the layer's in odd ones: neither always follows the other.
                int v = (block & 1) == 0 ? slot : slot ^ 1;
                world.barrier();
                long elapsed;
                if (osu) {
                    elapsed = 0;
                    for (int i = 0; i < iters; i++) {
                        long t0 = System.nanoTime();
                        collective(world, mw, v, b, size);
                        elapsed += System.nanoTime() - t0;
                        if (v % 2 == 0) {
                            world.barrier();
                        } else {
                            mw.barrier();
                        }
                    }
                } else {
                    long t0 = System.nanoTime();
                    for (int i = 0; i < iters; i++) {
                        if (p2p) {
                            pingPong(world, mw, v, b, size);
                        } else if (reduce) {
                            reduce(world, mw, v, b);
                        } else {
                            collective(world, mw, v, b, size);
                        }
                    }
                    elapsed = System.nanoTime() - t0;
                }
                if (block >= 0) {
                    t[v / 2][v % 2][block] = elapsed;
                }
            }
        }
        if (world.rank() == 0 || osu) {
            double per = p2p ? 2.0 * iters : iters;
            for (int op = 0; op < 2; op++) {
                double[] paired = new double[blocks]; // block i of each ran back to back: drift cancels
                for (int i = 0; i < blocks; i++) {
                    paired[i] = (double) t[op][1][i] / t[op][0][i];
                }
                Arrays.sort(paired);
                long[] c = t[op][0].clone();
                long[] m = t[op][1].clone();
                Arrays.sort(c);
                Arrays.sort(m);
                System.out.printf("mpi-layer %s%s %s %d B: cohort best %.3f median %.3f us; mpi best %.3f median %.3f us;"
                                + " mpi/cohort best %.3f median %.3f paired median %.3f%n", what,
                        osu ? " rank " + world.rank() : "", names[op], size,
                        c[0] / per / 1000, c[blocks / 2] / per / 1000, m[0] / per / 1000, m[blocks / 2] / per / 1000,
                        (double) m[0] / c[0], (double) m[blocks / 2] / c[blocks / 2], paired[blocks / 2]);
            }
        }
        mpi.MPI.Finalize();
    }

    private static final class Buffers {
        final byte[] array;
        final ByteBuffer direct;
        final double[] send;
        final double[] recv;

        Buffers(int size) {
            array = new byte[size];
            direct = ByteBuffer.allocateDirect(size);
            send = new double[Math.max(1, size / 8)];
            recv = new double[send.length];
        }
    }

    /** Variant v: 0 Cohort byte[], 1 mpi byte[], 2 Cohort direct, 3 mpi direct. */
    private static void pingPong(Communicator w, mpi.Intracomm mw, int v, Buffers b, int size) throws mpi.MPIException {
        int other = 1 - w.rank();
        boolean first = w.rank() == 0;
        for (int step = 0; step < 2; step++) {
            boolean send = first == (step == 0);
            switch (v) {
                case 0 -> {
                    if (send) {
                        w.send(other, TAG, b.array, 0, size);
                    } else {
                        w.recv(other, TAG, b.array);
                    }
                }
                case 1 -> {
                    if (send) {
                        mw.send(b.array, size, mpi.MPI.BYTE, other, TAG);
                    } else {
                        mw.recv(b.array, size, mpi.MPI.BYTE, other, TAG);
                    }
                }
                case 2 -> {
                    if (send) {
                        w.send(other, TAG, b.direct.clear());
                    } else {
                        w.recv(other, TAG, b.direct.clear());
                    }
                }
                default -> {
                    if (send) {
                        mw.send(b.direct, size, mpi.MPI.BYTE, other, TAG);
                    } else {
                        mw.recv(b.direct, size, mpi.MPI.BYTE, other, TAG);
                    }
                }
            }
        }
    }

    /** Variant v: 0 Cohort bcast, 1 mpi bcast, 2 Cohort allreduce, 3 mpi allReduce. */
    private static void collective(Communicator w, mpi.Intracomm mw, int v, Buffers b, int size)
            throws mpi.MPIException {
        switch (v) {
            case 0 -> w.bcast(0, (Object) b.array); // in place, as the layer's; bcast(int, byte[]) returns a new array
            case 1 -> mw.bcast(b.array, size, mpi.MPI.BYTE, 0);
            case 2 -> w.allreduce(b.send, b.recv, Op.SUM);
            default -> mw.allReduce(b.send, b.recv, b.send.length, mpi.MPI.DOUBLE, mpi.MPI.SUM);
        }
    }

    /** Variant v: 0 Cohort reduce, 1 mpi reduce (SUM into recv at rank 0); 2, 3 the same in place with MAX. */
    private static void reduce(Communicator w, mpi.Intracomm mw, int v, Buffers b) throws mpi.MPIException {
        boolean root = w.rank() == 0;
        switch (v) {
            case 0 -> w.reduce(0, b.send, root ? b.recv : null, Op.SUM);
            case 1 -> mw.reduce(b.send, b.recv, b.send.length, mpi.MPI.DOUBLE, mpi.MPI.SUM, 0);
            case 2 -> w.reduce(0, b.send, root ? b.send : null, Op.MAX);
            default -> mw.reduce(b.send, b.send.length, mpi.MPI.DOUBLE, mpi.MPI.MAX, 0);
        }
    }
}

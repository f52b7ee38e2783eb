package io.cohort.bench;

import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.Op;
import io.cohort.Request;

import java.nio.ByteBuffer;

/**
 * Cohort's own API in the loops of the OSU-style programs written against the Open MPI Java
 * bindings ({@code src/main/java-ompi/OsuLatency.java}, {@code OsuBandwidth.java},
 * {@code OsuCollLatency.java}): the figure the {@code mpi} layer is compared with in
 * {@code scripts/bench-mpi.sh} (issue 9). Call for call the same measurement, with the same options
 * and result lines ({@link OsuFigures}):
 * <ul>
 *   <li>{@code latency}: ping-pong of {@code send(dest, tag, byte[], 0, size)} and
 *       {@code recv(source, tag, byte[])}, or with {@code --buffer direct} of a direct
 *       {@code ByteBuffer} limited to {@code size};</li>
 *   <li>{@code bw}: a window of W blocking sends of a {@code byte[]} (the bindings take no arrays in
 *       nonblocking calls, so the MPI program cannot do otherwise), or with {@code --buffer direct}
 *       W {@code isend}s then {@code Request.awaitAll} against W {@code irecv}s; then a 4-byte ack;</li>
 *   <li>{@code bcast}, {@code allreduce}: one call timed, then an untimed barrier; bcast of a
 *       {@code byte[]} (or direct {@code ByteBuffer}) of exactly {@code size} bytes from rank 0,
 *       allreduce of {@code size / 8} doubles with {@link Op#SUM} (arrays only: Cohort's collectives
 *       do not know a ByteBuffer's element type).</li>
 * </ul>
 * <pre>
 *   cohort run -n 2 --transport shm -cp ... io.cohort.bench.OsuStyleJob latency|bw [options]
 *   cohort run -n 4 --transport shm -cp ... io.cohort.bench.OsuStyleJob bcast|allreduce|allgather [options]
 * </pre>
 */
public final class OsuStyleJob {
    private static final int TAG = 1;
    private static final int TAG_ACK = 2;

    private OsuStyleJob() {
    }

    public static void main(String[] args) {
        String op = args.length > 0 ? args[0] : "";
        boolean p2p = op.equals("latency") || op.equals("bw");
        if (!p2p && !op.equals("bcast") && !op.equals("allreduce") && !op.equals("allgather")) {
            OsuFigures.usage("OsuStyleJob", "the operation (first argument) is latency, bw, bcast, allreduce or allgather");
        }
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        int[] defaults = switch (op) {
            case "latency" -> new int[] {10_000, 1_000, 1_000, 100};
            case "bw" -> new int[] {200, 20, 50, 5};
            default -> new int[] {1_000, 100, 1_000, 100};
        };
        OsuFigures f = OsuFigures.parse("OsuStyleJob", "cohort",
                p2p ? OsuFigures.pointToPointSizes() : OsuFigures.collectiveSizes(), defaults, rest);
        if (f.rest.length > 0) {
            OsuFigures.usage("OsuStyleJob", "unexpected argument '" + f.rest[0] + "'");
        }
        if ((op.equals("allreduce") || op.equals("allgather")) && f.direct) {
            OsuFigures.usage("OsuStyleJob", op + " takes arrays only (--buffer array)");
        }
        try (Communicator world = Cohort.init()) {
            if (p2p && world.size() != 2) {
                throw new IllegalArgumentException("run " + op + " with -n 2, not " + world.size());
            }
            if (p2p) {
                pointToPoint(world, op, f);
            } else {
                collective(world, op, f);
            }
        }
    }

    // ---- latency and bandwidth -------------------------------------------------------------------

    private static void pointToPoint(Communicator world, String op, OsuFigures f) {
        int rank = world.rank();
        int max = f.maxSize();
        byte[] array = f.direct ? null : new byte[max];
        ByteBuffer direct = f.direct ? ByteBuffer.allocateDirect(max) : null;
        for (int i = 0; i < max; i++) {
            if (f.direct) {
                direct.put(i, (byte) i);
            } else {
                array[i] = (byte) i;
            }
        }
        byte[] ackArray = new byte[4];
        ByteBuffer ackDirect = ByteBuffer.allocateDirect(4);
        boolean latency = op.equals("latency");
        Request[] requests = new Request[f.window];
        ByteBuffer[] views = new ByteBuffer[f.window];

        int first = f.sizes[0];
        setViews(views, direct, first);
        long until = System.nanoTime() + f.prewarmNanos();
        int[] go = {1};
        while (go[0] != 0) {
            for (int i = 0; i < (latency ? 1000 : 20); i++) {
                if (latency) {
                    pingPong(world, rank, array, direct, first);
                } else {
                    window(world, rank, f, array, direct, views, requests, ackArray, ackDirect, first);
                }
            }
            go[0] = System.nanoTime() < until ? 1 : 0;
            world.bcast(0, (Object) go);
        }

        for (int size : f.sizes) {
            int iters = f.iters(size);
            int warmup = f.warmup(size);
            long[] samples = new long[iters];
            setViews(views, direct, size);
            world.barrier();
            for (int i = 0; i < warmup + iters; i++) {
                long t0 = System.nanoTime();
                if (latency) {
                    pingPong(world, rank, array, direct, size);
                } else {
                    window(world, rank, f, array, direct, views, requests, ackArray, ackDirect, size);
                }
                long dt = System.nanoTime() - t0;
                if (i >= warmup) {
                    samples[i - warmup] = dt;
                }
            }
            if (rank == 0) {
                System.out.println(latency ? f.latencyLine(size, samples) : f.bandwidthLine(size, samples));
                System.out.flush();
            }
        }
    }

    /** One view per message of a window: concurrent isends and irecvs each need their own position and limit. */
    private static void setViews(ByteBuffer[] views, ByteBuffer direct, int size) {
        if (direct == null) {
            return;
        }
        for (int j = 0; j < views.length; j++) {
            views[j] = direct.duplicate().clear().limit(size);
        }
    }

    private static void pingPong(Communicator world, int rank, byte[] array, ByteBuffer direct, int size) {
        int other = 1 - rank;
        if (array != null) {
            if (rank == 0) {
                world.send(other, TAG, array, 0, size);
                world.recv(other, TAG, array);
            } else {
                world.recv(other, TAG, array);
                world.send(other, TAG, array, 0, size);
            }
        } else if (rank == 0) {
            world.send(other, TAG, direct.clear().limit(size));
            world.recv(other, TAG, direct.clear().limit(size));
        } else {
            world.recv(other, TAG, direct.clear().limit(size));
            world.send(other, TAG, direct.clear().limit(size));
        }
    }

    private static void window(Communicator world, int rank, OsuFigures f, byte[] array, ByteBuffer direct,
                               ByteBuffer[] views, Request[] requests, byte[] ackArray, ByteBuffer ackDirect, int size) {
        if (rank == 0) {
            if (array != null) {
                for (int j = 0; j < f.window; j++) {
                    world.send(1, TAG, array, 0, size);
                }
                world.recv(1, TAG_ACK, ackArray);
            } else {
                for (int j = 0; j < f.window; j++) {
                    requests[j] = world.isend(1, TAG, views[j].clear().limit(size));
                }
                Request.awaitAll(requests);
                world.recv(1, TAG_ACK, ackDirect.clear());
            }
        } else {
            if (array != null) {
                for (int j = 0; j < f.window; j++) {
                    world.recv(0, TAG, array);
                }
                world.send(0, TAG_ACK, ackArray, 0, 4);
            } else {
                for (int j = 0; j < f.window; j++) {
                    requests[j] = world.irecv(0, TAG, views[j].clear().limit(size));
                }
                Request.awaitAll(requests);
                world.send(0, TAG_ACK, ackDirect.clear());
            }
        }
    }

    // ---- bcast and allreduce ---------------------------------------------------------------------

    private static void collective(Communicator world, String op, OsuFigures f) {
        int rank = world.rank();
        int n = world.size();
        Object[] warm = buffers(f, rank, f.sizes[0]);
        long until = System.nanoTime() + f.prewarmNanos();
        int[] go = {1};
        int calls = 0;
        while (go[0] != 0) {
            for (int i = 0; i < 100; i++) {
                call(world, op, warm, f.sizes[0], rank, calls++);
                world.barrier();
            }
            go[0] = System.nanoTime() < until ? 1 : 0;
            world.bcast(0, (Object) go);
        }
        for (int size : f.sizes) {
            int iters = f.iters(size);
            int warmup = f.warmup(size);
            Object[] b = buffers(f, rank, size);
            long[] mine = new long[iters];
            world.barrier();
            for (int i = 0; i < warmup + iters; i++) {
                long t0 = System.nanoTime();
                call(world, op, b, size, rank, i);
                long dt = System.nanoTime() - t0;
                if (i >= warmup) {
                    mine[i - warmup] = dt;
                }
                world.barrier();
            }
            check(op, b, size, rank, n, warmup + iters - 1);
            long[] all = new long[iters * n];
            world.gather(0, mine, all);
            if (rank == 0) {
                System.out.println(f.collectiveLine(op, n, size, iters, all));
                System.out.flush();
            }
        }
    }

    /**
     * bytes (byte[] or direct ByteBuffer) for bcast; send and receive double[] for allreduce; the
     * allgather sends the same double[] and receives every peer's (made at its first call).
     */
    private static Object[] buffers(OsuFigures f, int rank, int size) {
        int doubles = Math.max(1, size / 8);
        double[] s = new double[doubles];
        for (int i = 0; i < doubles; i++) {
            s[i] = rank + i;
        }
        Object bytes = f.direct ? ByteBuffer.allocateDirect(size) : new byte[size];
        return new Object[] {bytes, s, new double[doubles], null};
    }

    private static void call(Communicator world, String op, Object[] b, int size, int rank, int i) {
        if (op.equals("bcast")) {
            if (rank == 0) {
                if (b[0] instanceof ByteBuffer bb) {
                    bb.put(size - 1, (byte) i);
                } else {
                    ((byte[]) b[0])[size - 1] = (byte) i;
                }
            }
            world.bcast(0, b[0]);
        } else if (op.equals("allgather")) {
            if (b[3] == null) {
                b[3] = new double[((double[]) b[1]).length * world.size()];
            }
            world.allgather(b[1], b[3]);
        } else {
            world.allreduce(b[1], b[2], Op.SUM);
        }
    }

    private static void check(String op, Object[] b, int size, int rank, int n, int lastCall) {
        if (op.equals("bcast")) {
            byte got = b[0] instanceof ByteBuffer bb ? bb.get(size - 1) : ((byte[]) b[0])[size - 1];
            if (got != (byte) lastCall) {
                throw new IllegalStateException("rank " + rank + ": bcast of " + size + " B delivered byte " + got
                        + ", expected " + (byte) lastCall);
            }
        } else if (op.equals("allgather")) {
            double[] all = (double[]) b[3];
            int each = all.length / n;
            for (int r = 0; r < n; r++) {
                if (all[r * each] != r) {
                    throw new IllegalStateException("rank " + rank + ": allgather gave " + all[r * each] + " for rank " + r);
                }
            }
        } else if (((double[]) b[2])[0] != n * (n - 1) / 2.0) {
            throw new IllegalStateException("rank " + rank + ": allreduce gave " + ((double[]) b[2])[0] + ", expected "
                    + n * (n - 1) / 2.0);
        }
    }
}

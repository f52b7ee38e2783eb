import io.cohort.bench.OsuFigures;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.nio.ByteBuffer;

/**
 * osu_bw's measurement written against the Open MPI Java bindings' API (package {@code mpi}), ours,
 * in the OSU micro-benchmarks' style: rank 0 sends a window of W (default 64) messages of
 * {@code size} bytes to rank 1, which receives them all and answers with a 4-byte ack; each window
 * (from the first send to the ack) is one sample. Reported: MiB/s over the median window, over the
 * 99th percentile window, and over the mean (osu_bw's figure).
 * <p>
 * {@code --buffer direct}: as osu_bw, W {@code iSend}s of a direct {@code ByteBuffer} then
 * {@code Request.waitAll}, against W {@code iRecv}s. {@code --buffer array} (default): W blocking
 * {@code send}s of a {@code byte[]} against W blocking {@code recv}s, because the bindings'
 * nonblocking calls refuse arrays (they take direct buffers only); this is how a program that keeps
 * its data in arrays streams on the bindings. The same source compiles against Open MPI's
 * {@code mpi.jar} and against {@code cohort-mpi.jar}; see {@code scripts/bench-mpi.sh}. Options and
 * the result line: {@link OsuFigures}.
 */
public final class OsuBandwidth {
    private static final int TAG = 1;
    private static final int TAG_ACK = 2;

    private OsuBandwidth() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        OsuFigures f = OsuFigures.parse("OsuBandwidth", "mpi", OsuFigures.pointToPointSizes(),
                new int[] {200, 20, 50, 5}, args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        if (world.getSize() != 2) {
            if (rank == 0) {
                System.err.println("OsuBandwidth: run it with 2 processes, not " + world.getSize());
            }
            MPI.Finalize();
            System.exit(2);
        }
        int max = f.maxSize();
        Object buf;
        Object ack;
        if (f.direct) {
            ByteBuffer b = MPI.newByteBuffer(max);
            for (int i = 0; i < max; i++) {
                b.put(i, (byte) i);
            }
            buf = b;
            ack = MPI.newByteBuffer(4);
        } else {
            byte[] b = new byte[max];
            for (int i = 0; i < max; i++) {
                b[i] = (byte) i;
            }
            buf = b;
            ack = new byte[4];
        }
        Request[] requests = new Request[f.window];

        // JIT warm-up: windows of the smallest size for at least --prewarm-seconds (rank 0's clock).
        long until = System.nanoTime() + f.prewarmNanos();
        int[] go = {1};
        while (go[0] != 0) {
            for (int i = 0; i < 20; i++) {
                window(world, rank, f, buf, ack, requests, f.sizes[0]);
            }
            go[0] = System.nanoTime() < until ? 1 : 0;
            world.bcast(go, 1, MPI.INT, 0);
        }

        for (int size : f.sizes) {
            int iters = f.iters(size);
            int warmup = f.warmup(size);
            long[] samples = new long[iters];
            world.barrier();
            for (int i = 0; i < warmup + iters; i++) {
                long t0 = System.nanoTime();
                window(world, rank, f, buf, ack, requests, size);
                long dt = System.nanoTime() - t0;
                if (i >= warmup) {
                    samples[i - warmup] = dt;
                }
            }
            if (rank == 0) {
                System.out.println(f.bandwidthLine(size, samples));
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    private static void window(Intracomm world, int rank, OsuFigures f, Object buf, Object ack, Request[] requests,
                               int size) throws MPIException {
        if (rank == 0) {
            if (f.direct) {
                for (int j = 0; j < f.window; j++) {
                    requests[j] = world.iSend((ByteBuffer) buf, size, MPI.BYTE, 1, TAG);
                }
                Request.waitAll(requests);
            } else {
                for (int j = 0; j < f.window; j++) {
                    world.send(buf, size, MPI.BYTE, 1, TAG);
                }
            }
            world.recv(ack, 4, MPI.BYTE, 1, TAG_ACK);
        } else {
            if (f.direct) {
                for (int j = 0; j < f.window; j++) {
                    requests[j] = world.iRecv((ByteBuffer) buf, size, MPI.BYTE, 0, TAG);
                }
                Request.waitAll(requests);
            } else {
                for (int j = 0; j < f.window; j++) {
                    world.recv(buf, size, MPI.BYTE, 0, TAG);
                }
            }
            world.send(ack, 4, MPI.BYTE, 0, TAG_ACK);
        }
    }
}

package demo;

import io.cohort.tools.prof.FakePeer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A synthetic 8-peer job for looking at the reports (docs/img/prof-report.png was made from it): a 1-D
 * stencil whose peers swap 64 KiB halos with both neighbours each step (isend, irecv, waitAll), an
 * allreduce of the residual every 10 steps, and a final gather of 1 MiB per peer to rank 0. Rank 5
 * computes 60% slower, so its neighbours wait for it. Not a test: run
 * {@code java -cp cohort-tools/target/test-classes:cohort-tools/target/classes demo.StencilDemo DIR},
 * then {@code cohort prof DIR --html}.
 */
public final class StencilDemo {
    static final int PEERS = 8;
    static final int STEPS = 40;
    static final long HALO = 64 * 1024;
    static final long COMPUTE_MICROS = 2_000;

    private StencilDemo() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "stencil-profile");
        Files.createDirectories(dir);
        for (int r = 0; r < PEERS; r++) {
            FakePeer.Options o = FakePeer.Options.of("Stencil", r < PEERS / 2 ? "node1" : "node2").sampled();
            FakePeer.record(dir, r, PEERS, o, StencilDemo::run);
        }
        System.out.println("wrote " + PEERS + " recordings to " + dir);
    }

    static long computeMicros(int rank) {
        return rank == 5 ? COMPUTE_MICROS * 16 / 10 : COMPUTE_MICROS;
    }

    static void run(FakePeer world) {
        int rank = world.rank();
        int left = (rank + PEERS - 1) % PEERS;
        int right = (rank + 1) % PEERS;
        // How long this peer waits for its slowest neighbour each step (peers are simulated one after another).
        long slowest = Math.max(computeMicros(left), computeMicros(right));
        long waitMicros = Math.max(0, slowest - computeMicros(rank)) + 60;
        for (int step = 0; step < STEPS; step++) {
            world.region("relax", () -> relax(computeMicros(rank)));
            world.region("halo exchange", () -> {
                world.recv(left, 1, HALO, "irecv", 4);
                world.recv(right, 2, HALO, "irecv", 4);
                world.send(left, 2, HALO, "isend", 12);
                world.send(right, 1, HALO, "isend", 12);
                world.waitAll(4, waitMicros);
            });
            if (step % 10 == 9) {
                residual(300);
                world.collective("allreduce", 8, 90 + (rank == 5 ? 0 : 400));
            }
        }
        if (rank == 0) {
            for (int p = 1; p < PEERS; p++) {
                world.recv(p, 9, 1 << 20, "recv", 700);
            }
        } else {
            world.send(0, 9, 1 << 20, "send", 650);
        }
        world.collective("barrier", 0, 40);
    }

    static double relax(long micros) {
        double s = 0;
        long end = System.nanoTime() + micros * 1000;
        while (System.nanoTime() < end) {
            s += sweep(200);
        }
        return s;
    }

    static double sweep(int cells) {
        double s = 0;
        for (int i = 1; i < cells; i++) {
            s += Math.sqrt(i) * 0.25 + 1.0 / i;
        }
        return s;
    }

    static double residual(long micros) {
        double s = 0;
        long end = System.nanoTime() + micros * 1000;
        while (System.nanoTime() < end) {
            s += Math.log1p(s + 1);
        }
        return s;
    }
}

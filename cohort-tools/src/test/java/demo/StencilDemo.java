package demo;

import io.cohort.tools.prof.FakePeer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A synthetic 8-peer job for looking at the reports: a 1-D stencil whose peers swap 64 KiB halos with
 * both neighbours each step (irecv, irecv, isend, isend, waitAll), an allreduce of the residual every 10
 * steps, a final gather of 1 MiB per peer to rank 0, and a barrier. Rank 5 computes 60% slower, and as
 * in a real stencil everyone ends up waiting for it: its neighbours at once, the others a step or two
 * later, and all of them at each allreduce. Ranks 0-3 are on host node1, 4-7 on node2.
 *
 * <p>Each peer is its own JVM with its own recording, as in a profiled job, and the peers run at the
 * same time, so the timeline of the reports looks like a real job's. Nothing is sent between them:
 * every peer computes the same {@link Plan} of when each operation starts and ends (halos arrive
 * after the sender posted them, an allreduce ends after its last peer joined...) and plays its own
 * part from a start instant the launching process hands to all of them. Not a test: run
 * {@code java -cp cohort-tools/target/test-classes:cohort-tools/target/classes demo.StencilDemo DIR},
 * then {@code cohort prof DIR --html}.
 */
public final class StencilDemo {
    static final int PEERS = 8;
    static final int STEPS = 40;
    static final long HALO = 64 * 1024;
    static final long COMPUTE_MICROS = 2_000;
    static final long GATHER = 1 << 20;
    /** Time for the peers' JVMs to get from the start instant's announcement to waiting for it. */
    private static final long START_DELAY_NANOS = 300_000_000;
    private static final String READY = "ready";
    /** From the start instant to the first step: the recorder starts sampling methods in this time. */
    private static final long LEAD_NANOS = 25_000_000;

    private StencilDemo() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length == 3 && args[0].equals("--peer")) {
            peer(Integer.parseInt(args[1]), Path.of(args[2]));
            return;
        }
        Path dir = Path.of(args.length > 0 ? args[0] : "stencil-profile");
        Files.createDirectories(dir);
        launch(dir);
        System.out.println("wrote " + PEERS + " recordings to " + dir);
    }

    /** Starts a JVM per peer, waits until each is recording, then gives all of them one start instant. */
    private static void launch(Path dir) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> peers = new ArrayList<>();
        try {
            for (int r = 0; r < PEERS; r++) {
                // C1 only and the serial collector: eight JVMs share a small machine.
                peers.add(new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                        System.getProperty("java.class.path"), StencilDemo.class.getName(), "--peer", Integer.toString(r),
                        dir.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start());
            }
            for (Process p : peers) {
                BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                if (!READY.equals(in.readLine())) {
                    throw new IOException("a peer process ended before it was ready (its errors are above)");
                }
            }
            long start = epochNanos() + START_DELAY_NANOS;
            for (Process p : peers) {
                try (Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
                    w.write(start + "\n");
                }
            }
            for (int r = 0; r < PEERS; r++) {
                Process p = peers.get(r);
                if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    throw new IOException("peer " + r + " failed (its errors are above)");
                }
            }
        } finally {
            peers.forEach(Process::destroy);
        }
    }

    private static void peer(int rank, Path dir) throws IOException {
        long[] startNanoTime = new long[1];
        Plan plan = new Plan();
        FakePeer.Options o = FakePeer.Options.of("Stencil", rank < PEERS / 2 ? "node1" : "node2").sampled();
        // A first run, thrown away, with every operation late and so over at once: it loads and links
        // what the program and the recorder use, which takes a JVM on a busy machine a few hundred ms.
        Path scratch = Files.createTempDirectory("stencil-warm-up");
        try {
            FakePeer.record(scratch, rank, PEERS, o, () -> {
            }, w -> play(w, plan, System.nanoTime() - TimeUnit.HOURS.toNanos(1)));
        } finally {
            try (var files = Files.list(scratch)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(scratch);
        }
        FakePeer.record(dir, rank, PEERS, o, () -> startNanoTime[0] = awaitStart(), w -> play(w, plan, startNanoTime[0] + LEAD_NANOS));
    }

    /** Says it is ready, reads the start instant, and sleeps until it; returns it on {@link System#nanoTime()}'s scale. */
    private static long awaitStart() {
        System.out.println(READY);
        System.out.flush();
        try {
            String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            if (line == null) {
                throw new IllegalStateException("the launching process went away before the start");
            }
            long start = System.nanoTime() + Long.parseLong(line.trim()) - epochNanos();
            sleepUntil(start);
            return start;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    static long computeMicros(int rank) {
        return rank == 5 ? COMPUTE_MICROS * 16 / 10 : COMPUTE_MICROS;
    }

    static int left(int rank) {
        return (rank + PEERS - 1) % PEERS;
    }

    static int right(int rank) {
        return (rank + 1) % PEERS;
    }

    /**
     * When every operation of every peer starts and ends, in microseconds from the start instant. A
     * step: relax, then post two irecvs and two isends (32 us), then wait until both neighbours' halos
     * have arrived (a halo leaves once its sender has posted its isends and takes 40 us within a host,
     * 150 us between hosts). Every 10th step adds 300 us of residual and an allreduce that ends 90 us
     * after its last peer joined. At the end, rank 0 receives each peer's 1 MiB in turn (700 us each;
     * a sender waits in its send until then), and a barrier ends 40 us after its last peer.
     */
    static final class Plan {
        static final long POSTS = 4 + 4 + 12 + 12;
        final long[][] relax = new long[STEPS][PEERS];
        final long[][] exchange = new long[STEPS][PEERS];
        final long[][] waitEnd = new long[STEPS][PEERS];
        final long[][] reduceJoin = new long[STEPS][PEERS];
        final long[] reduceEnd = new long[STEPS];
        final long[] gatherStart = new long[PEERS];
        final long[] gatherEnd = new long[PEERS];
        final long[] barrierJoin = new long[PEERS];
        final long barrierEnd;

        Plan() {
            long[] t = new long[PEERS];
            for (int s = 0; s < STEPS; s++) {
                for (int r = 0; r < PEERS; r++) {
                    relax[s][r] = t[r];
                    exchange[s][r] = t[r] + computeMicros(r);
                }
                for (int r = 0; r < PEERS; r++) {
                    long posted = exchange[s][r] + POSTS;
                    long fromLeft = exchange[s][left(r)] + POSTS + wire(left(r), r);
                    long fromRight = exchange[s][right(r)] + POSTS + wire(right(r), r);
                    waitEnd[s][r] = Math.max(posted, Math.max(fromLeft, fromRight)) + 15;
                    t[r] = waitEnd[s][r];
                }
                if (s % 10 == 9) {
                    long last = 0;
                    for (int r = 0; r < PEERS; r++) {
                        reduceJoin[s][r] = t[r] + 300;
                        last = Math.max(last, reduceJoin[s][r]);
                    }
                    reduceEnd[s] = last + 90;
                    Arrays.fill(t, reduceEnd[s]);
                }
            }
            long at = t[0];
            for (int p = 1; p < PEERS; p++) {
                gatherStart[p] = t[p];
                gatherEnd[p] = Math.max(at, t[p]) + 700;
                at = gatherEnd[p];
                t[p] = gatherEnd[p];
            }
            gatherStart[0] = t[0];
            t[0] = at;
            long last = 0;
            for (int r = 0; r < PEERS; r++) {
                barrierJoin[r] = t[r];
                last = Math.max(last, t[r]);
            }
            barrierEnd = last + 40;
        }

        static long wire(int from, int to) {
            return from / (PEERS / 2) == to / (PEERS / 2) ? 40 : 150;
        }
    }

    /** This peer's part of the plan, each operation started at its time (or at once if late) and ended at its end. */
    static void play(FakePeer world, Plan plan, long start) {
        int rank = world.rank();
        Clock c = new Clock(start);
        for (int step = 0; step < STEPS; step++) {
            int s = step;
            c.sleepUntil(plan.relax[s][rank]);
            world.region("relax", () -> relax(c.nanoTime(plan.exchange[s][rank])));
            world.region("halo exchange", () -> {
                world.recv(left(rank), 1, HALO, "irecv", 4);
                world.recv(right(rank), 2, HALO, "irecv", 4);
                world.send(left(rank), 2, HALO, "isend", 12);
                world.send(right(rank), 1, HALO, "isend", 12);
                world.waitAll(4, c.microsUntil(plan.waitEnd[s][rank]));
            });
            if (s % 10 == 9) {
                residual(c.nanoTime(plan.reduceJoin[s][rank]));
                world.collective("allreduce", 8, c.microsUntil(plan.reduceEnd[s]));
            }
        }
        if (rank == 0) {
            for (int p = 1; p < PEERS; p++) {
                world.recv(p, 9, GATHER, "recv", c.microsUntil(plan.gatherEnd[p]));
            }
        } else {
            c.sleepUntil(plan.gatherStart[rank]);
            world.send(0, 9, GATHER, "send", c.microsUntil(plan.gatherEnd[rank]));
        }
        world.collective("barrier", 0, c.microsUntil(plan.barrierEnd));
    }

    /** The plan's microseconds on this JVM's {@link System#nanoTime()}. */
    private record Clock(long start) {
        long nanoTime(long planMicros) {
            return start + planMicros * 1000;
        }

        /** At least 1: a late peer still records the operation. */
        long microsUntil(long planMicros) {
            return Math.max(1, (nanoTime(planMicros) - System.nanoTime()) / 1000);
        }

        void sleepUntil(long planMicros) {
            StencilDemo.sleepUntil(nanoTime(planMicros));
        }
    }

    private static void sleepUntil(long nanoTime) {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    /**
     * Computes for the first part of the span and sleeps through the rest: the method sampler sees
     * {@code relax} and {@code sweep}, and eight peer JVMs still fit on two cores.
     */
    static double relax(long untilNanoTime) {
        double s = 0;
        long now = System.nanoTime();
        long computeEnd = now + (untilNanoTime - now) / 8;
        while (System.nanoTime() < computeEnd) {
            s += sweep(200);
        }
        sleepUntil(untilNanoTime);
        return s;
    }

    static double sweep(int cells) {
        double s = 0;
        for (int i = 1; i < cells; i++) {
            s += Math.sqrt(i) * 0.25 + 1.0 / i;
        }
        return s;
    }

    static double residual(long untilNanoTime) {
        double s = 0;
        while (System.nanoTime() < untilNanoTime) {
            s += Math.log1p(s + 1);
        }
        return s;
    }
}

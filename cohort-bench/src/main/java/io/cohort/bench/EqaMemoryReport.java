package io.cohort.bench;

import io.cohort.broadcast.eqa.BroadcastMode;
import io.cohort.broadcast.eqa.EqaContext;
import io.cohort.broadcast.eqa.EqaPeer;
import io.cohort.broadcast.eqa.LocalEqaGroup;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The EQA paper's memory comparison (section 4.2) measured instead of computed: N in-JVM peers on
 * loopback UDP, each in turn broadcasting long messages to the other N - 1, once with EQA's shared
 * retransmission buffer and once with one buffer per channel; per peer, the most bytes each design's
 * buffers actually held during the run, beside the paper's M_save(n) = 0.386 (1 - 1/n). Optionally
 * ({@code --latency}) the latency of Simple against Push-Pull Broadcast by message length, as ratios.
 *
 * <pre>
 *   EqaMemoryReport [--peers 2,4,...,128] [--length BYTES] [--messages M] [--latency] [--out FILE]
 * </pre>
 *
 * <p>Threads: main only; it drives every peer from one loop ({@link LocalEqaGroup#pumpUntil}).
 */
public final class EqaMemoryReport {
    private EqaMemoryReport() {
    }

    /** Per-peer means of one run. */
    private record Memory(double sendPeak, double receiveState, double assemblyPeak) {
    }

    public static void main(String[] args) throws Exception {
        int[] peers = {2, 4, 8, 16, 32, 64, 128};
        int length = 32 * 1024;
        int messages = 2;
        boolean latency = false;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--peers" -> peers = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--length" -> length = Integer.parseInt(args[++i]);
                case "--messages" -> messages = Integer.parseInt(args[++i]);
                case "--latency" -> latency = true;
                case "--out" -> out = Path.of(args[++i]);
                default -> {
                    System.err.println("EqaMemoryReport: unknown argument \"" + args[i]
                            + "\"; use --peers, --length, --messages, --latency or --out.");
                    System.exit(2);
                }
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add("Workload: each of N peers in turn broadcasts " + messages + " message(s) of " + length
                + " B (AUTO: Push-Pull) to the other N - 1; window " + EqaContext.WINDOW_DEFAULT
                + ", BTP1 + BTP2 = " + EqaContext.BTP1_DEFAULT + " + " + EqaContext.BTP2_DEFAULT + " B. Bytes per peer,"
                + " mean over peers, the most each structure held during the run.");
        lines.add("");
        lines.add("| N | shared buffer (EQA) | one buffer per channel | receive state | saving, buffers + state"
                + " | M_save(N) = 0.386(1-1/N) | in-assembly messages | saving incl. those |");
        lines.add("|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int n : peers) {
            Memory shared = run(n, EqaContext.BufferDesign.SHARED, length, messages);
            Memory perChannel = run(n, EqaContext.BufferDesign.PER_CHANNEL, length, messages);
            double eqa = shared.sendPeak + shared.receiveState;
            double p2p = perChannel.sendPeak + perChannel.receiveState;
            double eqaAll = eqa + shared.assemblyPeak;
            double p2pAll = p2p + perChannel.assemblyPeak;
            lines.add(String.format(Locale.ROOT, "| %d | %,.0f | %,.0f | %,.0f | %.3f | %.3f | %,.0f | %.3f |", n,
                    shared.sendPeak, perChannel.sendPeak, shared.receiveState, (p2p - eqa) / p2p,
                    0.386 * (1 - 1.0 / n), shared.assemblyPeak, (p2pAll - eqaAll) / p2pAll));
            System.err.println("N=" + n + " done");
        }
        if (latency) {
            lines.add("");
            lines.addAll(latency(4, new int[] {256, 1024, 4096, 16_384, 65_536}, 200));
        }
        PrintStream o = System.out;
        lines.forEach(o::println);
        if (out != null) {
            Files.write(out, lines);
        }
    }

    private static Memory run(int n, EqaContext.BufferDesign design, int length, int messages) throws IOException {
        EqaContext ctx = new EqaContext().bufferDesign(design).mode(BroadcastMode.AUTO);
        try (LocalEqaGroup g = LocalEqaGroup.open(n, ctx, null, 0xE9A0L + n)) {
            byte[] message = new byte[length];
            new java.util.Random(n).nextBytes(message);
            long[] assemblyPeak = new long[n];
            for (int root = 0; root < n; root++) {
                for (int m = 0; m < messages; m++) {
                    g.peer(root).broadcast(message);
                }
                g.pumpUntil(() -> {
                    boolean done = true;
                    for (EqaPeer p : g.peers()) {
                        done &= p.senderIdle();
                    }
                    return done;
                }, 60_000);
                for (EqaPeer p : g.peers()) {
                    while (p.poll() != null) {
                        // deliveries are not kept: only the protocol's own memory is measured
                    }
                }
            }
            double send = 0;
            double state = 0;
            double assembly = 0;
            for (EqaPeer p : g.peers()) {
                long peak = p.retransmissionBuffer().peakBytesHeld();
                send += peak;
                long receiveNow = p.receiveBytesHeld(); // nothing in assembly after the run: state only
                state += receiveNow;
                assembly += p.receivePeakBytes() - receiveNow;
                if (p.counters().get(io.cohort.broadcast.eqa.EqaCounters.Counter.MESSAGES_DELIVERED)
                        != (long) (n - 1) * messages) {
                    throw new IllegalStateException("rank " + p.rank() + " missed messages: " + p.counters());
                }
            }
            return new Memory(send / n, state / n, assembly / n);
        }
    }

    /** Median single-broadcast latency, Push-Pull over Simple, at {@code n} peers. */
    private static List<String> latency(int n, int[] lengths, int iterations) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("Latency at N = " + n + " (in one JVM, one thread drives all peers; " + iterations
                + " broadcasts per cell after 20 warm-up; until every receiver delivered):");
        lines.add("");
        lines.add("| length (B) | Push-Pull / Simple, median | Push-Pull / Simple, p99 |");
        lines.add("|---:|---:|---:|");
        try (LocalEqaGroup g = LocalEqaGroup.open(n, new EqaContext(), null,
                0xE9A1L)) {
            for (int length : lengths) {
                long[] simple = time(g, BroadcastMode.SIMPLE, length, iterations);
                long[] pushPull = time(g, BroadcastMode.PUSH_PULL, length, iterations);
                lines.add(String.format(Locale.ROOT, "| %d | %.2f | %.2f |", length,
                        (double) pct(pushPull, 0.5) / pct(simple, 0.5), (double) pct(pushPull, 0.99) / pct(simple, 0.99)));
            }
        }
        return lines;
    }

    private static long[] time(LocalEqaGroup g, BroadcastMode mode, int length, int iterations) {
        byte[] message = new byte[length];
        long[] t = new long[iterations];
        for (int i = -20; i < iterations; i++) {
            long start = System.nanoTime();
            g.peer(0).broadcast(message, mode);
            int[] got = new int[1];
            g.pumpUntil(() -> {
                for (int r = 1; r < g.size(); r++) {
                    while (g.peer(r).poll() != null) {
                        got[0]++;
                    }
                }
                return got[0] == g.size() - 1;
            }, 10_000);
            long took = System.nanoTime() - start;
            g.pumpUntilQuiet(10_000);
            if (i >= 0) {
                t[i] = took;
            }
        }
        Arrays.sort(t);
        return t;
    }

    private static long pct(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) (q * sorted.length))];
    }
}

package io.cohort.bench;

import io.cohort.Communicator;
import io.cohort.LocalCohort;
import io.cohort.BroadcastDomain;
import io.cohort.DomainCounters;
import io.cohort.broadcast.pcode.LocalBroadcastDomains;
import io.cohort.broadcast.pcode.PcodeContext;
import io.cohort.broadcast.pcode.PcodeDomain;
import io.cohort.transport.fault.FaultPlan;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The PCODE paper's all-to-all broadcast (sections 6.2-6.4), in one JVM: every peer calls
 * {@code multicast} once and then {@code request} once per other peer, for R rounds; "time per
 * call" is the round time divided by N. Beside it, in the same run, the same calls over Cohort's
 * TCP transport (a multicast is a series of sends, a request a receive), the paper's baseline.
 * This is a benchmark program, not a test: it asserts nothing about timing.
 *
 * <p>Each peer times each of its rounds after a warm-up into one HdrHistogram per configuration;
 * reported are the median and p99 of the time per call over all peers' rounds, with the sample
 * count, and for PCODE the NACKs and retransmissions per 1000 calls. Content is checked in every
 * round (a checksum of the expected bytes), so a fast wrong answer cannot pass.
 *
 * <p>First version, with known limits: all peers share this JVM and its cores (the paper had one
 * machine per peer), PCODE runs over loopback multicast, and the TCP baseline uses the same
 * multicast-then-requests order (the paper used the round-robin order for TCP, which it found
 * faster there). The cluster-in-a-box version with one process per host is still to come.
 *
 * <p>Usage: {@code AllToAllBroadcastBenchmark [--quick] [--rounds R] [--peers 2,4] [--sizes 20,1024]
 * [--fault SPEC] [--out FILE]}.
 */
public final class AllToAllBroadcastBenchmark {
    static final int TAG = 11;

    private AllToAllBroadcastBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = 1000;
        int[] peers = {2, 3, 4, 8};
        int[] sizes = {20, 256, 1024, 8192};
        String fault = "";
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> {
                    rounds = 100;
                    peers = new int[] {2, 4};
                    sizes = new int[] {20, 1024};
                }
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--peers" -> peers = ints(args[++i]);
                case "--sizes" -> sizes = ints(args[++i]);
                case "--fault" -> fault = args[++i];
                case "--out" -> out = Path.of(args[++i]);
                default -> {
                    System.err.println("unknown argument '" + args[i] + "'; see the class javadoc for the usage");
                    System.exit(2);
                }
            }
        }
        FaultPlan faults = FaultPlan.parse(fault);
        StringBuilder table = new StringBuilder();
        table.append("All-to-all broadcast, ").append(rounds).append(" rounds, in one JVM (").append(LocalDateTime.now())
                .append(", ").append(Runtime.getRuntime().availableProcessors()).append(" CPUs")
                .append(faults.isNone() ? "" : ", faults " + fault).append(")\n\n")
                .append("| N | size (B) | PCODE per call median / p99 (us) | TCP per call median / p99 (us) | TCP / PCODE | PCODE NACKs per 1000 calls | retransmissions per 1000 calls | samples |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (int n : peers) {
            for (int size : sizes) {
                Result p = pcode(n, size, rounds, faults);
                Result t = tcp(n, size, rounds);
                double calls = (double) rounds * n * n / 1000.0;
                String row = String.format(Locale.ROOT, "| %d | %d | %.1f / %.1f | %.1f / %.1f | %.2f | %.1f | %.1f | %d |%n",
                        n, size, p.median(), p.p99(), t.median(), t.p99(), t.median() / p.median(),
                        p.nacks / calls, p.resent / calls, p.histogram.getTotalCount());
                System.out.print(row);
                table.append(row);
            }
        }
        if (out != null) {
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, table.toString(), StandardCharsets.UTF_8);
        }
    }

    private static int[] ints(String s) {
        return Arrays.stream(s.split(",")).mapToInt(x -> Integer.parseInt(x.trim())).toArray();
    }

    /** Per-round times (ns per call) of all peers, and protocol counters. */
    static final class Result {
        final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        long nacks;
        long resent;

        synchronized void record(long nanosPerCall) {
            histogram.recordValue(Math.max(1, nanosPerCall));
        }

        double median() {
            return histogram.getValueAtPercentile(50) / 1000.0;
        }

        double p99() {
            return histogram.getValueAtPercentile(99) / 1000.0;
        }
    }

    static byte[] content(int sender, int round, int size) {
        byte[] b = new byte[size];
        Arrays.fill(b, (byte) (sender * 31 + round));
        return b;
    }

    static void check(byte[] got, int sender, int round, int size) {
        byte want = (byte) (sender * 31 + round);
        if (got.length != size || got[0] != want || got[size - 1] != want) {
            throw new IllegalStateException("round " + round + ": wrong message from rank " + sender);
        }
    }

    static int[] allBut(int n, int rank) {
        int[] t = new int[n - 1];
        for (int i = 0, k = 0; i < n; i++) {
            if (i != rank) {
                t[k++] = i;
            }
        }
        return t;
    }

    static Result pcode(int n, int size, int rounds, FaultPlan faults) throws IOException {
        Result r = new Result();
        int warmup = Math.max(10, rounds / 10);
        PcodeDomain[] domains = LocalBroadcastDomains.open(n, LocalBroadcastDomains.Medium.MULTICAST,
                PcodeContext.fromSystemProperties(), faults, ThreadLocalRandom.current().nextLong());
        LocalBroadcastDomains.run(domains, new LocalBroadcastDomains.Body() {
            @Override
            public void run(BroadcastDomain d) {
                int me = d.rank();
                int[] others = allBut(n, me);
                int[][] targetsOf = new int[n][];
                for (int q = 0; q < n; q++) {
                    targetsOf[q] = allBut(n, q);
                }
                for (int round = 0; round < warmup + rounds; round++) {
                    long start = System.nanoTime();
                    d.multicast(content(me, round, size), others);
                    for (int q = 0; q < n; q++) {
                        if (q != me) {
                            check(d.request(q, targetsOf[q]), q, round, size);
                        }
                    }
                    if (round >= warmup) {
                        r.record((System.nanoTime() - start) / n);
                    }
                }
            }
        }, Duration.ofMinutes(10));
        for (PcodeDomain d : domains) {
            r.nacks += d.counters().nacksSent();
            r.resent += d.counters().get(DomainCounters.Counter.RETRANSMISSIONS);
        }
        return r;
    }

    static Result tcp(int n, int size, int rounds) {
        Result r = new Result();
        int warmup = Math.max(10, rounds / 10);
        LocalCohort.builder().size(n).transport("tcp").timeout(Duration.ofMinutes(10)).run(new LocalCohort.PeerBody() {
            @Override
            public void run(Communicator world) {
                int me = world.rank();
                for (int round = 0; round < warmup + rounds; round++) {
                    long start = System.nanoTime();
                    byte[] m = content(me, round, size);
                    for (int q = 0; q < n; q++) {
                        if (q != me) {
                            world.send(q, TAG, m);
                        }
                    }
                    for (int q = 0; q < n; q++) {
                        if (q != me) {
                            check(world.recv(q, TAG).bytes(), q, round, size);
                        }
                    }
                    if (round >= warmup) {
                        r.record((System.nanoTime() - start) / n);
                    }
                }
            }
        });
        return r;
    }
}

package io.cohort.bench;

import io.cohort.BroadcastDomain;
import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.DomainCounters;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The PCODE paper's all-to-all broadcast (sections 6.2-6.4) as a real job, one peer per host:
 * started by {@code cohort run} across the cluster in a box ({@code scripts/bench-alltoall-box.sh}).
 * For each message size, in the same job and one after the other:
 * <ul>
 *   <li>{@code pcode}: every peer calls {@code multicast} on the job's broadcast domain and then one
 *       {@code request} per other peer;</li>
 *   <li>{@code tcp}: the paper's baseline, the same exchange over the job's point-to-point transport
 *       (TCP between hosts): a multicast is a series of sends, a request a receive.</li>
 * </ul>
 * R rounds after a warm-up of as many (at least 500); "time per call" = round time / N. Every message's content is
 * checked. Each peer records its rounds into an HdrHistogram; rank 0 merges them and prints one
 * line per size and implementation, with the NACKs and retransmissions of all peers per 1000
 * calls:
 * <pre>
 *   alltoall impl=pcode n=8 size=1024 rounds=1000 median_us=.. p99_us=.. samples=8000 nacks_per_1000=.. retx_per_1000=..
 * </pre>
 * Usage: {@code AllToAllJob [--impls pcode,tcp] [--sizes 20,256,1024,8192] [--rounds R] [--label k=v] [--counters]};
 * a label (e.g. {@code loss=5} or {@code nack_delay_us=200}) is appended to every line; {@code --counters}
 * makes every rank print its domain's protocol counters to stderr after each PCODE size.
 */
public final class AllToAllJob {
    private static final int TAG = 11;
    private static final int TAG_RESULT = 12;

    private AllToAllJob() {
    }

    public static void main(String[] args) {
        List<String> impls = List.of("pcode", "tcp");
        int[] sizes = {20, 256, 1024, 8192};
        int rounds = 1000;
        String label = "";
        boolean dumpCounters = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--impls" -> impls = List.of(args[++i].split(","));
                case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--label" -> label = label + " " + args[++i];
                case "--counters" -> dumpCounters = true;
                default -> {
                    System.err.println("unknown argument '" + args[i] + "'; see the class javadoc for the usage");
                    System.exit(2);
                }
            }
        }
        try (Communicator world = Cohort.init()) {
            BroadcastDomain domain = impls.contains("pcode") ? world.broadcastDomain() : null;
            for (int size : sizes) {
                for (String impl : impls) {
                    world.barrier();
                    long[] counters = new long[2];
                    Histogram h = switch (impl) {
                        case "pcode" -> pcode(domain, size, rounds, counters);
                        case "tcp" -> p2p(world, size, rounds);
                        default -> throw new IllegalArgumentException("unknown implementation '" + impl + "'");
                    };
                    report(world, impl, size, rounds, h, counters, label);
                    if (dumpCounters && domain != null && impl.equals("pcode")) {
                        System.err.println("alltoall-counters rank=" + world.rank() + " size=" + size + " " + domain.counters());
                    }
                }
            }
        }
    }

    private static Histogram pcode(BroadcastDomain d, int size, int rounds, long[] counters) {
        int n = d.size();
        int me = d.rank();
        int[][] targetsOf = new int[n][];
        for (int q = 0; q < n; q++) {
            targetsOf[q] = AllToAllBroadcastBenchmark.allBut(n, q);
        }
        Histogram h = histogram();
        int warmup = warmup(rounds);
        for (int round = 0; round < warmup + rounds; round++) {
            if (round == warmup) {
                counters[0] = -d.counters().nacksSent();
                counters[1] = -d.counters().get(DomainCounters.Counter.RETRANSMISSIONS);
            }
            long start = System.nanoTime();
            d.multicast(AllToAllBroadcastBenchmark.content(me, round, size), targetsOf[me]);
            for (int q = 0; q < n; q++) {
                if (q != me) {
                    AllToAllBroadcastBenchmark.check(d.request(q, targetsOf[q]), q, round, size);
                }
            }
            if (round >= warmup) {
                h.recordValue(Math.max(1, (System.nanoTime() - start) / n));
            }
        }
        counters[0] += d.counters().nacksSent();
        counters[1] += d.counters().get(DomainCounters.Counter.RETRANSMISSIONS);
        return h;
    }

    private static Histogram p2p(Communicator world, int size, int rounds) {
        int n = world.size();
        int me = world.rank();
        Histogram h = histogram();
        int warmup = warmup(rounds);
        for (int round = 0; round < warmup + rounds; round++) {
            long start = System.nanoTime();
            byte[] m = AllToAllBroadcastBenchmark.content(me, round, size);
            for (int q = 0; q < n; q++) {
                if (q != me) {
                    world.send(q, TAG, m);
                }
            }
            for (int q = 0; q < n; q++) {
                if (q != me) {
                    AllToAllBroadcastBenchmark.check(world.recv(q, TAG).bytes(), q, round, size);
                }
            }
            if (round >= warmup) {
                h.recordValue(Math.max(1, (System.nanoTime() - start) / n));
            }
        }
        return h;
    }

    /** As many unrecorded rounds as recorded ones (at least 500): the JIT must have compiled both paths. */
    private static int warmup(int rounds) {
        return Math.max(500, rounds);
    }

    private static Histogram histogram() {
        return new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    }

    /** Rank 0 merges every peer's histogram and counters and prints the line. */
    private static void report(Communicator world, String impl, int size, int rounds, Histogram mine, long[] counters,
                               String label) {
        ByteBuffer b = ByteBuffer.allocate(16 + mine.getNeededByteBufferCapacity());
        b.putLong(counters[0]).putLong(counters[1]);
        mine.encodeIntoCompressedByteBuffer(b);
        b.flip();
        if (world.rank() != 0) {
            world.send(0, TAG_RESULT, b);
            return;
        }
        Histogram all = mine.copy();
        long nacks = counters[0];
        long resent = counters[1];
        List<byte[]> theirs = new ArrayList<>();
        for (int q = 1; q < world.size(); q++) {
            theirs.add(world.recv(q, TAG_RESULT).bytes());
        }
        for (byte[] t : theirs) {
            ByteBuffer in = ByteBuffer.wrap(t);
            nacks += in.getLong();
            resent += in.getLong();
            try {
                all.add(Histogram.decodeFromCompressedByteBuffer(in, 0));
            } catch (java.util.zip.DataFormatException e) {
                throw new IllegalStateException("a peer's histogram did not decode: " + e.getMessage(), e);
            }
        }
        int n = world.size();
        double calls = (double) rounds * n * n / 1000.0;
        String counts = impl.equals("pcode")
                ? String.format(Locale.ROOT, " nacks_per_1000=%.1f retx_per_1000=%.1f", nacks / calls, resent / calls) : "";
        System.out.printf(Locale.ROOT, "alltoall impl=%s n=%d size=%d rounds=%d median_us=%.2f p99_us=%.2f samples=%d%s%s%n",
                impl, n, size, rounds, all.getValueAtPercentile(50) / 1000.0, all.getValueAtPercentile(99) / 1000.0,
                all.getTotalCount(), counts, label);
        System.out.flush();
    }
}

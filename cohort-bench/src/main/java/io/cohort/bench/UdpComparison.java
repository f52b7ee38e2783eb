package io.cohort.bench;

import io.cohort.LocalCohort;
import io.cohort.transport.Transport;
import io.cohort.transport.udp.UdpSettings;
import io.cohort.transport.udp.UdpTransport;
import io.cohort.wireup.LocalJob;
import org.HdrHistogram.Histogram;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import static io.cohort.bench.PingPongBenchmark.HIST_MAX_NANOS;
import static io.cohort.bench.PingPongBenchmark.STREAM_PASSES;
import static io.cohort.bench.PingPongBenchmark.STREAM_SIZES;
import static io.cohort.bench.PingPongBenchmark.fmt;
import static io.cohort.bench.PingPongBenchmark.halfMicros;
import static io.cohort.bench.PingPongBenchmark.human;
import static io.cohort.bench.PingPongBenchmark.log;
import static io.cohort.bench.PingPongBenchmark.median;

/**
 * {@code PingPongBenchmark --udp}: Cohort over the udp transport beside Cohort over tcp in the same
 * run, and udp under 1% and 5% injected loss (the fault layer on both peers' receive side, so acks
 * are lost too). Two peers as threads on loopback, idle strategy backoff, direct ByteBuffers; the
 * same ping-pong and streaming passes as the tcp benchmark, blocks of the four variants interleaved
 * with the order rotated per repetition. Besides latency and throughput it reports retransmissions
 * per 1000 messages (frames sent again, from the sender's {@code UdpCounters}). Not a test: it
 * asserts nothing about speed.
 *
 * <p>On loopback the udp datagram size defaults to the interface's MTU (65507 B); {@code
 * --udp-datagram 1472} makes every datagram Ethernet-sized, as between hosts.
 */
final class UdpComparison {
    enum Variant {
        TCP("cohort tcp", "tcp", "none"),
        UDP("cohort udp", "udp", "none"),
        UDP_LOSS1("cohort udp, 1% loss", "udp", "loss=0.01,seed=101"),
        UDP_LOSS5("cohort udp, 5% loss", "udp", "loss=0.05,seed=105");

        final String label;
        final String transport;
        final String fault;

        Variant(String label, String transport, String fault) {
            this.label = label;
            this.transport = transport;
            this.fault = fault;
        }
    }

    /** Retransmissions and messages of one variant at one size, over all its blocks. */
    private static final class Retx {
        long frames;
        long messages;

        double perThousand() {
            return messages == 0 ? 0 : 1000.0 * frames / messages;
        }
    }

    private final PingPongBenchmark base;
    private final String datagram;
    private final UdpSettings settings;

    UdpComparison(PingPongBenchmark base, String datagram) {
        this.base = base;
        this.datagram = datagram;
        this.settings = UdpSettings.fromSystemProperties().with(UdpSettings.DATAGRAM_BYTES_PROP_NAME, datagram);
    }

    /** The run method of a 2-peer in-JVM job of {@code v}, which tells {@code capture} its transports. */
    private Consumer<LocalCohort.PeerBody> cohort(Variant v, Transport[][] capture) {
        return LocalJob.builder().size(2).transport(v.transport).idle("backoff").fault(v.fault)
                .udpSettings(settings).onStart(t -> capture[0] = t)::run;
    }

    private static long retransmissions(Transport[] transports) {
        long n = 0;
        for (Transport t : transports) {
            if (t instanceof UdpTransport u) {
                n += u.counters().retransmissions();
            }
        }
        return n;
    }

    String run() {
        Variant[] variants = Variant.values();
        int[] sizes = base.sizes;
        Map<Variant, Histogram[]> hist = new EnumMap<>(Variant.class);
        Map<Variant, Retx[]> pingRetx = new EnumMap<>(Variant.class);
        for (Variant v : variants) {
            hist.put(v, new Histogram[sizes.length]);
            pingRetx.put(v, new Retx[sizes.length]);
            for (int s = 0; s < sizes.length; s++) {
                hist.get(v)[s] = new Histogram(HIST_MAX_NANOS, 3);
                pingRetx.get(v)[s] = new Retx();
            }
        }
        Transport[][] capture = new Transport[1][];
        log("JIT warm-up round (not recorded)");
        for (int size : sizes) {
            for (Variant v : variants) {
                PingPongBenchmark.cohortPingPong(cohort(v, capture), true, size, 0,
                        Math.max(20, base.iterations(size) / 5), new Histogram(HIST_MAX_NANOS, 3));
            }
        }
        log("udp ping-pong: %d repetitions x %d sizes x %d variants%s", base.reps, sizes.length, variants.length,
                base.quick ? " (quick)" : "");
        for (int r = 0; r < base.reps; r++) {
            for (int s = 0; s < sizes.length; s++) {
                int size = sizes[s];
                for (int k = 0; k < variants.length; k++) {
                    Variant v = variants[(k + r) % variants.length];
                    Histogram block = new Histogram(HIST_MAX_NANOS, 3);
                    int warmup = base.warmup(size);
                    int iterations = base.iterations(size);
                    PingPongBenchmark.cohortPingPong(cohort(v, capture), true, size, warmup, iterations, block);
                    hist.get(v)[s].add(block);
                    Retx x = pingRetx.get(v)[s];
                    long frames = retransmissions(capture[0]);
                    x.frames += frames;
                    x.messages += 2L * (warmup + iterations);
                    log("rep %d  %-22s %8s  median half-RTT %9.2f us  p99 %9.2f us  retransmitted %d", r + 1, v.label,
                            human(size), halfMicros(block, 50), halfMicros(block, 99), frames);
                }
            }
        }
        Map<Variant, List<Double>[]> bw = new EnumMap<>(Variant.class);
        Map<Variant, Retx[]> streamRetx = new EnumMap<>(Variant.class);
        for (Variant v : variants) {
            @SuppressWarnings("unchecked")
            List<Double>[] l = new List[STREAM_SIZES.length];
            Retx[] x = new Retx[STREAM_SIZES.length];
            for (int s = 0; s < l.length; s++) {
                l[s] = new ArrayList<>();
                x[s] = new Retx();
            }
            bw.put(v, l);
            streamRetx.put(v, x);
        }
        int streamReps = !base.streaming ? 0 : base.quick ? 1 : Math.max(3, base.reps);
        log("udp streaming: %d repetitions x %d passes", streamReps, STREAM_PASSES);
        for (int r = 0; r < streamReps; r++) {
            for (int s = 0; s < STREAM_SIZES.length; s++) {
                int size = STREAM_SIZES[s];
                int count = base.streamCount(size);
                for (int k = 0; k < variants.length; k++) {
                    Variant v = variants[(k + r) % variants.length];
                    double[] mibs = new double[STREAM_PASSES];
                    PingPongBenchmark.cohortStream(cohort(v, capture), true, size, count, STREAM_PASSES, mibs);
                    for (double m : mibs) {
                        bw.get(v)[s].add(m);
                    }
                    Retx x = streamRetx.get(v)[s];
                    long frames = retransmissions(capture[0]);
                    x.frames += frames;
                    x.messages += (long) (STREAM_PASSES + 1) * (count + 1);
                    log("rep %d  %-22s %8s  stream %s MiB/s  retransmitted %d", r + 1, v.label, human(size),
                            Arrays.toString(Arrays.stream(mibs).mapToLong(Math::round).toArray()), frames);
                }
            }
        }
        return report(hist, pingRetx, bw, streamRetx, streamReps);
    }

    private String report(Map<Variant, Histogram[]> hist, Map<Variant, Retx[]> pingRetx, Map<Variant, List<Double>[]> bw,
                          Map<Variant, Retx[]> streamRetx, int streamReps) {
        int[] sizes = base.sizes;
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Run %s; %s; %d cores; %s%s; %d repetitions per size, blocks interleaved;"
                        + " udp datagrams: %s (%s).%n%n", LocalDateTime.now().withNano(0),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), PingPongBenchmark.cpuModel(),
                base.quick ? "; QUICK SMOKE RUN (numbers not meaningful)" : "", base.reps, datagram,
                datagram.equals("auto") ? "the loopback MTU: 65507 B" : "every datagram at most this"));
        b.append("Ping-pong, Cohort over tcp and udp (backoff, direct ByteBuffer): half round trip in µs;"
                + " ratio = median / tcp median; retx = frames retransmitted per 1000 messages\n\n");
        b.append("| size | tcp median | p99 |");
        for (Variant v : Variant.values()) {
            if (v != Variant.TCP) {
                b.append(' ').append(v.label).append(" median | p99 | ratio | retx |");
            }
        }
        b.append(" n |\n|---:|---:|---:|").append("---:|---:|---:|---:|".repeat(Variant.values().length - 1)).append("---:|\n");
        for (int s = 0; s < sizes.length; s++) {
            Histogram tcp = hist.get(Variant.TCP)[s];
            double tm = halfMicros(tcp, 50);
            b.append("| ").append(human(sizes[s])).append(" | ").append(fmt(tm)).append(" | ")
                    .append(fmt(halfMicros(tcp, 99))).append(" |");
            for (Variant v : Variant.values()) {
                if (v == Variant.TCP) {
                    continue;
                }
                Histogram h = hist.get(v)[s];
                b.append(String.format(Locale.ROOT, " %s | %s | %.2f | %.1f |", fmt(halfMicros(h, 50)),
                        fmt(halfMicros(h, 99)), halfMicros(h, 50) / tm, pingRetx.get(v)[s].perThousand()));
            }
            b.append(' ').append(tcp.getTotalCount()).append(" |\n");
        }
        b.append('\n');
        if (streamReps == 0) {
            return b.toString();
        }
        b.append(String.format(Locale.ROOT, "Streaming throughput in MiB/s: K messages back to back, then a 1-byte ack;"
                + " median of %d (%d repetitions x %d passes); ratio = udp / tcp; retx per 1000 messages%n%n",
                streamReps * STREAM_PASSES, streamReps, STREAM_PASSES));
        b.append("| size | K | tcp MiB/s |");
        for (Variant v : Variant.values()) {
            if (v != Variant.TCP) {
                b.append(' ').append(v.label).append(" MiB/s | ratio | retx |");
            }
        }
        b.append("\n|---:|---:|---:|").append("---:|---:|---:|".repeat(Variant.values().length - 1)).append('\n');
        for (int s = 0; s < STREAM_SIZES.length; s++) {
            double tcp = median(bw.get(Variant.TCP)[s]);
            b.append("| ").append(human(STREAM_SIZES[s])).append(" | ").append(base.streamCount(STREAM_SIZES[s]))
                    .append(" | ").append(fmt(tcp)).append(" |");
            for (Variant v : Variant.values()) {
                if (v == Variant.TCP) {
                    continue;
                }
                double m = median(bw.get(v)[s]);
                b.append(String.format(Locale.ROOT, " %s | %.2f | %.1f |", fmt(m), m / tcp,
                        streamRetx.get(v)[s].perThousand()));
            }
            b.append('\n');
        }
        return b.toString();
    }
}

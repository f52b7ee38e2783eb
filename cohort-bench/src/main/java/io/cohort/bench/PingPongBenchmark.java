package io.cohort.bench;

import io.cohort.Communicator;
import io.cohort.LocalCohort;
import io.cohort.Request;
import io.cohort.Status;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Point-to-point benchmark over loopback TCP: Cohort's TCP transport against a raw Java NIO
 * baseline, in the same JVM run. This is a benchmark program, not a test: it asserts nothing about
 * timing, it only measures and prints.
 *
 * <h2>What is measured</h2>
 * <ul>
 *   <li><b>Ping-pong latency.</b> Rank 0 sends {@code size} bytes, rank 1 receives them and sends
 *       {@code size} bytes back; every round trip is timed with {@link System#nanoTime()} into an
 *       HdrHistogram, after warm-up. Reported: half round trip (median, p99) in µs, and
 *       "ping-pong bandwidth" = size / median half round trip.</li>
 *   <li><b>Streaming bandwidth</b> (1 MiB, 4 MiB): rank 0 sends K messages back to back, rank 1
 *       receives them and answers with a 1-byte ack; bandwidth = K * size / elapsed. Median of
 *       several repetitions.</li>
 * </ul>
 *
 * <h2>Implementations</h2>
 * <ul>
 *   <li><b>raw</b>: two threads, a loopback {@link SocketChannel} pair in blocking mode with
 *       TCP_NODELAY, direct buffers, a 4-byte length prefix per message (gathering write of prefix
 *       and payload, scattering read): the least any message layer must do.</li>
 *   <li><b>cohort</b>: {@code LocalCohort} with 2 peers over the TCP transport, idle strategy
 *       "backoff" (the default) or "busy-spin"; either direct ByteBuffers
 *       ({@code send/recv(int, int, ByteBuffer)}) or byte arrays ({@code send/recv(int, int, byte[])}).</li>
 * </ul>
 * Each measurement block opens a fresh connection (raw) or a fresh 2-peer cohort; blocks of all
 * implementations are interleaved per size and per repetition, with the order rotated each
 * repetition, so that machine noise hits every implementation alike. The histograms of all
 * repetitions are merged.
 *
 * <p>Usage: {@code PingPongBenchmark [--quick] [--out FILE] [--reps N]}. With {@code --udp} it runs
 * {@link UdpComparison} instead: Cohort over tcp beside udp, clean and under injected loss.
 */
public final class PingPongBenchmark {
    static final int[] SIZES = {8, 64, 512, 4 << 10, 32 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20};
    static final int[] STREAM_SIZES = {1 << 20, 4 << 20};
    static final int TAG = 7;
    static final int ACK_TAG = 8;
    static final long HIST_MAX_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** A ping-pong implementation under test. */
    enum Impl {
        RAW("raw NIO", null, false),
        /** Reference only: the same framing on a non-blocking channel that spins on read/write. */
        RAW_SPIN("raw NIO busy-poll", null, false),
        BACKOFF_BB("cohort backoff ByteBuffer", "backoff", true),
        SPIN_BB("cohort busy-spin ByteBuffer", "busy-spin", true),
        BACKOFF_ARR("cohort backoff byte[]", "backoff", false),
        SPIN_ARR("cohort busy-spin byte[]", "busy-spin", false);

        final String label;
        final String idle;
        final boolean direct;

        Impl(String label, String idle, boolean direct) {
            this.label = label;
            this.idle = idle;
            this.direct = direct;
        }
    }

    final boolean quick;
    final int reps;
    /** Ping-pong sizes of this run (all of {@link #SIZES} unless --sizes picks some, for profiling). */
    final int[] sizes;
    final boolean streaming;

    /** For profiling: run only these implementations' ping-pong blocks, print no tables. */
    private final Impl[] only;

    private PingPongBenchmark(boolean quick, int reps, int[] sizes, boolean streaming, Impl[] only) {
        this.only = only;
        this.quick = quick;
        this.reps = reps;
        this.sizes = sizes;
        this.streaming = streaming;
    }

    public static void main(String[] args) throws Exception {
        boolean quick = false;
        Path out = null;
        int reps = -1;
        int[] sizes = SIZES;
        boolean stream = true;
        Impl[] only = null;
        boolean udp = false;
        String udpDatagram = "auto";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--out" -> out = Path.of(args[++i]);
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--no-stream" -> stream = false;
                case "--latency-only" -> only = Arrays.stream(args[++i].split(",")).map(Impl::valueOf).toArray(Impl[]::new);
                case "--udp" -> udp = true;
                case "--udp-datagram" -> udpDatagram = args[++i];
                case "-h", "--help" -> {
                    System.out.println("usage: PingPongBenchmark [--quick] [--out FILE] [--reps N]"
                            + " [--sizes 8,65536,...] [--no-stream] [--latency-only RAW,SPIN_BB,...]"
                            + " [--udp [--udp-datagram auto|BYTES]]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (reps < 1) {
            reps = quick ? 1 : 6;
        }
        long t0 = System.nanoTime();
        String md = udp
                ? new UdpComparison(new PingPongBenchmark(quick, reps, sizes, stream, null), udpDatagram).run()
                : new PingPongBenchmark(quick, reps, sizes, stream, only).run();
        double secs = (System.nanoTime() - t0) / 1e9;
        md += String.format(Locale.ROOT, "%nTotal benchmark time: %.0f s.%n", secs);
        System.out.println();
        System.out.print(md);
        if (out != null) {
            if (out.toAbsolutePath().getParent() != null) {
                Files.createDirectories(out.toAbsolutePath().getParent());
            }
            Files.writeString(out, md, StandardCharsets.UTF_8);
            System.out.println();
            System.out.println("Markdown written to " + out.toAbsolutePath());
        }
    }

    // ---- iteration counts ----------------------------------------------------------------------

    /** Measured round trips per block (one block = one implementation, one size, one repetition). */
    int iterations(int size) {
        int n;
        if (size <= 4096) {
            n = 20_000;
        } else if (size <= 65536) {
            n = 10_000;
        } else if (size <= 262144) {
            n = 2_500;
        } else if (size <= 1 << 20) {
            n = 600;
        } else {
            n = 150;
        }
        return quick ? Math.max(10, n / 100) : n;
    }

    int warmup(int size) {
        return Math.max(quick ? 5 : 20, iterations(size) / 4);
    }

    /** Messages per streaming pass: 64 MiB in total (8 MiB for --quick). */
    int streamCount(int size) {
        return Math.max(2, (quick ? 8 << 20 : 64 << 20) / size);
    }

    static final int STREAM_PASSES = 3;

    // ---- driver --------------------------------------------------------------------------------

    String run() {
        Impl[] impls = only != null ? only : Impl.values();
        Map<Impl, Histogram[]> hist = new EnumMap<>(Impl.class);
        for (Impl impl : impls) {
            Histogram[] h = new Histogram[sizes.length];
            for (int s = 0; s < sizes.length; s++) {
                h[s] = new Histogram(HIST_MAX_NANOS, 3);
            }
            hist.put(impl, h);
        }
        // JIT warm-up of every code path before anything is recorded: without it the first blocks run
        // interpreted code, which makes backoff fall through to its blocking phase and pollutes p99.
        log("JIT warm-up round (not recorded)");
        for (int size : sizes) {
            for (Impl impl : impls) {
                pingPong(impl, size, 0, Math.max(20, iterations(size) / 5), new Histogram(HIST_MAX_NANOS, 3));
            }
        }
        log("ping-pong: %d repetitions x %d sizes x %d implementations%s", reps, sizes.length, impls.length,
                quick ? " (quick)" : "");
        for (int r = 0; r < reps; r++) {
            for (int s = 0; s < sizes.length; s++) {
                int size = sizes[s];
                for (int k = 0; k < impls.length; k++) {
                    Impl impl = impls[(k + r) % impls.length]; // rotate the order every repetition
                    Histogram block = new Histogram(HIST_MAX_NANOS, 3);
                    pingPong(impl, size, warmup(size), iterations(size), block);
                    hist.get(impl)[s].add(block);
                    log("rep %d  %-28s %8s  median half-RTT %9.2f us  p99 %9.2f us", r + 1, impl.label, human(size),
                            halfMicros(block, 50), halfMicros(block, 99));
                }
            }
        }

        if (only != null) {
            return "(--latency-only run: see the per-block lines on stderr)\n";
        }
        Impl[] streamImpls = {Impl.RAW, Impl.BACKOFF_BB, Impl.SPIN_BB, Impl.BACKOFF_ARR, Impl.RAW_SPIN};
        Map<Impl, List<Double>[]> bw = new EnumMap<>(Impl.class);
        for (Impl impl : streamImpls) {
            @SuppressWarnings("unchecked")
            List<Double>[] l = new List[STREAM_SIZES.length];
            for (int s = 0; s < l.length; s++) {
                l[s] = new ArrayList<>();
            }
            bw.put(impl, l);
        }
        int streamReps = !streaming ? 0 : quick ? 1 : Math.max(3, reps);
        log("streaming: %d repetitions x %d passes", streamReps, STREAM_PASSES);
        for (int r = 0; r < streamReps; r++) {
            for (int s = 0; s < STREAM_SIZES.length; s++) {
                int size = STREAM_SIZES[s];
                for (int k = 0; k < streamImpls.length; k++) {
                    Impl impl = streamImpls[(k + r) % streamImpls.length];
                    double[] mibs = stream(impl, size, streamCount(size), STREAM_PASSES);
                    for (double v : mibs) {
                        bw.get(impl)[s].add(v);
                    }
                    log("rep %d  %-28s %8s  stream %s MiB/s", r + 1, impl.label, human(size), Arrays.toString(
                            Arrays.stream(mibs).mapToLong(Math::round).toArray()));
                }
            }
        }
        return report(hist, bw, streamImpls, streamReps);
    }

    // ---- report --------------------------------------------------------------------------------

    String report(Map<Impl, Histogram[]> hist, Map<Impl, List<Double>[]> bw, Impl[] streamImpls, int streamReps) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Run %s; %s; %d cores; %s%s; %d repetitions per size, blocks interleaved.%n%n",
                LocalDateTime.now().withNano(0), System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), cpuModel(), quick ? "; QUICK SMOKE RUN (numbers not meaningful)" : "",
                reps));
        latencyTable(b, "Ping-pong, direct ByteBuffer: half round trip in µs (ratio = cohort median / raw median)",
                hist, Impl.BACKOFF_BB, Impl.SPIN_BB);
        latencyTable(b, "Ping-pong, byte[]: half round trip in µs (ratio = cohort median / raw median)",
                hist, Impl.BACKOFF_ARR, Impl.SPIN_ARR);

        b.append("Reference: raw NIO busy-poll (non-blocking channel spinning on read/write, same framing);"
                + " ratio = cohort median / raw busy-poll median\n\n");
        b.append("| size | raw busy-poll median µs | p99 | cohort busy-spin ByteBuffer median | ratio"
                + " | cohort backoff ByteBuffer median | ratio |\n|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int s = 0; s < sizes.length; s++) {
            double rs = halfMicros(hist.get(Impl.RAW_SPIN)[s], 50);
            double sp = halfMicros(hist.get(Impl.SPIN_BB)[s], 50);
            double bo = halfMicros(hist.get(Impl.BACKOFF_BB)[s], 50);
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.2f | %s | %.2f |%n", human(sizes[s]), fmt(rs),
                    fmt(halfMicros(hist.get(Impl.RAW_SPIN)[s], 99)), fmt(sp), sp / rs, fmt(bo), bo / rs));
        }
        b.append('\n');

        b.append("Ping-pong bandwidth in MiB/s (size / median half round trip)\n\n");
        b.append("| size |");
        for (Impl impl : Impl.values()) {
            b.append(' ').append(impl.label).append(" |");
        }
        b.append("\n|---:|");
        b.append("---:|".repeat(Impl.values().length)).append('\n');
        for (int s = 0; s < sizes.length; s++) {
            b.append("| ").append(human(sizes[s])).append(" |");
            for (Impl impl : Impl.values()) {
                double half = halfMicros(hist.get(impl)[s], 50);
                b.append(' ').append(fmt(sizes[s] / (half * 1e-6) / (1 << 20))).append(" |");
            }
            b.append('\n');
        }
        b.append('\n');
        if (streamReps == 0) {
            return b.toString();
        }

        b.append(String.format(Locale.ROOT, "Streaming bandwidth in MiB/s: K messages back to back, then a 1-byte ack;"
                + " K * size / elapsed; median of %d (%d repetitions x %d passes); ratio = cohort / raw%n%n",
                streamReps * STREAM_PASSES, streamReps, STREAM_PASSES));
        b.append("| size | K | raw MiB/s |");
        for (int i = 1; i < streamImpls.length; i++) {
            b.append(' ').append(streamImpls[i].label).append(" MiB/s | ratio |");
        }
        b.append("\n|---:|---:|---:|").append("---:|---:|".repeat(streamImpls.length - 1)).append('\n');
        for (int s = 0; s < STREAM_SIZES.length; s++) {
            double raw = median(bw.get(Impl.RAW)[s]);
            b.append("| ").append(human(STREAM_SIZES[s])).append(" | ").append(streamCount(STREAM_SIZES[s]))
                    .append(" | ").append(fmt(raw)).append(" |");
            for (int i = 1; i < streamImpls.length; i++) {
                double v = median(bw.get(streamImpls[i])[s]);
                b.append(' ').append(fmt(v)).append(" | ").append(String.format(Locale.ROOT, "%.2f", v / raw)).append(" |");
            }
            b.append('\n');
        }
        return b.toString();
    }

    private void latencyTable(StringBuilder b, String title, Map<Impl, Histogram[]> hist, Impl backoff, Impl spin) {
        b.append(title).append("\n\n");
        b.append("| size | raw median µs | raw p99 | cohort (backoff) median | p99 | ratio"
                + " | cohort (busy-spin) median | p99 | ratio | n |\n");
        b.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int s = 0; s < sizes.length; s++) {
            Histogram raw = hist.get(Impl.RAW)[s];
            Histogram bo = hist.get(backoff)[s];
            Histogram sp = hist.get(spin)[s];
            double rm = halfMicros(raw, 50);
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.2f | %s | %s | %.2f | %d |%n",
                    human(sizes[s]), fmt(rm), fmt(halfMicros(raw, 99)),
                    fmt(halfMicros(bo, 50)), fmt(halfMicros(bo, 99)), halfMicros(bo, 50) / rm,
                    fmt(halfMicros(sp, 50)), fmt(halfMicros(sp, 99)), halfMicros(sp, 50) / rm,
                    raw.getTotalCount()));
        }
        b.append('\n');
    }

    static double halfMicros(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 2.0 / 1000.0;
    }

    static String fmt(double v) {
        if (v >= 1000) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String human(int size) {
        if (size >= 1 << 20) {
            return (size >> 20) + " MiB";
        }
        if (size >= 1 << 10) {
            return (size >> 10) + " KiB";
        }
        return size + " B";
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux: leave the model out
        }
        return System.getProperty("os.arch");
    }

    static void log(String format, Object... args) {
        System.err.println(String.format(Locale.ROOT, format, args));
    }

    // ---- ping-pong -----------------------------------------------------------------------------

    void pingPong(Impl impl, int size, int warmup, int iterations, Histogram into) {
        if (impl == Impl.RAW || impl == Impl.RAW_SPIN) {
            rawPingPong(size, warmup, iterations, into, impl == Impl.RAW_SPIN);
        } else {
            cohortPingPong(impl, size, warmup, iterations, into);
        }
    }

    static void cohortPingPong(Impl impl, int size, int warmup, int iterations, Histogram into) {
        cohortPingPong(LocalCohort.builder().size(2).transport("tcp").idle(impl.idle)::run, impl.direct, size, warmup,
                iterations, into);
    }

    /** A ping-pong block on a 2-peer cohort built by the caller (transport, idle strategy, faults): its run method. */
    static void cohortPingPong(Consumer<LocalCohort.PeerBody> cohort, boolean direct, int size, int warmup, int iterations,
                               Histogram into) {
        int total = warmup + iterations;
        cohort.accept(world -> {
            int me = world.rank();
            int other = 1 - me;
            if (direct) {
                ByteBuffer out = ByteBuffer.allocateDirect(size);
                ByteBuffer in = ByteBuffer.allocateDirect(size);
                fill(out, me);
                world.barrier();
                for (int i = 0; i < total; i++) {
                    if (me == 0) {
                        long t = System.nanoTime();
                        out.clear();
                        world.send(other, TAG, out);
                        in.clear();
                        Status st = world.recv(other, TAG, in);
                        long rtt = System.nanoTime() - t;
                        if (i >= warmup) {
                            into.recordValue(rtt);
                        }
                        check(st, size);
                    } else {
                        in.clear();
                        check(world.recv(other, TAG, in), size);
                        out.clear();
                        world.send(other, TAG, out);
                    }
                }
            } else {
                byte[] out = new byte[size];
                byte[] in = new byte[size];
                Arrays.fill(out, (byte) me);
                world.barrier();
                for (int i = 0; i < total; i++) {
                    if (me == 0) {
                        long t = System.nanoTime();
                        world.send(other, TAG, out);
                        Status st = world.recv(other, TAG, in);
                        long rtt = System.nanoTime() - t;
                        if (i >= warmup) {
                            into.recordValue(rtt);
                        }
                        check(st, size);
                    } else {
                        check(world.recv(other, TAG, in), size);
                        world.send(other, TAG, out);
                    }
                }
            }
        });
    }

    static void check(Status st, int size) {
        if (st.length() != size) {
            throw new IllegalStateException("received " + st.length() + " bytes, expected " + size);
        }
    }

    static void fill(ByteBuffer b, int value) {
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) value);
        }
    }

    /** A connected loopback pair, TCP_NODELAY; blocking unless asked (then the ends spin on 0-byte reads/writes). */
    static SocketChannel[] rawPair(boolean nonBlocking) throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel a = SocketChannel.open(server.getLocalAddress());
            SocketChannel b = server.accept();
            for (SocketChannel c : new SocketChannel[] {a, b}) {
                c.configureBlocking(!nonBlocking);
                c.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
            return new SocketChannel[] {a, b};
        }
    }

    /** One end of the raw baseline: 4-byte length prefix + payload, gathering write, scattering read. */
    static final class RawEnd {
        final SocketChannel ch;
        final ByteBuffer outLen = ByteBuffer.allocateDirect(4).order(ByteOrder.LITTLE_ENDIAN);
        final ByteBuffer inLen = ByteBuffer.allocateDirect(4).order(ByteOrder.LITTLE_ENDIAN);
        final ByteBuffer out;
        final ByteBuffer in;
        final ByteBuffer[] outv;
        final ByteBuffer[] inv;

        RawEnd(SocketChannel ch, int size, int value) {
            this.ch = ch;
            this.out = ByteBuffer.allocateDirect(size);
            this.in = ByteBuffer.allocateDirect(size);
            fill(out, value);
            this.outv = new ByteBuffer[] {outLen, out};
            this.inv = new ByteBuffer[] {inLen, in};
        }

        void send(int length) throws IOException {
            outLen.clear();
            outLen.putInt(0, length);
            out.clear().limit(length);
            while (out.hasRemaining() || outLen.hasRemaining()) {
                if (ch.write(outv) == 0) {
                    Thread.onSpinWait();
                }
            }
        }

        /** Receives one message whose length the receiver expects (its buffer size); verifies the prefix. */
        void recv(int expected) throws IOException {
            inLen.clear();
            in.clear().limit(expected);
            while (in.hasRemaining() || inLen.hasRemaining()) {
                long n = ch.read(inv);
                if (n < 0) {
                    throw new IOException("peer closed");
                }
                if (n == 0) {
                    Thread.onSpinWait();
                }
            }
            int length = inLen.getInt(0);
            if (length != expected) {
                throw new IllegalStateException("received a " + length + "-byte message, expected " + expected);
            }
        }
    }

    static void rawPingPong(int size, int warmup, int iterations, Histogram into, boolean spin) {
        int total = warmup + iterations;
        try {
            SocketChannel[] pair = rawPair(spin);
            try {
                RawEnd ping = new RawEnd(pair[0], size, 0);
                RawEnd pong = new RawEnd(pair[1], size, 1);
                Thread ponger = runAsync("raw-pong", () -> {
                    for (int i = 0; i < total; i++) {
                        pong.recv(size);
                        pong.send(size);
                    }
                });
                Thread pinger = runAsync("raw-ping", () -> {
                    for (int i = 0; i < total; i++) {
                        long t = System.nanoTime();
                        ping.send(size);
                        ping.recv(size);
                        long rtt = System.nanoTime() - t;
                        if (i >= warmup) {
                            into.recordValue(rtt);
                        }
                    }
                });
                joinAll(pinger, ponger);
            } finally {
                pair[0].close();
                pair[1].close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- streaming bandwidth -------------------------------------------------------------------

    /** One warm-up pass, then {@code passes} timed passes of {@code count} messages; MiB/s per pass. */
    double[] stream(Impl impl, int size, int count, int passes) {
        double[] mibs = new double[passes];
        if (impl == Impl.RAW || impl == Impl.RAW_SPIN) {
            rawStream(size, count, passes, mibs, impl == Impl.RAW_SPIN);
        } else {
            cohortStream(impl, size, count, passes, mibs);
        }
        return mibs;
    }

    static double mibPerSec(int size, int count, long nanos) {
        return (double) size * count / (1 << 20) / (nanos / 1e9);
    }

    static void rawStream(int size, int count, int passes, double[] mibs, boolean spin) {
        try {
            SocketChannel[] pair = rawPair(spin);
            try {
                RawEnd tx = new RawEnd(pair[0], size, 0);
                RawEnd rx = new RawEnd(pair[1], size, 1);
                Thread receiver = runAsync("raw-stream-rx", () -> {
                    for (int p = 0; p <= passes; p++) {
                        for (int i = 0; i < count; i++) {
                            rx.recv(size);
                        }
                        rx.send(1);
                    }
                });
                Thread sender = runAsync("raw-stream-tx", () -> {
                    for (int p = 0; p <= passes; p++) {
                        long t = System.nanoTime();
                        for (int i = 0; i < count; i++) {
                            tx.send(size);
                        }
                        tx.recv(1);
                        long dt = System.nanoTime() - t;
                        if (p > 0) {
                            mibs[p - 1] = mibPerSec(size, count, dt);
                        }
                    }
                });
                joinAll(sender, receiver);
            } finally {
                pair[0].close();
                pair[1].close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void cohortStream(Impl impl, int size, int count, int passes, double[] mibs) {
        cohortStream(LocalCohort.builder().size(2).transport("tcp").idle(impl.idle)::run, impl.direct, size, count, passes,
                mibs);
    }

    /** Streaming passes on a 2-peer cohort built by the caller: its run method. */
    static void cohortStream(Consumer<LocalCohort.PeerBody> cohort, boolean direct, int size, int count, int passes,
                             double[] mibs) {
        cohort.accept(world -> {
            int me = world.rank();
            int other = 1 - me;
            ByteBuffer outB = direct ? ByteBuffer.allocateDirect(size) : null;
            ByteBuffer inB = direct ? ByteBuffer.allocateDirect(size) : null;
            byte[] outA = direct ? null : new byte[size];
            byte[] inA = direct ? null : new byte[size];
            byte[] ack = new byte[1];
            Request[] pending = new Request[count];
            world.barrier();
            for (int p = 0; p <= passes; p++) {
                if (me == 0) {
                    long t = System.nanoTime();
                    for (int i = 0; i < count; i++) {
                        // The same buffer for every message: it is only read while the sends are pending.
                        pending[i] = direct ? world.isend(other, TAG, outB) : world.isend(other, TAG, outA);
                    }
                    Request.awaitAll(pending);
                    world.recv(other, ACK_TAG, ack);
                    long dt = System.nanoTime() - t;
                    if (p > 0) {
                        mibs[p - 1] = mibPerSec(size, count, dt);
                    }
                } else {
                    for (int i = 0; i < count; i++) {
                        if (direct) {
                            inB.clear();
                            check(world.recv(other, TAG, inB), size);
                        } else {
                            check(world.recv(other, TAG, inA), size);
                        }
                    }
                    world.send(other, ACK_TAG, ack);
                }
            }
        });
    }

    // ---- threads -------------------------------------------------------------------------------

    @FunctionalInterface
    interface IoBody {
        void run() throws Exception;
    }

    static final class Worker extends Thread {
        final IoBody body;
        volatile Throwable failure;

        Worker(String name, IoBody body) {
            super(name);
            this.body = body;
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                body.run();
            } catch (Throwable t) {
                failure = t;
            }
        }
    }

    static Thread runAsync(String name, IoBody body) {
        Worker w = new Worker(name, body);
        w.start();
        return w;
    }

    /** Waits for all; on the first failure throws at once (the caller closes the channels, freeing the rest). */
    static void joinAll(Thread... threads) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        for (;;) {
            boolean alive = false;
            for (Thread t : threads) {
                Throwable f = ((Worker) t).failure;
                if (f != null) {
                    throw new IllegalStateException(t.getName() + " failed: " + f, f);
                }
                alive |= t.isAlive();
            }
            if (!alive) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("raw benchmark threads did not finish within 5 minutes");
            }
            try {
                threads[0].join(50);
                if (!threads[0].isAlive() && threads.length > 1) {
                    threads[1].join(50);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }
}

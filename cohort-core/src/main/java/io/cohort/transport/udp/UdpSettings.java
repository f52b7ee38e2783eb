package io.cohort.transport.udp;

import io.cohort.CohortException;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Every setting of the {@code udp} transport in one place, validated at start-up with the bad value
 * in the message. Each is a system property ({@code --jvm-opt -Dcohort.udp.windowBytes=...} for a
 * launched job) with a documented default:
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #DATAGRAM_BYTES_PROP_NAME}</td><td>{@value #DATAGRAM_BYTES_DEFAULT}</td><td>largest datagram
 *       (UDP payload) per pair: {@code auto} = the smaller MTU of the two ends' interfaces minus the IP
 *       and UDP headers (1472 on 1500-byte Ethernet, 65507 on loopback), or a number from
 *       {@value #DATAGRAM_BYTES_MIN} to {@value #DATAGRAM_BYTES_MAX} for every pair</td></tr>
 *   <tr><td>{@value #WINDOW_BYTES_PROP_NAME}</td><td>1 MiB</td><td>bytes in flight per pair (the sliding
 *       window), at most a quarter of the socket's receive buffer; the window in frames is this / 256,
 *       8 to 4096, so streams of small messages keep many frames in flight</td></tr>
 *   <tr><td>{@value #SOCKET_BUFFER_BYTES_PROP_NAME}</td><td>4 MiB</td><td>kernel send and receive buffer
 *       asked for (capped by {@code net.core.rmem_max} / {@code wmem_max})</td></tr>
 *   <tr><td>{@value #OVERFLOW_LIMIT_BYTES_PROP_NAME}</td><td>64 MiB</td><td>bytes of small messages
 *       (up to 64 KiB) a peer copies and completes at once while they wait for the window; beyond it a
 *       send completes only when acknowledged, so a blocking sender waits through its idle strategy
 *       (back-pressure; nothing is dropped)</td></tr>
 *   <tr><td>{@value #RTO_MIN_MICROS_PROP_NAME}</td><td>{@value #RTO_MIN_MICROS_DEFAULT}</td><td>floor of the
 *       retransmission time-out, µs</td></tr>
 *   <tr><td>{@value #RTO_MAX_MILLIS_PROP_NAME}</td><td>{@value #RTO_MAX_MILLIS_DEFAULT}</td><td>ceiling of the
 *       retransmission time-out (after backoff), ms</td></tr>
 *   <tr><td>{@value #RTO_INITIAL_MILLIS_PROP_NAME}</td><td>{@value #RTO_INITIAL_MILLIS_DEFAULT}</td><td>time-out
 *       before the first round trip is measured, ms</td></tr>
 *   <tr><td>{@value #ACK_DELAY_MICROS_PROP_NAME}</td><td>{@value #ACK_DELAY_MICROS_DEFAULT}</td><td>how long an
 *       ack waits for data to ride on, µs</td></tr>
 *   <tr><td>{@value #INACTIVITY_TIMEOUT_MILLIS_PROP_NAME}</td><td>{@value #INACTIVITY_TIMEOUT_MILLIS_DEFAULT}</td>
 *       <td>a peer heard nothing from (not even a keepalive) for this long is reported failed, ms;
 *       idle pairs send keepalives every fifth of it (at most every second)</td></tr>
 *   <tr><td>{@value #POLLS_BEFORE_BLOCK_PROP_NAME}</td><td>{@value #POLLS_BEFORE_BLOCK_DEFAULT}</td><td>receive
 *       attempts before a waiting owner blocks in the selector (PSE's recvfrom loop)</td></tr>
 * </table>
 */
public final class UdpSettings {
    public static final String DATAGRAM_BYTES_PROP_NAME = "cohort.udp.datagramBytes";
    public static final String DATAGRAM_BYTES_DEFAULT = "auto";
    public static final int DATAGRAM_BYTES_MIN = 576;
    public static final int DATAGRAM_BYTES_MAX = 65_507;
    public static final String WINDOW_BYTES_PROP_NAME = "cohort.udp.windowBytes";
    public static final int WINDOW_BYTES_DEFAULT = 1 << 20;
    public static final String SOCKET_BUFFER_BYTES_PROP_NAME = "cohort.udp.socketBufferBytes";
    public static final int SOCKET_BUFFER_BYTES_DEFAULT = 4 << 20;
    public static final String OVERFLOW_LIMIT_BYTES_PROP_NAME = "cohort.udp.overflowLimitBytes";
    public static final long OVERFLOW_LIMIT_BYTES_DEFAULT = 64L << 20;
    public static final String RTO_MIN_MICROS_PROP_NAME = "cohort.udp.rtoMinMicros";
    public static final int RTO_MIN_MICROS_DEFAULT = 1000;
    public static final String RTO_MAX_MILLIS_PROP_NAME = "cohort.udp.rtoMaxMillis";
    public static final int RTO_MAX_MILLIS_DEFAULT = 1000;
    public static final String RTO_INITIAL_MILLIS_PROP_NAME = "cohort.udp.rtoInitialMillis";
    public static final int RTO_INITIAL_MILLIS_DEFAULT = 20;
    public static final String ACK_DELAY_MICROS_PROP_NAME = "cohort.udp.ackDelayMicros";
    public static final int ACK_DELAY_MICROS_DEFAULT = 200;
    public static final String INACTIVITY_TIMEOUT_MILLIS_PROP_NAME = "cohort.udp.inactivityTimeoutMillis";
    public static final int INACTIVITY_TIMEOUT_MILLIS_DEFAULT = 30_000;
    public static final String POLLS_BEFORE_BLOCK_PROP_NAME = "cohort.udp.pollsBeforeBlock";
    public static final int POLLS_BEFORE_BLOCK_DEFAULT = 16;

    /** Smallest and largest window in frames (the largest fits one ACK frame's SACK map). */
    public static final int WINDOW_FRAMES_MIN = 8;
    public static final int WINDOW_FRAMES_MAX = UdpFrameDescriptor.SACK_BITS + 8 * UdpFrameDescriptor.MAX_EXTRA;
    /** Messages up to this size are copied (and complete at once) while the overflow limit allows. */
    public static final int COPY_MAX_BYTES = 64 * 1024;

    private static final String[] NAMES = {DATAGRAM_BYTES_PROP_NAME, WINDOW_BYTES_PROP_NAME,
        SOCKET_BUFFER_BYTES_PROP_NAME, OVERFLOW_LIMIT_BYTES_PROP_NAME, RTO_MIN_MICROS_PROP_NAME,
        RTO_MAX_MILLIS_PROP_NAME, RTO_INITIAL_MILLIS_PROP_NAME, ACK_DELAY_MICROS_PROP_NAME,
        INACTIVITY_TIMEOUT_MILLIS_PROP_NAME, POLLS_BEFORE_BLOCK_PROP_NAME};

    private final Map<String, String> values;
    /** 0 = auto. */
    private final int datagramBytes;
    private final int windowBytes;
    private final int socketBufferBytes;
    private final long overflowLimitBytes;
    private final long rtoMinNanos;
    private final long rtoMaxNanos;
    private final long rtoInitialNanos;
    private final long ackDelayNanos;
    private final long inactivityTimeoutNanos;
    private final int pollsBeforeBlock;

    private UdpSettings(Map<String, String> values) {
        this.values = Map.copyOf(values);
        String d = get(DATAGRAM_BYTES_PROP_NAME, DATAGRAM_BYTES_DEFAULT);
        this.datagramBytes = d.equalsIgnoreCase("auto") ? 0
                : (int) number(DATAGRAM_BYTES_PROP_NAME, d, DATAGRAM_BYTES_MIN, DATAGRAM_BYTES_MAX, "auto or a size in bytes");
        this.windowBytes = (int) number(WINDOW_BYTES_PROP_NAME, get(WINDOW_BYTES_PROP_NAME, WINDOW_BYTES_DEFAULT),
                16 << 10, 256 << 20, "a size in bytes");
        this.socketBufferBytes = (int) number(SOCKET_BUFFER_BYTES_PROP_NAME,
                get(SOCKET_BUFFER_BYTES_PROP_NAME, SOCKET_BUFFER_BYTES_DEFAULT), 64 << 10, 1 << 30, "a size in bytes");
        this.overflowLimitBytes = number(OVERFLOW_LIMIT_BYTES_PROP_NAME,
                get(OVERFLOW_LIMIT_BYTES_PROP_NAME, OVERFLOW_LIMIT_BYTES_DEFAULT), 0, 1L << 40, "a size in bytes");
        this.rtoMinNanos = TimeUnit.MICROSECONDS.toNanos(number(RTO_MIN_MICROS_PROP_NAME,
                get(RTO_MIN_MICROS_PROP_NAME, RTO_MIN_MICROS_DEFAULT), 50, 10_000_000, "microseconds"));
        this.rtoMaxNanos = TimeUnit.MILLISECONDS.toNanos(number(RTO_MAX_MILLIS_PROP_NAME,
                get(RTO_MAX_MILLIS_PROP_NAME, RTO_MAX_MILLIS_DEFAULT), 1, 600_000, "milliseconds"));
        this.rtoInitialNanos = TimeUnit.MILLISECONDS.toNanos(number(RTO_INITIAL_MILLIS_PROP_NAME,
                get(RTO_INITIAL_MILLIS_PROP_NAME, RTO_INITIAL_MILLIS_DEFAULT), 1, 60_000, "milliseconds"));
        this.ackDelayNanos = TimeUnit.MICROSECONDS.toNanos(number(ACK_DELAY_MICROS_PROP_NAME,
                get(ACK_DELAY_MICROS_PROP_NAME, ACK_DELAY_MICROS_DEFAULT), 0, 1_000_000, "microseconds"));
        this.inactivityTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(number(INACTIVITY_TIMEOUT_MILLIS_PROP_NAME,
                get(INACTIVITY_TIMEOUT_MILLIS_PROP_NAME, INACTIVITY_TIMEOUT_MILLIS_DEFAULT), 100, 86_400_000,
                "milliseconds"));
        this.pollsBeforeBlock = (int) number(POLLS_BEFORE_BLOCK_PROP_NAME,
                get(POLLS_BEFORE_BLOCK_PROP_NAME, POLLS_BEFORE_BLOCK_DEFAULT), 0, 1_000_000, "a count");
        if (rtoMaxNanos < rtoMinNanos) {
            throw new CohortException(RTO_MAX_MILLIS_PROP_NAME + "=" + get(RTO_MAX_MILLIS_PROP_NAME, RTO_MAX_MILLIS_DEFAULT)
                    + " is below " + RTO_MIN_MICROS_PROP_NAME + "=" + get(RTO_MIN_MICROS_PROP_NAME, RTO_MIN_MICROS_DEFAULT)
                    + "; the ceiling of the retransmission time-out must not be below its floor");
        }
        if (rtoMaxNanos * 4 > inactivityTimeoutNanos) {
            throw new CohortException(INACTIVITY_TIMEOUT_MILLIS_PROP_NAME + "="
                    + get(INACTIVITY_TIMEOUT_MILLIS_PROP_NAME, INACTIVITY_TIMEOUT_MILLIS_DEFAULT)
                    + " must be at least 4 times " + RTO_MAX_MILLIS_PROP_NAME + "="
                    + get(RTO_MAX_MILLIS_PROP_NAME, RTO_MAX_MILLIS_DEFAULT)
                    + ", or a peer could be declared dead between two retransmissions");
        }
    }

    /** The defaults, overridden by any {@code cohort.udp.*} system property. */
    public static UdpSettings fromSystemProperties() {
        return from(System::getProperty);
    }

    /** The defaults, overridden by what {@code lookup} returns for each property name (null = default). */
    public static UdpSettings from(UnaryOperator<String> lookup) {
        java.util.HashMap<String, String> m = new java.util.HashMap<>();
        for (String n : NAMES) {
            String v = lookup.apply(n);
            if (v != null) {
                m.put(n, v);
            }
        }
        return new UdpSettings(m);
    }

    public static UdpSettings defaults() {
        return new UdpSettings(Map.of());
    }

    /** A copy with one setting changed (validated like the rest). */
    public UdpSettings with(String name, String value) {
        if (!java.util.Arrays.asList(NAMES).contains(name)) {
            throw new IllegalArgumentException(name + " is not a udp setting; known: " + String.join(", ", NAMES));
        }
        java.util.HashMap<String, String> m = new java.util.HashMap<>(values);
        m.put(name, value);
        return new UdpSettings(m);
    }

    /** The settings that were given explicitly, as properties (to pass them on). */
    public Properties explicit() {
        Properties p = new Properties();
        p.putAll(values);
        return p;
    }

    private String get(String name, Object dflt) {
        String v = values.get(name);
        return v == null ? String.valueOf(dflt) : v.trim();
    }

    private static long number(String name, String value, long min, long max, String what) {
        try {
            long n = Long.parseLong(value.trim().replace("_", ""));
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new CohortException(name + "=" + value + " is not valid; give " + what + " from " + min + " to " + max);
    }

    /** The configured datagram size, or 0 for auto (per pair, from the interfaces' MTUs). */
    public int datagramBytes() {
        return datagramBytes;
    }

    public int windowBytes() {
        return windowBytes;
    }

    public int socketBufferBytes() {
        return socketBufferBytes;
    }

    public long overflowLimitBytes() {
        return overflowLimitBytes;
    }

    public long rtoMinNanos() {
        return rtoMinNanos;
    }

    public long rtoMaxNanos() {
        return rtoMaxNanos;
    }

    public long rtoInitialNanos() {
        return rtoInitialNanos;
    }

    public long ackDelayNanos() {
        return ackDelayNanos;
    }

    public long inactivityTimeoutNanos() {
        return inactivityTimeoutNanos;
    }

    /** Keepalives of an idle pair: a fifth of the inactivity time-out, at most one second apart. */
    public long keepaliveNanos() {
        return Math.min(TimeUnit.SECONDS.toNanos(1), inactivityTimeoutNanos / 5);
    }

    public int pollsBeforeBlock() {
        return pollsBeforeBlock;
    }

    /**
     * Bytes a pair may have in flight towards a socket whose receive buffer is
     * {@code receiveBufferBytes} (-1 if unknown): the window, but at most a quarter of that buffer,
     * which every sender to the socket shares.
     */
    public long windowBytesFor(int receiveBufferBytes) {
        return receiveBufferBytes > 0 ? Math.min(windowBytes, receiveBufferBytes / 4) : windowBytes;
    }

    /**
     * The window in frames (sequence numbers beyond the ack a receiver accepts): enough for the byte
     * window filled with small frames (a frame per 256 bytes), but no more than the receive buffer
     * holds small datagrams (the kernel charges about 2 KiB for each), {@value #WINDOW_FRAMES_MIN} to
     * {@value #WINDOW_FRAMES_MAX}.
     */
    public int windowFrames(int receiveBufferBytes) {
        long frames = windowBytes / 256;
        if (receiveBufferBytes > 0) {
            frames = Math.min(frames, receiveBufferBytes / 2048);
        }
        return (int) Math.max(WINDOW_FRAMES_MIN, Math.min(WINDOW_FRAMES_MAX, frames));
    }
}

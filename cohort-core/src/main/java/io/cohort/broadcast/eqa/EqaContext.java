package io.cohort.broadcast.eqa;

import java.util.Locale;
import java.util.Properties;

/**
 * Every setting of EQA broadcast in one place, each a documented {@code *_PROP_NAME} /
 * {@code *_DEFAULT} pair, checked together by {@link #validate()} so that a bad value is reported
 * once, at start-up, with the value in the sentence.
 *
 * <p>The paper fixes three numbers: go-back-N with a window of 16 packets (section 3.2), and
 * BTP1 = 80 and BTP2 = 780 bytes pushed before the pull phase (section 4.1). The timers are not in
 * the paper; ours suit a LAN or loopback, where a round trip takes 30-100 us.
 *
 * <p>Mutable until handed to a peer; not thread-safe. A peer copies nothing: do not change a
 * context after {@link EqaPeer} was built from it.
 */
public final class EqaContext {
    /** Packets a sender may have unacknowledged by its slowest receiver: the go-back-N window (paper: 16). */
    public static final String WINDOW_PROP_NAME = "cohort.eqa.window";
    public static final int WINDOW_DEFAULT = 16;
    /** Bytes of the first pushed packet of a Push-Pull message (paper: BTP1 = 80). */
    public static final String BTP1_PROP_NAME = "cohort.eqa.btp1";
    public static final int BTP1_DEFAULT = 80;
    /** Bytes of the second pushed packet of a Push-Pull message (paper: BTP2 = 780). */
    public static final String BTP2_PROP_NAME = "cohort.eqa.btp2";
    public static final int BTP2_DEFAULT = 780;
    /**
     * Largest payload of one DATA packet; with the 56-byte header a packet stays at or below 1456
     * bytes, under any Ethernet MTU, so IP never fragments (the paper's packets were Ethernet frames).
     */
    public static final String PACKET_PAYLOAD_BYTES_PROP_NAME = "cohort.eqa.packetPayloadBytes";
    public static final int PACKET_PAYLOAD_BYTES_DEFAULT = 1400;
    /** A receiver acknowledges after this many in-order packets even within a message (half the window). */
    public static final String ACK_EVERY_PROP_NAME = "cohort.eqa.ackEvery";
    public static final int ACK_EVERY_DEFAULT = 8;
    /**
     * A receiver that has not advanced its cursor for this long while packets are outstanding gets
     * them again, point to point, from its cursor on (go-back-N); also the wait for a lost PULL.
     */
    public static final String RETRANSMIT_TIMEOUT_MICROS_PROP_NAME = "cohort.eqa.retransmitTimeoutMicros";
    public static final long RETRANSMIT_TIMEOUT_MICROS_DEFAULT = 2_000;
    /**
     * The same gap is reported (and the same go-back-N resend made) at most once per this long:
     * the packets after a loss all show the same gap, and one resend answers them all.
     */
    public static final String GAP_HOLD_MICROS_PROP_NAME = "cohort.eqa.gapHoldMicros";
    public static final long GAP_HOLD_MICROS_DEFAULT = 500;
    /** Longest message accepted from the wire (a bigger length field is malformed). */
    public static final String MAX_MESSAGE_BYTES_PROP_NAME = "cohort.eqa.maxMessageBytes";
    public static final int MAX_MESSAGE_BYTES_DEFAULT = 64 << 20;
    /** SIMPLE, PUSH_PULL, or AUTO (Simple up to BTP1 + BTP2 bytes, Push-Pull above). */
    public static final String MODE_PROP_NAME = "cohort.eqa.mode";
    public static final BroadcastMode MODE_DEFAULT = BroadcastMode.AUTO;
    /** SHARED (EQA: one buffer, a cursor per receiver) or PER_CHANNEL (the baseline: a buffer per receiver). */
    public static final String BUFFER_DESIGN_PROP_NAME = "cohort.eqa.bufferDesign";
    public static final BufferDesign BUFFER_DESIGN_DEFAULT = BufferDesign.SHARED;

    /** How a sender keeps packets for retransmission. */
    public enum BufferDesign {
        /** {@link SharedRetransmissionBuffer}: the EQA design. */
        SHARED,
        /** {@link PerChannelRetransmissionBuffers}: one buffer per channel, the baseline. */
        PER_CHANNEL
    }

    private int window = WINDOW_DEFAULT;
    private int btp1 = BTP1_DEFAULT;
    private int btp2 = BTP2_DEFAULT;
    private int packetPayloadBytes = PACKET_PAYLOAD_BYTES_DEFAULT;
    private int ackEvery = ACK_EVERY_DEFAULT;
    private long retransmitTimeoutMicros = RETRANSMIT_TIMEOUT_MICROS_DEFAULT;
    private long gapHoldMicros = GAP_HOLD_MICROS_DEFAULT;
    private int maxMessageBytes = MAX_MESSAGE_BYTES_DEFAULT;
    private BroadcastMode mode = MODE_DEFAULT;
    private BufferDesign bufferDesign = BUFFER_DESIGN_DEFAULT;

    /** Defaults, overridden by any {@code cohort.eqa.*} system property. */
    public static EqaContext fromSystemProperties() {
        return from(System.getProperties());
    }

    /** Every {@code cohort.eqa.*} setting there is. */
    public static final java.util.List<String> SETTING_NAMES = java.util.List.of(WINDOW_PROP_NAME, BTP1_PROP_NAME,
            BTP2_PROP_NAME, PACKET_PAYLOAD_BYTES_PROP_NAME, ACK_EVERY_PROP_NAME, RETRANSMIT_TIMEOUT_MICROS_PROP_NAME,
            GAP_HOLD_MICROS_PROP_NAME, MAX_MESSAGE_BYTES_PROP_NAME, MODE_PROP_NAME, BUFFER_DESIGN_PROP_NAME);

    /** Defaults, overridden by the {@code cohort.eqa.*} entries of {@code p}; validated (the first problem is thrown). */
    public static EqaContext from(Properties p) {
        java.util.List<String> problems = new java.util.ArrayList<>();
        EqaContext c = parse(p, problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(problems.get(0));
        }
        return c;
    }

    /**
     * Every problem of the {@code cohort.eqa.*} entries of {@code p}, one sentence per bad value or
     * unknown name, in a fixed order (empty where all are good): the launcher prints them all and
     * does not start the job.
     */
    public static java.util.List<String> problems(Properties p) {
        java.util.List<String> problems = new java.util.ArrayList<>();
        java.util.TreeSet<String> names = new java.util.TreeSet<>(p.stringPropertyNames());
        for (String name : names) {
            if (name.startsWith("cohort.eqa.") && !SETTING_NAMES.contains(name)) {
                problems.add(name + ": no such EQA setting; the settings are " + SETTING_NAMES + ".");
            }
        }
        parse(p, problems);
        return problems;
    }

    /** Parses every entry, keeping the default of each that does not parse; each problem goes to {@code problems}. */
    private static EqaContext parse(Properties p, java.util.List<String> problems) {
        EqaContext c = new EqaContext();
        collect(problems, () -> c.window = intProp(p, WINDOW_PROP_NAME, c.window));
        collect(problems, () -> c.btp1 = intProp(p, BTP1_PROP_NAME, c.btp1));
        collect(problems, () -> c.btp2 = intProp(p, BTP2_PROP_NAME, c.btp2));
        collect(problems, () -> c.packetPayloadBytes = intProp(p, PACKET_PAYLOAD_BYTES_PROP_NAME, c.packetPayloadBytes));
        collect(problems, () -> c.ackEvery = intProp(p, ACK_EVERY_PROP_NAME, c.ackEvery));
        collect(problems, () -> c.retransmitTimeoutMicros = longProp(p, RETRANSMIT_TIMEOUT_MICROS_PROP_NAME,
                c.retransmitTimeoutMicros));
        collect(problems, () -> c.gapHoldMicros = longProp(p, GAP_HOLD_MICROS_PROP_NAME, c.gapHoldMicros));
        collect(problems, () -> c.maxMessageBytes = intProp(p, MAX_MESSAGE_BYTES_PROP_NAME, c.maxMessageBytes));
        String m = p.getProperty(MODE_PROP_NAME);
        if (m != null) {
            collect(problems, () -> c.mode = enumProp(BroadcastMode.class, MODE_PROP_NAME, m));
        }
        String d = p.getProperty(BUFFER_DESIGN_PROP_NAME);
        if (d != null) {
            collect(problems, () -> c.bufferDesign = enumProp(BufferDesign.class, BUFFER_DESIGN_PROP_NAME, d));
        }
        problems.addAll(c.rangeProblems());
        return c;
    }

    /** Runs {@code parse}; the sentence of the {@link IllegalArgumentException} it throws, if any, goes to {@code problems}. */
    private static void collect(java.util.List<String> problems, Runnable parse) {
        try {
            parse.run();
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
    }

    /** Checks every setting; throws {@link IllegalArgumentException} naming the first bad one. */
    public EqaContext validate() {
        java.util.List<String> problems = rangeProblems();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(problems.get(0));
        }
        return this;
    }

    /** One sentence per setting out of range, in a fixed order; empty where all are in range. */
    private java.util.List<String> rangeProblems() {
        java.util.List<String> out = new java.util.ArrayList<>();
        check(out, window >= 1 && window <= 1 << 16, WINDOW_PROP_NAME, window, "1 to 65536 packets");
        check(out, packetPayloadBytes >= 16 && packetPayloadBytes <= 65_000, PACKET_PAYLOAD_BYTES_PROP_NAME,
                packetPayloadBytes, "16 to 65000 bytes");
        // A bound that is itself out of range was reported above; what is measured against it is not
        // reported again, so that each line names a value to change.
        boolean payloadOk = packetPayloadBytes >= 16 && packetPayloadBytes <= 65_000;
        boolean windowOk = window >= 1 && window <= 1 << 16;
        check(out, btp1 >= 1 && (btp1 <= packetPayloadBytes || !payloadOk), BTP1_PROP_NAME, btp1, "1 to packetPayloadBytes");
        check(out, btp2 >= 0 && (btp2 <= packetPayloadBytes || !payloadOk), BTP2_PROP_NAME, btp2, "0 to packetPayloadBytes");
        check(out, window >= 3 || !windowOk, WINDOW_PROP_NAME, window, "at least 3, so that both pushed packets fit in the window");
        check(out, ackEvery >= 1 && (ackEvery <= window || !windowOk), ACK_EVERY_PROP_NAME, ackEvery, "1 to the window");
        check(out, retransmitTimeoutMicros >= 10 && retransmitTimeoutMicros <= 60_000_000L,
                RETRANSMIT_TIMEOUT_MICROS_PROP_NAME, retransmitTimeoutMicros, "10 us to 60 s");
        check(out, gapHoldMicros >= 0 && gapHoldMicros <= 60_000_000L, GAP_HOLD_MICROS_PROP_NAME, gapHoldMicros,
                "0 to 60 s");
        check(out, maxMessageBytes >= 0, MAX_MESSAGE_BYTES_PROP_NAME, maxMessageBytes, "0 or more bytes");
        if (mode == null || bufferDesign == null) {
            out.add("the EQA mode and buffer design must not be null");
        }
        return out;
    }

    private static void check(java.util.List<String> out, boolean ok, String name, long value, String range) {
        if (!ok) {
            out.add(name + " = " + value + " is out of range; use " + range + ".");
        }
    }

    private static int intProp(Properties p, String name, int dflt) {
        long v = longProp(p, name, dflt);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + " = " + v + " does not fit in an int; use a smaller number.");
        }
        return (int) v;
    }

    private static long longProp(Properties p, String name, long dflt) {
        String s = p.getProperty(name);
        if (s == null) {
            return dflt;
        }
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " = \"" + s + "\" is not a whole number; give digits only.");
        }
    }

    private static <E extends Enum<E>> E enumProp(Class<E> type, String name, String s) {
        try {
            return Enum.valueOf(type, s.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " = \"" + s + "\" is not one of "
                    + java.util.Arrays.toString(type.getEnumConstants()) + ".");
        }
    }

    public int window() { return window; }
    public EqaContext window(int v) { window = v; return this; }
    public int btp1() { return btp1; }
    public EqaContext btp1(int v) { btp1 = v; return this; }
    public int btp2() { return btp2; }
    public EqaContext btp2(int v) { btp2 = v; return this; }
    /** BTP = BTP1 + BTP2: the bytes pushed before a Push-Pull message waits for its PULL. */
    public int btp() { return btp1 + btp2; }
    public int packetPayloadBytes() { return packetPayloadBytes; }
    public EqaContext packetPayloadBytes(int v) { packetPayloadBytes = v; return this; }
    public int ackEvery() { return ackEvery; }
    public EqaContext ackEvery(int v) { ackEvery = v; return this; }
    public long retransmitTimeoutMicros() { return retransmitTimeoutMicros; }
    public EqaContext retransmitTimeoutMicros(long v) { retransmitTimeoutMicros = v; return this; }
    public long gapHoldMicros() { return gapHoldMicros; }
    public EqaContext gapHoldMicros(long v) { gapHoldMicros = v; return this; }
    public int maxMessageBytes() { return maxMessageBytes; }
    public EqaContext maxMessageBytes(int v) { maxMessageBytes = v; return this; }
    public BroadcastMode mode() { return mode; }
    public EqaContext mode(BroadcastMode v) { mode = v; return this; }
    public BufferDesign bufferDesign() { return bufferDesign; }
    public EqaContext bufferDesign(BufferDesign v) { bufferDesign = v; return this; }
}

package io.cohort.broadcast.pcode;

import io.cohort.auth.FrameAuthenticator;

import java.util.Properties;

/**
 * Every tunable of the PCODE domain in one place (sections 5.7 and 6.5 of the paper), each a
 * documented {@code *_PROP_NAME} / {@code *_DEFAULT} pair, validated together by {@link #validate}
 * so a bad value is reported once, at start-up, with the value in the sentence.
 *
 * <p>The defaults were chosen on a 2-core machine over loopback multicast and a network-namespace
 * bridge: a round trip there takes 30-100 us, so a request waits 1 ms before its first NACK (most
 * "missing" frames are merely in flight for a few tens of microseconds; the paper's section 6.5
 * found that NACKing too early costs more than it saves) and NACKs repeat every 5 ms.
 *
 * <p>Mutable until handed to a domain; not thread-safe.
 */
public final class PcodeContext {
    /**
     * Bytes of one datagram's UDP payload, header included. Without this setting a job's domain fills
     * the MTU of its interface ({@link #datagramBytesForMtu}), and all peers agree on the smallest
     * one offered when the domain opens; a context made in code starts at {@link #DATAGRAM_BYTES_DEFAULT}.
     */
    public static final String DATAGRAM_BYTES_PROP_NAME = "cohort.bcast.datagramBytes";
    /** Stays below any Ethernet or tunnel MTU, so IP never fragments. */
    public static final int DATAGRAM_BYTES_DEFAULT = 1400;
    /** The largest datagram chosen from an MTU: a 9000-byte jumbo frame less its IPv4 and UDP headers. */
    public static final int DATAGRAM_BYTES_MAX_FROM_MTU = 9000 - 28;
    /** Frames kept for retransmission in the broadcast stream's sent buffer (P1's finite buffer). */
    public static final String SENT_BUFFER_FRAMES_PROP_NAME = "cohort.bcast.sentBufferFrames";
    public static final int SENT_BUFFER_FRAMES_DEFAULT = 1024;
    /** Frames kept per target in the point-to-point sent buffers (section 5.6). */
    public static final String P2P_BUFFER_FRAMES_PROP_NAME = "cohort.bcast.p2pBufferFrames";
    public static final int P2P_BUFFER_FRAMES_DEFAULT = 256;
    /** Frames that arrived too early (a gap, or a full input slot) kept until they can be accepted (5.4). */
    public static final String EARLY_BUFFER_FRAMES_PROP_NAME = "cohort.bcast.earlyBufferFrames";
    public static final int EARLY_BUFFER_FRAMES_DEFAULT = 512;
    /** Largest spread of the gcv (max - min global counter) before a sender stops (5.2). */
    public static final String FLOW_WINDOW_PROP_NAME = "cohort.bcast.flowWindow";
    public static final int FLOW_WINDOW_DEFAULT = 512;
    /** Growth of the global counter after which a STATUS is sent (5.5). */
    public static final String STATUS_WINDOW_PROP_NAME = "cohort.bcast.statusWindow";
    public static final int STATUS_WINDOW_DEFAULT = 64;
    /** A STATUS is also sent when something was handled and none was sent for this long. */
    public static final String STATUS_IDLE_MICROS_PROP_NAME = "cohort.bcast.statusIdleMicros";
    public static final long STATUS_IDLE_MICROS_DEFAULT = 20_000;
    /** Wait of an unsatisfied request before its first REQUEST NACK (5.7, 6.5). */
    public static final String REQUEST_NACK_DELAY_MICROS_PROP_NAME = "cohort.bcast.requestNackDelayMicros";
    public static final long REQUEST_NACK_DELAY_MICROS_DEFAULT = 1_000;
    /** Wait after a gap in a personal or the global counter before its first NACK: reordering is not loss (5.3). */
    public static final String GAP_NACK_DELAY_MICROS_PROP_NAME = "cohort.bcast.gapNackDelayMicros";
    public static final long GAP_NACK_DELAY_MICROS_DEFAULT = 500;
    /** Period at which every kind of NACK is repeated until satisfied (5.7), and progress is asked for. */
    public static final String NACK_INTERVAL_MICROS_PROP_NAME = "cohort.bcast.nackIntervalMicros";
    public static final long NACK_INTERVAL_MICROS_DEFAULT = 5_000;
    /** The longest the NACK timers may grow to as {@link NackPacing} adapts them to a slow medium. */
    public static final String NACK_CEILING_MICROS_PROP_NAME = "cohort.bcast.nackCeilingMicros";
    public static final long NACK_CEILING_MICROS_DEFAULT = 100_000;
    /**
     * A frame is not resent to a peer that got a copy less than this long ago (our first send
     * included): NACKs that crossed the copy on the wire are ignored, so a slow or congested link
     * is not flooded with duplicates. The default, 500 us, is below the request-NACK delay so that
     * recovery on a fast LAN is never held back; a slow link wants about its queueing delay.
     */
    public static final String RESEND_HOLD_MICROS_PROP_NAME = "cohort.bcast.resendHoldMicros";
    public static final long RESEND_HOLD_MICROS_DEFAULT = 500;
    /** Most frames resent in answer to one NACK; a repeated NACK fetches the rest. */
    public static final String RESEND_BURST_PROP_NAME = "cohort.bcast.resendBurst";
    public static final int RESEND_BURST_DEFAULT = 64;
    /** How long a call may wait before the global program is declared incorrect. */
    public static final String CALL_TIMEOUT_MILLIS_PROP_NAME = "cohort.bcast.callTimeoutMillis";
    public static final long CALL_TIMEOUT_MILLIS_DEFAULT = 30_000;
    /**
     * Polls a waiting call spins before it yields, then blocks in the selector (a datagram wakes
     * it). 0 measured best on the 2-core cluster in a box, where 8-16 peers share the cores; on
     * hosts with a core per peer, spinning a little lowers latency.
     */
    public static final String SPINS_PROP_NAME = "cohort.bcast.spins";
    public static final int SPINS_DEFAULT = 0;

    /** Yields of a waiting call after its spins, before it blocks. */
    public static final String YIELDS_PROP_NAME = "cohort.bcast.yields";
    public static final int YIELDS_DEFAULT = 0;

    /** How long {@code close()} lingers to answer NACKs until every peer has handled our frames. */
    public static final String LINGER_MILLIS_PROP_NAME = "cohort.bcast.lingerMillis";
    public static final long LINGER_MILLIS_DEFAULT = 5_000;

    int datagramBytes = DATAGRAM_BYTES_DEFAULT;
    int sentBufferFrames = SENT_BUFFER_FRAMES_DEFAULT;
    int p2pBufferFrames = P2P_BUFFER_FRAMES_DEFAULT;
    int earlyBufferFrames = EARLY_BUFFER_FRAMES_DEFAULT;
    int flowWindow = FLOW_WINDOW_DEFAULT;
    int statusWindow = STATUS_WINDOW_DEFAULT;
    long statusIdleNanos = STATUS_IDLE_MICROS_DEFAULT * 1000;
    long requestNackDelayNanos = REQUEST_NACK_DELAY_MICROS_DEFAULT * 1000;
    long gapNackDelayNanos = GAP_NACK_DELAY_MICROS_DEFAULT * 1000;
    long nackIntervalNanos = NACK_INTERVAL_MICROS_DEFAULT * 1000;
    long nackCeilingNanos = NACK_CEILING_MICROS_DEFAULT * 1000;
    int resendBurst = RESEND_BURST_DEFAULT;
    long resendHoldNanos = RESEND_HOLD_MICROS_DEFAULT * 1000;
    long callTimeoutNanos = CALL_TIMEOUT_MILLIS_DEFAULT * 1_000_000;
    long lingerNanos = LINGER_MILLIS_DEFAULT * 1_000_000;
    int spins = SPINS_DEFAULT;
    int yields = YIELDS_DEFAULT;

    /** The defaults, overridden by any {@code cohort.bcast.*} system property. */
    public static PcodeContext fromSystemProperties() {
        return from(System.getProperties());
    }

    public static PcodeContext from(Properties p) {
        PcodeContext c = new PcodeContext();
        c.datagramBytes = (int) read(p, DATAGRAM_BYTES_PROP_NAME, c.datagramBytes, 256, 65_507);
        c.sentBufferFrames = (int) read(p, SENT_BUFFER_FRAMES_PROP_NAME, c.sentBufferFrames, 1, 1 << 22);
        c.p2pBufferFrames = (int) read(p, P2P_BUFFER_FRAMES_PROP_NAME, c.p2pBufferFrames, 1, 1 << 22);
        c.earlyBufferFrames = (int) read(p, EARLY_BUFFER_FRAMES_PROP_NAME, c.earlyBufferFrames, 0, 1 << 22);
        c.flowWindow = (int) read(p, FLOW_WINDOW_PROP_NAME, c.flowWindow, 1, 1 << 30);
        c.statusWindow = (int) read(p, STATUS_WINDOW_PROP_NAME, c.statusWindow, 1, 1 << 30);
        c.statusIdleNanos = 1000 * read(p, STATUS_IDLE_MICROS_PROP_NAME, c.statusIdleNanos / 1000, 1, 60_000_000);
        c.requestNackDelayNanos = 1000 * read(p, REQUEST_NACK_DELAY_MICROS_PROP_NAME, c.requestNackDelayNanos / 1000, 0, 60_000_000);
        c.gapNackDelayNanos = 1000 * read(p, GAP_NACK_DELAY_MICROS_PROP_NAME, c.gapNackDelayNanos / 1000, 0, 60_000_000);
        c.nackIntervalNanos = 1000 * read(p, NACK_INTERVAL_MICROS_PROP_NAME, c.nackIntervalNanos / 1000, 10, 60_000_000);
        c.nackCeilingNanos = 1000 * read(p, NACK_CEILING_MICROS_PROP_NAME, c.nackCeilingNanos / 1000, 10, 60_000_000);
        c.resendBurst = (int) read(p, RESEND_BURST_PROP_NAME, c.resendBurst, 1, 1 << 20);
        c.resendHoldNanos = 1000 * read(p, RESEND_HOLD_MICROS_PROP_NAME, c.resendHoldNanos / 1000, 0, 60_000_000);
        c.callTimeoutNanos = 1_000_000 * read(p, CALL_TIMEOUT_MILLIS_PROP_NAME, c.callTimeoutNanos / 1_000_000, 1, 86_400_000);
        c.lingerNanos = 1_000_000 * read(p, LINGER_MILLIS_PROP_NAME, c.lingerNanos / 1_000_000, 0, 86_400_000);
        c.spins = (int) read(p, SPINS_PROP_NAME, c.spins, 0, 1_000_000);
        c.yields = (int) read(p, YIELDS_PROP_NAME, c.yields, 0, 1_000_000);
        return c;
    }

    /** Whether {@code p} sets the datagram size, so that no MTU should choose it. */
    public static boolean datagramBytesConfigured(Properties p) {
        String v = p.getProperty(DATAGRAM_BYTES_PROP_NAME);
        return v != null && !v.isBlank();
    }

    /**
     * The datagram that fills a frame of {@code mtu} bytes without IP fragmentation (less 28 bytes
     * of IPv4 and UDP headers), at most {@link #DATAGRAM_BYTES_MAX_FROM_MTU} (loopback's 64 KiB MTU
     * would make every retransmission and every socket-buffer slot that large), or the default when
     * the interface does not tell its MTU.
     */
    public static int datagramBytesForMtu(int mtu) {
        if (mtu <= 0) {
            return DATAGRAM_BYTES_DEFAULT;
        }
        return Math.max(256, Math.min(DATAGRAM_BYTES_MAX_FROM_MTU, mtu - 28));
    }

    private static long read(Properties p, String name, long dflt, long min, long max) {
        String v = p.getProperty(name);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        long x;
        try {
            x = Long.parseLong(v.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new io.cohort.BadSettingException("setting " + name + "=" + v + " is not a whole number; use one between "
                    + min + " and " + max);
        }
        return check(name, x, min, max);
    }

    private static long check(String name, long x, long min, long max) {
        if (x < min || x > max) {
            throw new io.cohort.BadSettingException("setting " + name + "=" + x + " is out of range; use one between "
                    + min + " and " + max);
        }
        return x;
    }

    public PcodeContext datagramBytes(int v) {
        datagramBytes = (int) check(DATAGRAM_BYTES_PROP_NAME, v, 256, 65_507);
        return this;
    }

    public PcodeContext sentBufferFrames(int v) {
        sentBufferFrames = (int) check(SENT_BUFFER_FRAMES_PROP_NAME, v, 1, 1 << 22);
        return this;
    }

    public PcodeContext p2pBufferFrames(int v) {
        p2pBufferFrames = (int) check(P2P_BUFFER_FRAMES_PROP_NAME, v, 1, 1 << 22);
        return this;
    }

    public PcodeContext earlyBufferFrames(int v) {
        earlyBufferFrames = (int) check(EARLY_BUFFER_FRAMES_PROP_NAME, v, 0, 1 << 22);
        return this;
    }

    public PcodeContext flowWindow(int v) {
        flowWindow = (int) check(FLOW_WINDOW_PROP_NAME, v, 1, 1 << 30);
        return this;
    }

    public PcodeContext statusWindow(int v) {
        statusWindow = (int) check(STATUS_WINDOW_PROP_NAME, v, 1, 1 << 30);
        return this;
    }

    public PcodeContext requestNackDelayMicros(long v) {
        requestNackDelayNanos = 1000 * check(REQUEST_NACK_DELAY_MICROS_PROP_NAME, v, 0, 60_000_000);
        return this;
    }

    public PcodeContext nackIntervalMicros(long v) {
        nackIntervalNanos = 1000 * check(NACK_INTERVAL_MICROS_PROP_NAME, v, 10, 60_000_000);
        return this;
    }

    public PcodeContext nackCeilingMicros(long v) {
        nackCeilingNanos = 1000 * check(NACK_CEILING_MICROS_PROP_NAME, v, 10, 60_000_000);
        return this;
    }

    public PcodeContext callTimeoutMillis(long v) {
        callTimeoutNanos = 1_000_000 * check(CALL_TIMEOUT_MILLIS_PROP_NAME, v, 1, 86_400_000);
        return this;
    }

    public PcodeContext lingerMillis(long v) {
        lingerNanos = 1_000_000 * check(LINGER_MILLIS_PROP_NAME, v, 0, 86_400_000);
        return this;
    }

    /** {@value #CALL_TIMEOUT_MILLIS_PROP_NAME}, in nanoseconds (the EQA domain's calls wait as long). */
    public long callTimeoutNanos() {
        return callTimeoutNanos;
    }

    /** {@value #LINGER_MILLIS_PROP_NAME}, in nanoseconds (the EQA domain's close lingers as long at most). */
    public long lingerNanos() {
        return lingerNanos;
    }

    /** Bytes of message content one DATA frame carries in a domain of {@code size} peers (after its header, before its tag). */
    public int fragmentBytes(int size) {
        return datagramBytes - DataFrameDescriptor.payloadOffset(size) - FrameAuthenticator.TAG_BYTES;
    }

    /** The largest message: the sent buffer must hold one whole message (the paper's Assumption 3). */
    public long maxMessageBytes(int size) {
        return (long) fragmentBytes(size) * Math.min(sentBufferFrames, p2pBufferFrames);
    }

    /** Checks the settings against a domain of {@code size} peers; one sentence on failure. */
    public void validate(int size) {
        int needed = Math.max(StatusFrameDescriptor.length(size),
                Math.max(NackFrameDescriptor.length(NackFrameDescriptor.KIND_GLOBAL_GAP, size),
                        DataFrameDescriptor.payloadOffset(size) + 64)) + FrameAuthenticator.TAG_BYTES;
        if (size < 1 || size > 0xFFFF) {
            throw new IllegalArgumentException("a broadcast domain has 1 to 65535 peers, not " + size);
        }
        if (needed > datagramBytes) {
            throw new io.cohort.BadSettingException("setting " + DATAGRAM_BYTES_PROP_NAME + "=" + datagramBytes
                    + " is too small for a domain of " + size + " peers; use at least " + needed);
        }
        if (statusWindow > flowWindow) {
            throw new io.cohort.BadSettingException("setting " + STATUS_WINDOW_PROP_NAME + "=" + statusWindow
                    + " exceeds " + FLOW_WINDOW_PROP_NAME + "=" + flowWindow + "; a STATUS must come before the window closes");
        }
    }

    @Override
    public String toString() {
        return "datagramBytes=" + datagramBytes + " sentBufferFrames=" + sentBufferFrames + " p2pBufferFrames="
                + p2pBufferFrames + " earlyBufferFrames=" + earlyBufferFrames + " flowWindow=" + flowWindow
                + " statusWindow=" + statusWindow + " requestNackDelayNanos=" + requestNackDelayNanos
                + " gapNackDelayNanos=" + gapNackDelayNanos + " nackIntervalNanos=" + nackIntervalNanos
                + " callTimeoutNanos=" + callTimeoutNanos;
    }
}

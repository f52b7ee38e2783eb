package io.cohort.daemon;

/** Why a received frame was dropped; each is counted ({@link RefusalLog}) and logged in one line. */
public enum Refusal {
    /** Too short or too long, lengths that do not add up, a body that is not {@code key=value} lines. */
    MALFORMED("malformed frame"),
    /** Not our magic or version, or a type this version does not know. */
    FOREIGN("not a cohortd frame of this version"),
    /** The HMAC does not match: another cluster's key, or the frame was altered. */
    BAD_MAC("bad MAC (wrong cluster key or altered frame)"),
    /** The timestamp is further from this clock than {@code daemon.max_skew}. */
    STALE("timestamp outside daemon.max_skew (stale, or clocks not synchronised)"),
    /** The nonce was already seen within the freshness window. */
    REPLAYED("replayed nonce"),
    /**
     * Time-stamped before this daemon started: a frame captured before a restart and replayed (the replay
     * guard that saw it died with the old daemon), or a sender whose clock is behind this one's.
     */
    PREDATES_START("time-stamped before this daemon started (a replay from before a restart, or a clock behind)"),
    /** A frame over TCP that did not arrive whole in time: a peer trickling bytes, or a link far too slow. */
    SLOW("frame too slow to arrive"),
    /** A TCP connection that sent no authentic frame within {@code daemon.auth_timeout}: closed. */
    AUTH_TIMEOUT("no authentic frame within daemon.auth_timeout"),
    /**
     * A TCP connection closed before it authenticated, to make room: its source had too many connections
     * waiting to authenticate, or all sources together had.
     */
    SHED("too many connections waiting to authenticate; the oldest was closed"),
    /**
     * Well formed and authentic, but not expected here (an UPDATE from a non-member, a ring frame out of
     * turn, a message from someone else than the connection's peer).
     */
    UNEXPECTED("unexpected message");

    private final String description;

    Refusal(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}

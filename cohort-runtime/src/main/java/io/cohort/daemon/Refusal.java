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
    /** A frame over TCP that did not arrive whole in time: a peer trickling bytes, or a link far too slow. */
    SLOW("frame too slow to arrive"),
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

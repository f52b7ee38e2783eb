package io.cohort.daemon;

/** A frame or body that does not follow the daemon protocol; the receiver counts it and drops it. */
public final class MalformedMessageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Refusal refusal;

    public MalformedMessageException(String message) {
        this(null, message);
    }

    /** A frame refused for {@code refusal}; the message says what was wrong with it. */
    MalformedMessageException(Refusal refusal, String message) {
        super(message, null, false, false); // no stack trace: it is an expected event, counted, never printed
        this.refusal = refusal;
    }

    /** Why the frame was refused, or null for a body that does not follow the protocol. */
    public Refusal refusal() {
        return refusal;
    }
}

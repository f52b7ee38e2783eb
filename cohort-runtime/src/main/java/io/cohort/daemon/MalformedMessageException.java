package io.cohort.daemon;

/** A frame or body that does not follow the daemon protocol; the receiver counts it and drops it. */
public final class MalformedMessageException extends RuntimeException {
    public MalformedMessageException(String message) {
        super(message, null, false, false); // no stack trace: it is an expected event, counted, never printed
    }
}

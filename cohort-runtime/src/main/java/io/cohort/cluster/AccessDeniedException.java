package io.cohort.cluster;

/** A user is not in a partition's access list; the message is one sentence. */
public final class AccessDeniedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AccessDeniedException(String message) {
        super(message);
    }
}

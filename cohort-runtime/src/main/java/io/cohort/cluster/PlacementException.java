package io.cohort.cluster;

/** A partition cannot hold a job as asked (too few available members, none with a free slot); the message is one sentence. */
public final class PlacementException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PlacementException(String message) {
        super(message);
    }
}

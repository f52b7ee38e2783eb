package io.cohort;

/**
 * With {@code cohort run --check-collectives}: the members of a communicator made different
 * collective calls at the same point (another operation, root, op, element type or count), which
 * would otherwise wait for ever or read wrong values. Every member gets it, at the call; the message
 * names the communicator, the collective's number and the ranks of each different call.
 */
public final class CollectiveMismatchException extends CohortException {
    private static final long serialVersionUID = 1L;

    public CollectiveMismatchException(String message) {
        super(message);
    }
}

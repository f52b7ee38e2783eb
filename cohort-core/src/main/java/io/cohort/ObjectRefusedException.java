package io.cohort;

/**
 * A received object that the serial filter refused to deserialize: a class it rejects, or a limit
 * (depth, objects, array length, bytes) the stream went past. Only that receive fails: the message
 * was consumed, nothing of it was kept, and the communicator serves later receives as before. The
 * message is one sentence naming the sender, the class or the limit, and the filter; see
 * {@code cohort run --serial-filter} to allow more.
 */
public class ObjectRefusedException extends CohortException {
    private static final long serialVersionUID = 1L;

    public ObjectRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}

package io.cohort;

/** A message arrived that is longer than the buffer the matching receive supplied. */
public class MessageTruncatedException extends CohortException {
    private final Status status;

    public MessageTruncatedException(Status status, int capacity) {
        super("message of " + status.length() + " bytes from rank " + status.source() + " with tag " + status.tag()
                + " does not fit the receive buffer of " + capacity + " bytes; receive it without a buffer"
                + " (recv(source, tag)) or probe its length first");
        this.status = status;
    }

    /** The message that did not fit; its bytes were consumed and dropped. */
    public Status status() {
        return status;
    }
}

package io.cohort;

/** A message arrived that is longer than the buffer the matching receive supplied. */
public class MessageTruncatedException extends CohortException {
    private final Status status;
    private final int capacity;

    /** {@code capacity} -1 means the receive asked for a {@code byte[]}, which cannot be that long. */
    public MessageTruncatedException(Status status, int capacity) {
        super(capacity < 0
                ? "message of " + status.length() + " bytes from rank " + status.source() + " with tag " + status.tag()
                        + " is longer than a Java array can be; receive it into a ByteBuffer"
                : "message of " + status.length() + " bytes from rank " + status.source() + " with tag " + status.tag()
                        + " does not fit the receive buffer of " + capacity + " bytes; receive it without a buffer"
                        + " (recv(source, tag)) or probe its length first");
        this.status = status;
        this.capacity = capacity;
    }

    /**
     * The same failure with the sender named by {@code source}: a communicator's rank where the
     * engine that found it knew the job's (the status and the message name the sender alike).
     */
    public MessageTruncatedException withSource(int source) {
        MessageTruncatedException e = new MessageTruncatedException(new Status(source, status.tag(), status.length()),
                capacity);
        e.setStackTrace(getStackTrace());
        return e;
    }

    /**
     * The message that did not fit. Its bytes were consumed: a receive into a buffer or an array
     * holds the first ones, or the first elements, that fit (a buffer's position is not moved); the
     * rest were dropped.
     */
    public Status status() {
        return status;
    }
}

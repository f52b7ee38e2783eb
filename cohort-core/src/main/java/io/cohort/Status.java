package io.cohort;

/**
 * What a receive or probe learned about a message: who sent it, with which tag, and how many
 * bytes it carried. Immutable.
 */
public final class Status {
    private final int source;
    private final int tag;
    private final int length;
    private final boolean cancelled;

    /** The status of a receive that {@link Request#cancel()} withdrew before any message matched it. */
    public static final Status CANCELLED = new Status(-1, -1, 0, true);

    public Status(int source, int tag, int length) {
        this(source, tag, length, false);
    }

    private Status(int source, int tag, int length, boolean cancelled) {
        this.source = source;
        this.tag = tag;
        this.length = length;
        this.cancelled = cancelled;
    }

    /** Whether the receive was cancelled: no message, source and tag -1, length 0. */
    public boolean cancelled() {
        return cancelled;
    }

    /** Rank of the sender within the communicator the message was received on. */
    public int source() {
        return source;
    }

    /** Tag the sender gave the message. */
    public int tag() {
        return tag;
    }

    /** Payload length in bytes. */
    public int length() {
        return length;
    }

    /**
     * Number of elements of {@code elementBytes} bytes each (4 for {@code int}, 8 for {@code double}...).
     *
     * @throws IllegalArgumentException if {@code elementBytes} is not positive, or the payload is not a
     *         whole number of such elements (it was not sent as them)
     */
    public int count(int elementBytes) {
        if (elementBytes <= 0) {
            throw new IllegalArgumentException("an element has at least 1 byte, not " + elementBytes);
        }
        if (length % elementBytes != 0) {
            throw new IllegalArgumentException("the message's " + length + " bytes are not a whole number of "
                    + elementBytes + "-byte elements");
        }
        return length / elementBytes;
    }

    @Override
    public String toString() {
        return cancelled ? "Status[cancelled]" : "Status[source=" + source + ", tag=" + tag + ", length=" + length + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Status s && s.source == source && s.tag == tag && s.length == length && s.cancelled == cancelled;
    }

    @Override
    public int hashCode() {
        return (source * 31 + tag) * 31 + length;
    }
}

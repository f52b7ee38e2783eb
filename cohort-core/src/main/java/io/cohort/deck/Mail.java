package io.cohort.deck;

import io.cohort.Status;
import io.cohort.engine.Payloads;

/**
 * One message taken from a {@link Mailbox}: the bytes and the world rank that posted them (for a
 * group broadcast, the rank that called {@code bcast}). Immutable; any thread.
 */
public final class Mail {
    private final int source;
    private final byte[] bytes;
    /**
     * False while the post office has yet to send the poster its reply. The owner is handed the mail
     * only after that, so an owner that takes it and closes its world at once cannot say goodbye
     * before the reply: the poster would then fail with PeerClosedException.
     */
    private volatile boolean answered = true;

    Mail(int source, byte[] bytes) {
        this.source = source;
        this.bytes = bytes;
    }

    void awaitingAnswer() {
        answered = false;
    }

    void answered() {
        answered = true;
    }

    boolean isAnswered() {
        return answered;
    }

    /** World rank of the peer that posted (or broadcast) this message. */
    public int source() {
        return source;
    }

    /** The bytes themselves (not a copy): the caller owns them. */
    public byte[] bytes() {
        return bytes;
    }

    public int length() {
        return bytes.length;
    }

    /** Decodes a message posted with {@link Deck#postObject} or {@link Deck#bcastObject}. */
    public <T> T asObject() {
        return Payloads.toObject(bytes, new Status(source, 0, bytes.length));
    }

    @Override
    public String toString() {
        return "Mail[source=" + source + ", length=" + bytes.length + "]";
    }
}

package io.cohort.deck;

import io.cohort.CohortProvider;

/**
 * One message taken from a {@link Mailbox}: the bytes and the world rank that posted them (for a
 * group broadcast, the rank that called {@code bcast}). Immutable; any thread.
 */
public final class Mail {
    private final int source;
    private final byte[] bytes;

    /** Mail of {@code bytes} (not copied) posted by world rank {@code source}: made by Cohort as posts arrive. */
    public Mail(int source, byte[] bytes) {
        this.source = source;
        this.bytes = bytes;
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

    /**
     * Decodes a message posted with {@link Deck#postObject} or {@link Deck#bcastObject}, through
     * the serial filter: a refused object is an {@link io.cohort.ObjectRefusedException}.
     */
    public <T> T asObject() {
        return CohortProvider.get().readObject(bytes, "mail from rank " + source);
    }

    @Override
    public String toString() {
        return "Mail[source=" + source + ", length=" + bytes.length + "]";
    }
}

package io.cohort.deck.service;

import java.nio.charset.StandardCharsets;

/**
 * Checks and encodes DECK names (mailboxes and groups share one job-wide name space). Any thread.
 */
final class DeckNames {
    /** Longest name, in UTF-8 bytes. */
    static final int MAX_NAME_BYTES = 255;

    private DeckNames() {
    }

    /** The name's UTF-8 bytes. @throws IllegalArgumentException naming the bad name */
    static byte[] encode(String name) {
        if (name == null) {
            throw new IllegalArgumentException("a DECK name must not be null");
        }
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a DECK name must not be empty");
        }
        byte[] b;
        try {
            // Strictly: getBytes would turn a lone surrogate into '?', and two names into one.
            java.nio.ByteBuffer e = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .encode(java.nio.CharBuffer.wrap(name));
            b = new byte[e.remaining()];
            e.get(b);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("a DECK name must be valid text; this one holds a lone UTF-16 surrogate");
        }
        if (b.length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("the DECK name '" + name.substring(0, Math.min(20, name.length())) + "...' is " + b.length
                    + " bytes of UTF-8; names may have at most " + MAX_NAME_BYTES);
        }
        return b;
    }

    static String decode(byte[] b, int offset, int length) {
        return new String(b, offset, length, StandardCharsets.UTF_8);
    }
}

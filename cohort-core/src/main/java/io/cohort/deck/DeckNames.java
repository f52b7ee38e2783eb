package io.cohort.deck;

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
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a DECK name must not be empty");
        }
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        if (b.length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("the DECK name '" + name.substring(0, 20) + "...' is " + b.length
                    + " bytes of UTF-8; names may have at most " + MAX_NAME_BYTES);
        }
        return b;
    }

    static String decode(byte[] b, int offset, int length) {
        return new String(b, offset, length, StandardCharsets.UTF_8);
    }
}

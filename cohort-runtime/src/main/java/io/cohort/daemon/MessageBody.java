package io.cohort.daemon;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message's body: ordered {@code key=value} pairs, one per line in UTF-8. Text, so that a new field
 * or request never needs a new layout and a captured packet reads plainly. Keys are letters, digits,
 * {@code . _ -}; in values a backslash is written {@code \\} and a newline {@code \n}.
 *
 * <p>A body written by a {@link Writer} (a large cluster's STATUS answer) exists only encoded until a
 * field is read: no map of hundreds of thousands of entries on a daemon's small heap.
 *
 * <p>Not thread-safe; built by one thread, then only read (a body from a {@link Writer} may be sent by
 * many threads at once: {@link #encode} only reads it).
 */
public final class MessageBody {
    /** The fields, or null while the body exists only {@link #encoded}. */
    private Map<String, String> fields;
    /** What {@link #encode} returns, or null until a {@link Writer} made it (never written to). */
    private byte[] encoded;

    private MessageBody(Map<String, String> fields, byte[] encoded) {
        this.fields = fields;
        this.encoded = encoded;
    }

    public static MessageBody empty() {
        return new MessageBody(new LinkedHashMap<>(), null);
    }

    public MessageBody put(String key, Object value) {
        if (!isKey(key)) {
            throw new IllegalArgumentException("bad body key '" + key + "'");
        }
        fields().put(key, String.valueOf(value));
        encoded = null;
        return this;
    }

    private Map<String, String> fields() {
        if (fields == null) {
            fields = decode(encoded, 0, encoded.length).fields;
        }
        return fields;
    }

    /**
     * Writes a body straight into its encoded form, for answers too large to build as a map first. The
     * same keys and escapes as {@link #put}; a key given twice keeps its last value, as with {@code put}.
     */
    public static final class Writer {
        private final StringBuilder text;

        /** @param expectedChars about how long the text will be (the buffer's first size) */
        public Writer(int expectedChars) {
            text = new StringBuilder(Math.max(16, expectedChars));
        }

        public Writer put(String key, Object value) {
            if (!isKey(key)) {
                throw new IllegalArgumentException("bad body key '" + key + "'");
            }
            appendLine(text, key, String.valueOf(value));
            return this;
        }

        public MessageBody toBody() {
            return new MessageBody(null, text.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void appendLine(StringBuilder b, String key, String value) {
        b.append(key).append('=');
        if (value.indexOf('\\') < 0 && value.indexOf('\n') < 0) {
            b.append(value);
        } else {
            b.append(value.replace("\\", "\\\\").replace("\n", "\\n"));
        }
        b.append('\n');
    }

    /**
     * Whether {@code key} is letters, digits, {@code . _ -}: checked by hand, since a STATUS answer of a
     * large cluster has hundreds of thousands of keys and a regular expression per key cost seconds.
     */
    private static boolean isKey(String key) {
        if (key.isEmpty()) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** The value, or null if absent. */
    public String get(String key) {
        return fields().get(key);
    }

    public String get(String key, String fallback) {
        return fields().getOrDefault(key, fallback);
    }

    /** The value as an int; a missing or bad value is a {@link MalformedMessageException}. */
    public int getInt(String key) {
        String v = require(key);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new MalformedMessageException("field '" + key + "' is not an integer: '" + v + "'");
        }
    }

    public long getLong(String key) {
        String v = require(key);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new MalformedMessageException("field '" + key + "' is not an integer: '" + v + "'");
        }
    }

    public double getDouble(String key) {
        String v = require(key);
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new MalformedMessageException("field '" + key + "' is not a number: '" + v + "'");
        }
    }

    public String require(String key) {
        String v = fields().get(key);
        if (v == null) {
            throw new MalformedMessageException("field '" + key + "' is missing");
        }
        return v;
    }

    public Map<String, String> asMap() {
        return Collections.unmodifiableMap(fields());
    }

    /** The body as sent; the array must not be changed (a {@link Writer}'s body returns its own). */
    public byte[] encode() {
        if (encoded != null) {
            return encoded;
        }
        StringBuilder b = new StringBuilder();
        fields.forEach((k, v) -> appendLine(b, k, v));
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Decodes what {@link #encode} wrote; anything else is a {@link MalformedMessageException}. */
    public static MessageBody decode(byte[] bytes, int offset, int length) {
        MessageBody body = empty();
        String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                throw new MalformedMessageException("the body's last line has no newline");
            }
            int eq = text.indexOf('=', start);
            if (eq < 0 || eq > end) {
                throw new MalformedMessageException("a body line has no '='");
            }
            String key = text.substring(start, eq);
            if (!isKey(key)) {
                throw new MalformedMessageException("bad body key");
            }
            body.fields.put(key, unescape(text.substring(eq + 1, end)));
            start = end + 1;
        }
        return body;
    }

    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                if (++i == s.length()) {
                    throw new MalformedMessageException("a body value ends in a lone backslash");
                }
                char n = s.charAt(i);
                if (n == 'n') {
                    b.append('\n');
                } else if (n == '\\') {
                    b.append('\\');
                } else {
                    throw new MalformedMessageException("a body value has a bad escape");
                }
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return fields().toString();
    }
}

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
 * <p>Not thread-safe; built by one thread, then only read.
 */
public final class MessageBody {
    private final Map<String, String> fields = new LinkedHashMap<>();

    public static MessageBody empty() {
        return new MessageBody();
    }

    public MessageBody put(String key, Object value) {
        if (!key.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("bad body key '" + key + "'");
        }
        fields.put(key, String.valueOf(value));
        return this;
    }

    /** The value, or null if absent. */
    public String get(String key) {
        return fields.get(key);
    }

    public String get(String key, String fallback) {
        return fields.getOrDefault(key, fallback);
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
        String v = fields.get(key);
        if (v == null) {
            throw new MalformedMessageException("field '" + key + "' is missing");
        }
        return v;
    }

    public Map<String, String> asMap() {
        return Collections.unmodifiableMap(fields);
    }

    public byte[] encode() {
        StringBuilder b = new StringBuilder();
        fields.forEach((k, v) -> b.append(k).append('=').append(v.replace("\\", "\\\\").replace("\n", "\\n")).append('\n'));
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Decodes what {@link #encode} wrote; anything else is a {@link MalformedMessageException}. */
    public static MessageBody decode(byte[] bytes, int offset, int length) {
        MessageBody body = new MessageBody();
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
            if (!key.matches("[A-Za-z0-9._-]+")) {
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
        return fields.toString();
    }
}

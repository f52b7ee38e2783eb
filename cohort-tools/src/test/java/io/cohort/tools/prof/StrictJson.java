package io.cohort.tools.prof;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 JSON parser for tests (the JDK has none): objects become maps, arrays lists,
 * numbers {@link Double}s (or {@link Long}s when integral and exact), strings with every escape
 * decoded. Anything outside the grammar (trailing commas, single quotes, raw control characters,
 * bad escapes, leading zeros, text after the value) fails with the offset.
 */
final class StrictJson {
    private final String s;
    private int i;

    private StrictJson(String s) {
        this.s = s;
    }

    static Object parse(String text) {
        StrictJson p = new StrictJson(text);
        p.ws();
        Object v = p.value();
        p.ws();
        if (p.i != text.length()) {
            throw p.error("text after the value");
        }
        return v;
    }

    private Object value() {
        if (i >= s.length()) {
            throw error("unexpected end");
        }
        char c = s.charAt(i);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        ws();
        if (peek() == '}') {
            i++;
            return m;
        }
        for (;;) {
            ws();
            if (peek() != '"') {
                throw error("expected a key");
            }
            String k = string();
            ws();
            expect(':');
            ws();
            if (m.put(k, value()) != null) {
                throw error("duplicate key " + k);
            }
            ws();
            char c = next();
            if (c == '}') {
                return m;
            }
            if (c != ',') {
                throw error("expected , or }");
            }
        }
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        i++;
        ws();
        if (peek() == ']') {
            i++;
            return l;
        }
        for (;;) {
            ws();
            l.add(value());
            ws();
            char c = next();
            if (c == ']') {
                return l;
            }
            if (c != ',') {
                throw error("expected , or ]");
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        for (;;) {
            char c = next();
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                throw error("raw control character in a string");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (i + 4 > s.length()) {
                        throw error("short \\u escape");
                    }
                    String hex = s.substring(i, i + 4);
                    if (!hex.matches("[0-9a-fA-F]{4}")) {
                        throw error("bad \\u escape");
                    }
                    b.append((char) Integer.parseInt(hex, 16));
                    i += 4;
                }
                default -> throw error("bad escape \\" + e);
            }
        }
    }

    private Object number() {
        int start = i;
        if (peek() == '-') {
            i++;
        }
        if (peek() == '0') {
            i++;
        } else if (peek() >= '1' && peek() <= '9') {
            while (Character.isDigit(peek())) {
                i++;
            }
        } else {
            throw error("not a value");
        }
        boolean integral = true;
        if (peek() == '.') {
            integral = false;
            i++;
            if (!Character.isDigit(peek())) {
                throw error("digits must follow the point");
            }
            while (Character.isDigit(peek())) {
                i++;
            }
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            i++;
            if (peek() == '+' || peek() == '-') {
                i++;
            }
            if (!Character.isDigit(peek())) {
                throw error("digits must follow the exponent");
            }
            while (Character.isDigit(peek())) {
                i++;
            }
        }
        String n = s.substring(start, i);
        if (integral && n.length() < 18) {
            return Long.parseLong(n);
        }
        return Double.parseDouble(n);
    }

    private Object literal(String word, Object v) {
        if (!s.startsWith(word, i)) {
            throw error("not a value");
        }
        i += word.length();
        return v;
    }

    private void ws() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\n' || s.charAt(i) == '\r' || s.charAt(i) == '\t')) {
            i++;
        }
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private char next() {
        if (i >= s.length()) {
            throw error("unexpected end");
        }
        return s.charAt(i++);
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("expected " + c);
        }
    }

    private IllegalArgumentException error(String what) {
        int from = Math.max(0, i - 30);
        return new IllegalArgumentException("invalid JSON at " + i + ": " + what + " near ..."
                + s.substring(from, Math.min(s.length(), i + 30)));
    }
}

package io.cohort.tools.prof;

/** The little JSON the trace needs: strings quoted and escaped per RFC 8259, numbers as given. */
final class Json {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Json() {
    }

    /**
     * Quotes {@code s}. Control characters and surrogates are written as {@code \\uXXXX}: a lone
     * surrogate (a name cut mid-character) would otherwise become invalid UTF-8 in the file.
     * U+2028 and U+2029 are escaped too, since JavaScript readers choke on them raw.
     */
    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c) || c == '\u2028' || c == '\u2029') {
                        out.append("\\u").append(HEX[c >> 12 & 15]).append(HEX[c >> 8 & 15]).append(HEX[c >> 4 & 15]).append(HEX[c & 15]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    static String string(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2);
        string(b, s);
        return b.toString();
    }

    /** A value of an event's args: numbers and booleans bare (non-finite doubles as strings), the rest as strings. */
    static void value(StringBuilder out, Object v) {
        if (v instanceof Double d && !Double.isFinite(d) || v instanceof Float f && !Float.isFinite(f)) {
            string(out, v.toString());
        } else if (v instanceof Number || v instanceof Boolean) {
            out.append(v);
        } else {
            string(out, String.valueOf(v));
        }
    }

    /** Nanoseconds as microseconds with three decimals, exactly (no floating point): {@code 1234567} is {@code 1234.567}. */
    static void micros(StringBuilder out, long nanos) {
        if (nanos < 0) {
            out.append('-');
            nanos = -nanos;
        }
        long frac = nanos % 1000;
        out.append(nanos / 1000).append('.');
        if (frac < 100) {
            out.append('0');
        }
        if (frac < 10) {
            out.append('0');
        }
        out.append(frac);
    }
}

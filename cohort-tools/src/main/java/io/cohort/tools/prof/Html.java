package io.cohort.tools.prof;

/**
 * Escaping for the HTML report's text and attributes (SVG included). The report is also well-formed
 * XML, so only XML's five entities are ever written.
 */
final class Html {
    private Html() {
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    // Control characters are not allowed in XML 1.0 at all; a name carrying one shows a mark instead.
                    if (c < 0x20 && c != '\n' && c != '\t' || c == 0xfffe || c == 0xffff
                            || Character.isSurrogate(c) && !validPair(s, i)) {
                        b.append('\ufffd');
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    private static boolean validPair(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}

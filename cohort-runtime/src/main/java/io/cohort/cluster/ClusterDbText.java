package io.cohort.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A database file's text as lines that {@code cohort db} edits in place: a changed token keeps its line,
 * its trailing comment and the lines around it; a new token goes after the others of its member,
 * partition or section. Comments, blank lines, line ends (LF or CRLF) and a byte-order mark survive. Nothing is validated
 * here; {@link ClusterDbEditor} parses the result. Mutable; one thread.
 */
public final class ClusterDbText {
    private final List<String> lines = new ArrayList<>();
    private final String newline;
    private final boolean finalNewline;
    /** A UTF-8 byte-order mark began the file: kept off the first line while editing, put back after. */
    private final boolean byteOrderMark;

    private ClusterDbText(String file) {
        this.byteOrderMark = file.startsWith("\uFEFF");
        String text = byteOrderMark ? file.substring(1) : file;
        this.newline = text.contains("\r\n") ? "\r\n" : "\n";
        this.finalNewline = text.isEmpty() || text.endsWith("\n");
        String body = finalNewline && !text.isEmpty() ? text.substring(0, text.length() - 1) : text;
        if (!text.isEmpty()) {
            for (String line : body.split("\n", -1)) {
                lines.add(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
            }
        }
    }

    public static ClusterDbText of(String text) {
        return new ClusterDbText(text);
    }

    /** The value of a token's line, if there is one. */
    public Optional<String> value(String token) {
        int i = find(token);
        if (i < 0) {
            return Optional.empty();
        }
        String line = ClusterDbParser.withoutComment(lines.get(i));
        return Optional.of(line.substring(line.indexOf('=') + 1).strip());
    }

    /** Sets a token: replaces the value on its line, or adds a line after its group's last one. */
    public void set(String token, String value) {
        int i = find(token);
        if (i >= 0) {
            String line = lines.get(i);
            String comment = line.substring(ClusterDbParser.withoutComment(line).length());
            lines.set(i, token + " = " + value + (comment.isEmpty() ? "" : " " + comment.strip()));
            return;
        }
        String group = group(token);
        int after = lastWhere(t -> group(t).equals(group));
        String line = token + " = " + value;
        if (after >= 0) {
            lines.add(after + 1, line);
            return;
        }
        String kind = kind(token);
        after = lastWhere(t -> kind(t).equals(kind));
        if (after < 0 && kind.equals("daemon")) {
            after = lastWhere(t -> kind(t).isEmpty());
        }
        if (after < 0) {
            after = lines.size() - 1;
            while (after >= 0 && lines.get(after).isBlank()) {
                after--;
            }
        }
        boolean blankBefore = after >= 0 && !group.isEmpty();
        lines.add(after + 1, line);
        if (blankBefore) {
            lines.add(after + 1, "");
        }
    }

    /** Removes a token's line; false if the text has none. */
    public boolean unset(String token) {
        int i = find(token);
        if (i < 0) {
            return false;
        }
        removeLine(i);
        return true;
    }

    /** Removes every line of a member or partition ({@code prefix} like {@code member.m3.}); how many. */
    public int removeAll(String prefix) {
        int removed = 0;
        for (int i = lines.size() - 1; i >= 0; i--) {
            String t = token(lines.get(i));
            if (t != null && t.startsWith(prefix) && t.indexOf('.', prefix.length()) < 0) {
                removeLine(i);
                removed++;
            }
        }
        return removed;
    }

    /** Removes a line, and a blank line that the removal leaves doubled or at either end. */
    private void removeLine(int i) {
        lines.remove(i);
        if (i < lines.size() && lines.get(i).isBlank() && (i == 0 || lines.get(i - 1).isBlank())) {
            lines.remove(i);
        } else if (i == lines.size() && i > 0 && lines.get(i - 1).isBlank()) {
            lines.remove(i - 1);
        }
    }

    public String text() {
        String joined = String.join(newline, lines);
        return (byteOrderMark ? "\uFEFF" : "") + (finalNewline && !lines.isEmpty() ? joined + newline : joined);
    }

    /** The token on a line, or null for a blank, comment or malformed line. */
    static String token(String line) {
        String content = ClusterDbParser.withoutComment(line);
        int eq = content.indexOf('=');
        return eq < 0 ? null : content.substring(0, eq).strip();
    }

    /** {@code member.NAME}, {@code partition.NAME}, {@code daemon} or "" for the cluster's own tokens. */
    static String group(String token) {
        if (token.startsWith("member.") || token.startsWith("partition.")) {
            int dot = token.lastIndexOf('.');
            return dot > token.indexOf('.') ? token.substring(0, dot) : token;
        }
        return kind(token);
    }

    private static String kind(String token) {
        for (String k : List.of("member", "partition", "daemon")) {
            if (token.startsWith(k + ".")) {
                return k;
            }
        }
        return "";
    }

    private int find(String token) {
        for (int i = 0; i < lines.size(); i++) {
            if (token.equals(token(lines.get(i)))) {
                return i;
            }
        }
        return -1;
    }

    private int lastWhere(java.util.function.Predicate<String> tokenTest) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            String t = token(lines.get(i));
            if (t != null && tokenTest.test(t)) {
                return i;
            }
        }
        return -1;
    }
}

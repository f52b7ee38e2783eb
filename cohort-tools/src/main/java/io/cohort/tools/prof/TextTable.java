package io.cohort.tools.prof;

import java.util.ArrayList;
import java.util.List;

/**
 * A table of the text report: columns separated by at least two spaces, numbers right-aligned, text
 * left-aligned. The last column is never padded, so a name with spaces (a region) can only be
 * there and a script splitting on whitespace with a limit still reads it whole.
 */
final class TextTable {
    private final String[] headers;
    private final boolean[] numeric;
    private final List<String[]> rows = new ArrayList<>();

    /** A heading ending in {@code <} is a text column (left-aligned); the marker is not printed. */
    TextTable(String... headers) {
        this.headers = new String[headers.length];
        this.numeric = new boolean[headers.length];
        for (int i = 0; i < headers.length; i++) {
            boolean text = headers[i].endsWith("<");
            this.headers[i] = text ? headers[i].substring(0, headers[i].length() - 1) : headers[i];
            this.numeric[i] = !text;
        }
    }

    TextTable row(String... cells) {
        if (cells.length != headers.length) {
            throw new IllegalArgumentException(cells.length + " cells for " + headers.length + " columns");
        }
        rows.add(cells);
        return this;
    }

    void appendTo(StringBuilder out) {
        int[] width = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            width[i] = headers[i].length();
            for (String[] r : rows) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        line(out, headers, width);
        for (String[] r : rows) {
            line(out, r, width);
        }
    }

    private void line(StringBuilder out, String[] cells, int[] width) {
        int start = out.length();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                out.append("  ");
            }
            boolean last = i == cells.length - 1;
            int pad = width[i] - cells[i].length();
            if (numeric[i]) {
                out.append(" ".repeat(pad)).append(cells[i]);
            } else {
                out.append(cells[i]);
                if (!last) {
                    out.append(" ".repeat(pad));
                }
            }
        }
        // Trailing blanks only come from an empty last cell; scripts and diffs are happier without them.
        int end = out.length();
        while (end > start && out.charAt(end - 1) == ' ') {
            end--;
        }
        out.setLength(end);
        out.append('\n');
    }
}

package io.cohort.tools.prof;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The text report read back the way a script would, by its documented layout: header lines
 * {@code @ Name : value}, sections {@code @--- Title ---}, a line of column names, rows split on
 * whitespace (the last column taking the rest of the line), a blank line.
 */
final class ReportSections {
    final Map<String, String> header = new LinkedHashMap<>();
    /** Section title (without the dashes) to its rows, the column names first. */
    final Map<String, List<String[]>> sections = new LinkedHashMap<>();
    boolean ended;

    static ReportSections parse(String report) {
        ReportSections r = new ReportSections();
        String[] lines = report.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (l.equals("@--- End of report")) {
                r.ended = true;
            } else if (l.startsWith("@--- ")) {
                String title = l.substring(5).replaceAll("\\s+-+$", "");
                String[] heads = lines[++i].trim().split("\\s+");
                List<String[]> rows = new ArrayList<>();
                rows.add(heads);
                while (!lines[++i].isEmpty()) {
                    rows.add(lines[i].trim().split("\\s+", heads.length));
                }
                r.sections.put(title, rows);
            } else if (l.startsWith("@ ") && l.contains(" : ")) {
                int colon = l.indexOf(" : ");
                r.header.put(l.substring(2, colon).trim(), l.substring(colon + 3));
            }
        }
        return r;
    }

    /** The rows (without column names) of the section whose title starts with {@code prefix}. */
    List<String[]> rows(String prefix) {
        List<String[]> all = section(prefix);
        return all.subList(1, all.size());
    }

    String[] columns(String prefix) {
        return section(prefix).get(0);
    }

    String title(String prefix) {
        return sections.keySet().stream().filter(t -> t.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no section " + prefix + " in " + sections.keySet()));
    }

    private List<String[]> section(String prefix) {
        return sections.get(title(prefix));
    }

    /** The row whose first cell is {@code key}. */
    String[] row(String prefix, String key) {
        return rows(prefix).stream().filter(r -> r[0].equals(key)).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + key + " in " + prefix));
    }
}

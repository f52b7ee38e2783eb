package io.cohort.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

/**
 * Reads the configuration database's text ({@code token = value} lines, the grammar of docs/cluster.md)
 * or a zone's TXT records ({@code token=value} each) into a validated {@link ClusterDb}. The first
 * error ends the parse: a {@link ClusterDbException} whose one-line message names the origin, the line
 * or TXT record and the token. Stateless; any thread.
 */
public final class ClusterDbParser {

    private ClusterDbParser() {
    }

    /**
     * One {@code token = value} pair and where it came from.
     *
     * @param token the token, as written
     * @param value the value, without surrounding white space
     * @param place the prefix of an error about it: {@code cluster.db:12: member.m3.cpus = 'x'} or
     *              {@code dns:lab: TXT record "member.m3.cpus=x"}
     * @param ref   how another error refers to it: {@code line 12} or {@code TXT record "member.m3.cpus=x"}
     */
    record Entry(String token, String value, String place, String ref) {
        ClusterDbException error(String reason) {
            return new ClusterDbException(place + ": " + reason);
        }
    }

    /**
     * Parses the text of a database file.
     *
     * @param text   the file's text (LF or CRLF line ends)
     * @param origin how errors name the file, usually its path as the user gave it
     */
    public static ClusterDb parse(String text, String origin) {
        return new ClusterDbAssembler(origin, false, OptionalLong.empty()).assemble(lines(text, origin));
    }

    /**
     * Parses a zone's TXT records. DNS does not keep their order, so the records are taken in the
     * natural order of their tokens (digit runs compare as numbers: {@code m2} before {@code m10});
     * members and partitions then come in that order unless {@code member_order} and
     * {@code partition_order} give it.
     *
     * @param records one {@code token=value} string per TXT record (its character-strings joined)
     * @param origin  how errors name the zone, e.g. {@code dns://10.0.0.1/lab}
     * @param serial  the zone's SOA serial, which is then the version, or empty
     */
    public static ClusterDb parseRecords(Collection<String> records, String origin, OptionalLong serial) {
        List<Entry> entries = new ArrayList<>();
        for (String record : records) {
            String place = origin + ": TXT record \"" + record + "\"";
            int eq = record.indexOf('=');
            if (eq <= 0) {
                throw new ClusterDbException(place + ": a record of the cluster's zone must be 'token=value'");
            }
            entries.add(new Entry(record.substring(0, eq).strip(), record.substring(eq + 1).strip(), place,
                    "TXT record \"" + record + "\""));
        }
        entries.sort(Comparator.comparing(Entry::token, ClusterDbParser::compareNatural)
                .thenComparing(Entry::value));
        return new ClusterDbAssembler(origin, true, serial).assemble(entries);
    }

    /** Splits a file into entries; comments and blank lines drop out. */
    static List<Entry> lines(String text, String origin) {
        List<Entry> entries = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String raw = i == 0 && lines[0].startsWith("\uFEFF") ? lines[0].substring(1) : lines[i];
            String line = withoutComment(raw).strip();
            if (line.isEmpty()) {
                continue;
            }
            String at = origin + ":" + (i + 1);
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw new ClusterDbException(at + ": '" + line + "': a line must be 'token = value'"
                        + " or a comment starting with '#'");
            }
            String token = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (token.isEmpty()) {
                throw new ClusterDbException(at + ": '" + line + "': the token before '=' is missing");
            }
            entries.add(new Entry(token, value, at + ": " + token + " = '" + value + "'", "line " + (i + 1)));
        }
        return entries;
    }

    /** A comment starts with '#' at the start of the line or after white space, and runs to its end. */
    static String withoutComment(String line) {
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /** Natural order: runs of digits compare by their numeric value, the rest character by character. */
    static int compareNatural(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i);
            char cb = b.charAt(j);
            if (Character.isDigit(ca) && Character.isDigit(cb)) {
                int ei = i;
                int ej = j;
                while (ei < a.length() && Character.isDigit(a.charAt(ei))) {
                    ei++;
                }
                while (ej < b.length() && Character.isDigit(b.charAt(ej))) {
                    ej++;
                }
                String da = a.substring(i, ei).replaceFirst("^0+(?=.)", "");
                String db = b.substring(j, ej).replaceFirst("^0+(?=.)", "");
                int c = da.length() != db.length() ? Integer.compare(da.length(), db.length()) : da.compareTo(db);
                if (c != 0) {
                    return c;
                }
                i = ei;
                j = ej;
            } else {
                if (ca != cb) {
                    return Character.compare(ca, cb);
                }
                i++;
                j++;
            }
        }
        int c = Integer.compare(a.length() - i, b.length() - j);
        return c != 0 ? c : a.compareTo(b);
    }
}

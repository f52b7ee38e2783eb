package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.Partition;
import io.cohort.daemon.MemberStatus;
import io.cohort.daemon.StatusTable;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How {@code cohort status} prints a load server's table: one row per member per partition (as
 * {@code sinfo -N -l}), columns separated by spaces, {@code -} for nothing, the free-text REASON last;
 * or the same as JSON. The layout is documented in docs/cluster.md and is kept stable for scripts.
 */
final class StatusFormat {
    static final List<String> COLUMNS = List.of("PARTITION", "MEMBER", "STATE", "LOAD1", "LOAD5", "LOAD15", "CPUS", "SLOTS", "JOBS", "REASON");

    private StatusFormat() {
    }

    /** Partition name to member names, in the database's order; members in no partition under "-". */
    static Map<String, List<String>> partitions(ClusterDb db, StatusTable t, String only) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Set<String> placed = new HashSet<>();
        for (Partition p : db.partitions().values()) {
            if (only == null || only.equals(p.name())) {
                out.put(p.name(), p.members());
            }
            placed.addAll(p.members());
        }
        if (only == null) {
            List<String> rest = t.members().stream().map(MemberStatus::name).filter(n -> !placed.contains(n)).toList();
            if (!rest.isEmpty()) {
                out.put("-", rest);
            }
        }
        return out;
    }

    static String text(ClusterDb db, StatusTable t, String only) {
        List<String[]> rows = new ArrayList<>();
        rows.add(COLUMNS.toArray(new String[0]));
        Map<String, MemberStatus> byName = t.byName();
        partitions(db, t, only).forEach((p, names) -> {
            for (String n : names) {
                MemberStatus m = byName.get(n);
                if (m != null) {
                    String reason = m.reason().isEmpty() ? "-" : m.reason();
                    if (m.drained() && !reason.equals(m.drainReason())) {
                        reason += "; drained: " + m.drainReason();
                    }
                    rows.add(new String[]{p, n, m.state().label(), load(m.load1()), load(m.load5()), load(m.load15()),
                            Integer.toString(m.cpus()), Integer.toString(m.slots()), Integer.toString(m.jobs().size()), reason});
                }
            }
        });
        int[] width = new int[COLUMNS.size() - 1];
        for (String[] r : rows) {
            for (int i = 0; i < width.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        b.append("cluster ").append(t.cluster()).append(", load server ").append(t.server()).append(", ")
                .append(Instant.ofEpochMilli(t.time())).append('\n');
        for (String[] r : rows) {
            for (int i = 0; i < width.length; i++) {
                b.append(r[i]).append(" ".repeat(width[i] - r[i].length() + 2));
            }
            b.append(r[width.length]).append('\n');
        }
        return b.toString();
    }

    private static String load(double d) {
        return d < 0 ? "-" : String.format(Locale.ROOT, "%.2f", d);
    }

    static String json(ClusterDb db, StatusTable t, String only) {
        StringBuilder b = new StringBuilder();
        b.append("{\"cluster\":").append(str(t.cluster())).append(",\"loadServer\":").append(str(t.server()))
                .append(",\"time\":").append(str(Instant.ofEpochMilli(t.time()).toString())).append(",\"partitions\":[");
        boolean firstP = true;
        Map<String, MemberStatus> byName = t.byName();
        for (Map.Entry<String, List<String>> e : partitions(db, t, only).entrySet()) {
            b.append(firstP ? "" : ",").append("{\"name\":").append(e.getKey().equals("-") ? "null" : str(e.getKey())).append(",\"members\":[");
            firstP = false;
            boolean firstM = true;
            for (String n : e.getValue()) {
                MemberStatus m = byName.get(n);
                if (m == null) {
                    continue;
                }
                b.append(firstM ? "" : ",");
                firstM = false;
                b.append("{\"name\":").append(str(m.name())).append(",\"state\":").append(str(m.state().label()))
                        .append(",\"load\":[").append(num(m.load1())).append(',').append(num(m.load5())).append(',').append(num(m.load15()))
                        .append("],\"cpus\":").append(m.cpus()).append(",\"slots\":").append(m.slots())
                        .append(",\"activeJobs\":").append(m.jobs().size()).append(",\"jobs\":[")
                        .append(String.join(",", m.jobs().stream().map(StatusFormat::str).toList())).append(']')
                        .append(",\"lastUpdate\":").append(time(m.lastUpdate())).append(",\"since\":").append(time(m.since()))
                        .append(",\"reason\":").append(m.reason().isEmpty() ? "null" : str(m.reason()))
                        .append(",\"drained\":").append(m.drained())
                        .append(",\"drainReason\":").append(m.drained() ? str(m.drainReason()) : "null").append('}');
            }
            b.append("]}");
        }
        b.append("],\"counters\":{");
        b.append(String.join(",", t.counters().entrySet().stream().map(c -> str(c.getKey()) + ":" + c.getValue()).toList()));
        return b.append("}}\n").toString();
    }

    private static String num(double d) {
        return d < 0 ? "null" : String.format(Locale.ROOT, "%.2f", d);
    }

    private static String time(long ms) {
        return ms < 0 ? "null" : str(Instant.ofEpochMilli(ms).toString());
    }

    static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}

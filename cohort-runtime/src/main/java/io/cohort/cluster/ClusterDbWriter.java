package io.cohort.cluster;

import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Writes a {@link ClusterDb} as canonical database text, which {@link ClusterDbParser#parse} reads back
 * to an equal value, and as DNS data: {@code txt-record=} lines for dnsmasq and a BIND zone fragment.
 * Attributes at their default are left out; lists of members are written out in full (a partition read
 * from {@code members = *} lists every member). Stateless; any thread.
 */
public final class ClusterDbWriter {
    /** The longest character-string a TXT record holds; longer values are split over several. */
    static final int TXT_STRING_MAX = 255;
    /** The largest SOA serial (an unsigned 32-bit number). */
    static final long MAX_SERIAL = 0xFFFF_FFFFL;

    private ClusterDbWriter() {
    }

    /** The canonical file text: cluster tokens, non-default daemon settings, then each member and partition. */
    public static String format(ClusterDb db) {
        StringBuilder b = new StringBuilder("# Cohort cluster configuration database (see docs/cluster.md)\n");
        String section = "";
        for (Map.Entry<String, String> t : tokens(db, false)) {
            String s = sectionOf(t.getKey());
            if (!s.equals(section)) {
                b.append('\n');
                section = s;
            }
            b.append(t.getKey()).append(" = ").append(t.getValue()).append('\n');
        }
        return b.toString();
    }

    /** {@code txt-record=ZONE,"token=value"} lines for a dnsmasq configuration file. */
    public static String formatDnsmasq(ClusterDb db) {
        StringBuilder b = new StringBuilder("# Cohort cluster database '" + db.name() + "', version " + db.version()
                + " (cohort db print --format dnsmasq)\n");
        for (Map.Entry<String, String> t : tokens(db, true)) {
            b.append("txt-record=").append(db.name());
            for (String chunk : txtStrings(t.getKey() + "=" + t.getValue())) {
                b.append(",\"").append(escape(chunk)).append('"');
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** A BIND zone file fragment: an SOA whose serial is the version, and one TXT record per token. */
    public static String formatZone(ClusterDb db) {
        if (db.version() > MAX_SERIAL) {
            throw new ClusterDbException("version " + db.version() + " does not fit a zone's serial number"
                    + " (at most " + MAX_SERIAL + ")");
        }
        StringBuilder b = new StringBuilder();
        b.append("; Cohort cluster database '").append(db.name()).append("', version ").append(db.version())
                .append(" (cohort db print --format zone); add the zone's NS records\n");
        b.append("$ORIGIN ").append(db.name().toLowerCase(Locale.ROOT).replaceAll("\\.$", "")).append(".\n");
        b.append("$TTL 300\n");
        b.append("@\tIN\tSOA\tns hostmaster ( ").append(db.version()).append(" 3600 600 604800 300 )\n");
        for (Map.Entry<String, String> t : tokens(db, true)) {
            b.append("@\tIN\tTXT\t");
            String sep = "";
            for (String chunk : txtStrings(t.getKey() + "=" + t.getValue())) {
                b.append(sep).append('"').append(escape(chunk)).append('"');
                sep = " ";
            }
            b.append('\n');
        }
        return b.toString();
    }

    /**
     * The database as ordered {@code token, value} pairs. With {@code withOrder}, for DNS, which keeps no
     * order, {@code member_order} and {@code partition_order} carry the members' and partitions' order.
     */
    public static List<Map.Entry<String, String>> tokens(ClusterDb db, boolean withOrder) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        add(out, "cluster", db.name());
        add(out, "version", Long.toString(db.version()));
        add(out, "default_partition", db.defaultPartition());
        add(out, "load_servers", String.join(", ", db.loadServers()));
        if (withOrder && !db.members().isEmpty()) {
            add(out, "member_order", String.join(", ", db.members().keySet()));
        }
        if (withOrder && !db.partitions().isEmpty()) {
            add(out, "partition_order", String.join(", ", db.partitions().keySet()));
        }
        DaemonSettings d = db.daemon();
        DaemonSettings def = DaemonSettings.defaults();
        addIf(out, d.port() != def.port(), "daemon.port", Integer.toString(d.port()));
        addIf(out, !d.updateInterval().equals(def.updateInterval()), "daemon.update_interval",
                ClusterDbValues.formatDuration(d.updateInterval()));
        addIf(out, !d.ttl().equals(def.ttl()), "daemon.ttl", ClusterDbValues.formatDuration(d.ttl()));
        addIf(out, !d.heartbeat().equals(def.heartbeat()), "daemon.heartbeat",
                ClusterDbValues.formatDuration(d.heartbeat()));
        addIf(out, !d.ringTimeout().equals(def.ringTimeout()), "daemon.ring_timeout",
                ClusterDbValues.formatDuration(d.ringTimeout()));
        addIf(out, !d.maxSkew().equals(def.maxSkew()), "daemon.max_skew", ClusterDbValues.formatDuration(d.maxSkew()));
        addIf(out, !d.authTimeout().equals(def.authTimeout()), "daemon.auth_timeout",
                ClusterDbValues.formatDuration(d.authTimeout()));
        for (Member m : db.members().values()) {
            String p = "member." + m.name() + ".";
            add(out, p + "address", m.address());
            add(out, p + "cpus", Integer.toString(m.cpus()));
            addIf(out, m.slots() != m.cpus(), p + "slots", Integer.toString(m.slots()));
        }
        for (Partition part : db.partitions().values()) {
            String p = "partition." + part.name() + ".";
            add(out, p + "members", String.join(", ", part.members()));
            addIf(out, !part.transport().equals("auto"), p + "transport", part.transport());
            addIf(out, part.nice() != 0, p + "nice", Integer.toString(part.nice()));
            addIf(out, part.minNice() != part.nice(), p + "min_nice", Integer.toString(part.minNice()));
            addIf(out, part.policy() != SchedulingPolicy.NORMAL, p + "policy", lower(part.policy()));
            addIf(out, part.rtPriority() != 1, p + "rt_priority", Integer.toString(part.rtPriority()));
            addIf(out, part.maxRtPriority() != part.rtPriority(), p + "max_rt_priority",
                    Integer.toString(part.maxRtPriority()));
            addIf(out, !part.users().equals(java.util.Set.of("*")), p + "users", sorted(part.users()));
            addIf(out, !part.groups().isEmpty(), p + "groups", sorted(part.groups()));
            addIf(out, part.network() != null, p + "network", part.network());
            addIf(out, part.mode() != PlacementMode.PHYSICAL, p + "mode", lower(part.mode()));
        }
        return out;
    }

    /** A TXT record's text as character-strings of at most 255 bytes (values are ASCII: a char is a byte). */
    static List<String> txtStrings(String record) {
        List<String> chunks = new ArrayList<>();
        for (int i = 0; i < record.length(); i += TXT_STRING_MAX) {
            chunks.add(record.substring(i, Math.min(record.length(), i + TXT_STRING_MAX)));
        }
        return chunks;
    }

    private static String sectionOf(String token) {
        if (token.startsWith("member.") || token.startsWith("partition.")) {
            return token.substring(0, token.lastIndexOf('.'));
        }
        return token.startsWith("daemon.") ? "daemon" : "";
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static String sorted(java.util.Set<String> names) {
        return String.join(", ", new TreeSet<>(names));
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    private static void add(List<Map.Entry<String, String>> out, String token, String value) {
        out.add(new SimpleImmutableEntry<>(token, value));
    }

    private static void addIf(List<Map.Entry<String, String>> out, boolean when, String token, String value) {
        if (when) {
            add(out, token, value);
        }
    }
}

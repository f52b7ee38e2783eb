package io.cohort.cluster;

import io.cohort.cluster.ClusterDbParser.Entry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Turns a database's entries into a {@link ClusterDb}: reads each value (syntax errors first, in the
 * entries' order), then checks what spans entries (required tokens, references between members,
 * partitions and load servers, ranges that depend on each other). One instance per parse; one thread.
 */
final class ClusterDbAssembler {
    /** Tokens that are not per member, per partition or daemon settings. */
    static final List<String> CLUSTER_TOKENS =
            List.of("cluster", "version", "default_partition", "load_servers", "member_order", "partition_order");
    static final List<String> DAEMON_ATTRS =
            List.of("port", "update_interval", "ttl", "heartbeat", "ring_timeout", "max_skew", "auth_timeout");
    static final List<String> MEMBER_ATTRS = List.of("address", "cpus", "slots");
    static final List<String> PARTITION_ATTRS = List.of("members", "transport", "nice", "min_nice", "policy",
            "rt_priority", "max_rt_priority", "users", "groups", "network", "mode");

    private final String origin;
    private final boolean dns;
    private final OptionalLong serial;
    private final Map<String, Entry> seen = new HashMap<>();
    private final Map<String, Object> values = new HashMap<>();
    /** Member and partition names with the entry that first named them, in order of appearance. */
    private final Map<String, Entry> members = new LinkedHashMap<>();
    private final Map<String, Entry> partitions = new LinkedHashMap<>();

    ClusterDbAssembler(String origin, boolean dns, OptionalLong serial) {
        this.origin = origin;
        this.dns = dns;
        this.serial = serial;
    }

    ClusterDb assemble(List<Entry> entries) {
        for (Entry e : entries) {
            Entry first = seen.putIfAbsent(e.token(), e);
            if (first != null) {
                throw e.error("'" + e.token() + "' is given twice; the first is " + first.ref());
            }
            try {
                values.put(e.token(), read(e));
            } catch (IllegalArgumentException bad) {
                throw e.error(bad.getMessage());
            }
        }
        return build();
    }

    private Object read(Entry e) {
        String t = e.token();
        String v = e.value();
        switch (t) {
            case "cluster": return ClusterDbValues.clusterName(v);
            case "version": return ClusterDbValues.version(v);
            case "default_partition": return ClusterDbValues.name(v, "partition");
            case "load_servers": return ClusterDbValues.names(v, 1, false, "member");
            case "member_order": return ClusterDbValues.names(v, 1, false, "member");
            case "partition_order": return ClusterDbValues.names(v, 1, false, "partition");
            default: break;
        }
        if (t.startsWith("daemon.")) {
            return readDaemon(t.substring("daemon.".length()), v);
        }
        if (t.startsWith("member.") || t.startsWith("partition.")) {
            boolean member = t.startsWith("member.");
            String kind = member ? "member" : "partition";
            String rest = t.substring(kind.length() + 1);
            int dot = rest.lastIndexOf('.');
            List<String> attrs = member ? MEMBER_ATTRS : PARTITION_ATTRS;
            if (dot < 0) {
                throw new IllegalArgumentException("unknown token; a " + kind + " token is " + kind
                        + ".NAME.ATTRIBUTE with an attribute of " + String.join(", ", attrs));
            }
            String name = ClusterDbValues.name(rest.substring(0, dot), kind);
            String attr = rest.substring(dot + 1);
            if (!attrs.contains(attr)) {
                throw new IllegalArgumentException("unknown " + kind + " attribute '" + attr + "'; known: "
                        + String.join(", ", attrs));
            }
            if (member && members.size() == Member.MAX_MEMBERS && !members.containsKey(name)) {
                throw new IllegalArgumentException("member '" + name + "' would be member " + (Member.MAX_MEMBERS + 1)
                        + "; a cluster has at most " + Member.MAX_MEMBERS + " members");
            }
            (member ? members : partitions).putIfAbsent(name, e);
            return member ? readMember(attr, v) : readPartition(attr, v);
        }
        throw new IllegalArgumentException("unknown token; see docs/cluster.md for the tokens of the database");
    }

    private static Object readDaemon(String attr, String v) {
        return switch (attr) {
            case "port" -> ClusterDbValues.integer(v, 1, 65535, "the port");
            case "update_interval" -> ClusterDbValues.duration(v, "the update interval");
            case "ttl" -> ClusterDbValues.duration(v, "the time-to-live");
            case "heartbeat" -> ClusterDbValues.duration(v, "the heartbeat interval");
            case "ring_timeout" -> ClusterDbValues.duration(v, "the ring time-out");
            case "max_skew" -> ClusterDbValues.duration(v, "the largest clock skew");
            case "auth_timeout" -> ClusterDbValues.duration(v, "the time for a connection's first authentic frame");
            default -> throw new IllegalArgumentException("unknown daemon setting; known: "
                    + String.join(", ", DAEMON_ATTRS));
        };
    }

    private static Object readMember(String attr, String v) {
        return switch (attr) {
            case "address" -> ClusterDbValues.address(v);
            case "cpus" -> ClusterDbValues.integer(v, 1, ClusterDbValues.MAX_CPUS, "the number of CPUs");
            default -> ClusterDbValues.integer(v, 0, ClusterDbValues.MAX_SLOTS, "the number of job slots");
        };
    }

    private static Object readPartition(String attr, String v) {
        return switch (attr) {
            case "members" -> ClusterDbValues.names(v, 1, true, "member");
            case "transport" -> ClusterDbValues.transport(v);
            case "nice", "min_nice" -> ClusterDbValues.integer(v, -20, 19, "a nice value");
            case "policy" -> ClusterDbValues.enumValue(v, SchedulingPolicy.class, "the policy");
            case "rt_priority", "max_rt_priority" -> ClusterDbValues.integer(v, 1, 99, "a real-time priority");
            case "users" -> ClusterDbValues.accounts(v, true, "user");
            case "groups" -> ClusterDbValues.accounts(v, false, "group");
            case "network" -> ClusterDbValues.cidr(v);
            default -> ClusterDbValues.enumValue(v, PlacementMode.class, "the mode");
        };
    }

    private ClusterDb build() {
        String name = required("cluster", "lab");
        long version = serial.isPresent() ? serial.getAsLong() : required("version", "1");
        String defaultPartition = required("default_partition", "all");
        List<String> loadServers = required("load_servers", "m1");
        DaemonSettings daemon = daemon();

        Map<String, Member> memberMap = new LinkedHashMap<>();
        Map<String, String> memberAt = new HashMap<>();
        for (String m : ordered("member_order", members, "member")) {
            String p = "member." + m + ".";
            String address = get(p + "address", null);
            if (address == null) {
                throw members.get(m).error("member '" + m + "' has no address; add " + example(p + "address", "10.0.0.1"));
            }
            String other = memberAt.putIfAbsent(ClusterDbValues.addressKey(address), m);
            if (other != null) {
                // Daemons find each other by address and the one daemon.port, so two members there are one daemon.
                throw seen.get(p + "address").error("member '" + m + "' has the address of member '" + other
                        + "'; every member needs its own, since a member's daemon is found by its address");
            }
            int cpus = get(p + "cpus", 1);
            memberMap.put(m, new Member(m, address, cpus, get(p + "slots", cpus)));
        }
        Map<String, Partition> partitionMap = new LinkedHashMap<>();
        for (String part : ordered("partition_order", partitions, "partition")) {
            partitionMap.put(part, partition(part, memberMap));
        }
        if (!partitionMap.containsKey(defaultPartition)) {
            throw seen.get("default_partition").error("no partition '" + defaultPartition + "' is defined; define "
                    + "partition." + defaultPartition + ".members or name another partition");
        }
        for (String s : loadServers) {
            if (!memberMap.containsKey(s)) {
                throw seen.get("load_servers").error("load server '" + s + "' is not a member; define member."
                        + s + ".address or remove it from the list");
            }
        }
        return new ClusterDb(name, version, defaultPartition, loadServers, daemon, memberMap, partitionMap);
    }

    private Partition partition(String name, Map<String, Member> memberMap) {
        String p = "partition." + name + ".";
        List<String> listed = get(p + "members", null);
        if (listed == null) {
            throw partitions.get(name).error("partition '" + name + "' has no members; add "
                    + example(p + "members", "*"));
        }
        List<String> list = listed.equals(List.of("*")) ? new ArrayList<>(memberMap.keySet()) : listed;
        for (String m : list) {
            if (!memberMap.containsKey(m)) {
                throw seen.get(p + "members").error("'" + m + "' is not a member; define member." + m
                        + ".address or remove it from the list");
            }
        }
        int nice = get(p + "nice", 0);
        int minNice = get(p + "min_nice", nice);
        if (minNice > nice) {
            throw at(p + "min_nice", p + "nice").error("min_nice (" + minNice + ") must not be above nice (" + nice
                    + "): it is the highest priority a job may ask for");
        }
        int rt = get(p + "rt_priority", 1);
        int maxRt = get(p + "max_rt_priority", rt);
        if (maxRt < rt) {
            throw at(p + "max_rt_priority", p + "rt_priority").error("max_rt_priority (" + maxRt
                    + ") must not be below rt_priority (" + rt + ")");
        }
        List<String> users = get(p + "users", List.of("*"));
        List<String> groups = get(p + "groups", List.of());
        return new Partition(name, list, get(p + "transport", "auto"), nice, minNice,
                get(p + "policy", SchedulingPolicy.NORMAL), rt, maxRt, Set.copyOf(users), Set.copyOf(groups),
                get(p + "network", null), get(p + "mode", PlacementMode.PHYSICAL));
    }

    private DaemonSettings daemon() {
        DaemonSettings d = DaemonSettings.defaults();
        DaemonSettings s = new DaemonSettings(get("daemon.port", d.port()),
                get("daemon.update_interval", d.updateInterval()), get("daemon.ttl", d.ttl()),
                get("daemon.heartbeat", d.heartbeat()), get("daemon.ring_timeout", d.ringTimeout()),
                get("daemon.max_skew", d.maxSkew()), get("daemon.auth_timeout", d.authTimeout()));
        java.util.Optional<DaemonSettings.Violation> v = s.violation();
        if (v.isPresent()) {
            throw at(v.get().token(), v.get().otherToken()).error(v.get().message());
        }
        return s;
    }

    /** Names in the order token's list gives, which must hold each defined name once, or as they appeared. */
    private List<String> ordered(String orderToken, Map<String, Entry> defined, String kind) {
        List<String> order = get(orderToken, null);
        if (order == null) {
            return new ArrayList<>(defined.keySet());
        }
        Set<String> missing = new LinkedHashSet<>(defined.keySet());
        for (String n : order) {
            if (!missing.remove(n)) {
                throw seen.get(orderToken).error("'" + n + "' is not a " + kind + "; list each " + kind + " once");
            }
        }
        if (!missing.isEmpty()) {
            throw seen.get(orderToken).error(kind + " '" + missing.iterator().next() + "' is missing from the list;"
                    + " list each " + kind + " once");
        }
        return order;
    }

    @SuppressWarnings("unchecked")
    private <T> T required(String token, String exampleValue) {
        Object v = values.get(token);
        if (v == null) {
            throw new ClusterDbException(origin + ": the required token '" + token + "' is missing; add "
                    + example(token, exampleValue));
        }
        return (T) v;
    }

    @SuppressWarnings("unchecked")
    private <T> T get(String token, T fallback) {
        Object v = values.get(token);
        return v == null ? fallback : (T) v;
    }

    /** The entry to blame for an inconsistency between two tokens: the first one given, else the second. */
    private Entry at(String token, String otherToken) {
        Entry e = seen.get(token);
        return e != null ? e : seen.get(otherToken);
    }

    private String example(String token, String value) {
        return dns ? "a TXT record '" + token + "=" + value + "'" : "a line '" + token + " = " + value + "'";
    }
}

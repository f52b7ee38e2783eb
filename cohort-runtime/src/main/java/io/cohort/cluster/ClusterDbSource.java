package io.cohort.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PLACEHOLDER, to be replaced at merge by the real {@code ClusterDbSource} (and {@code ClusterDbParser})
 * of the cluster-database work, which owns the file grammar, DNS TXT sources and validation. This stand-in
 * exists only so that {@code cohort daemon --cluster-db FILE} and the daemon's system tests run on this
 * branch: it reads {@code token = value} lines of a file with the few tokens the daemons need
 * ({@code cluster}, {@code version}, {@code default_partition}, {@code load_servers}, {@code daemon.*},
 * {@code member.NAME.address|cpus|slots}, {@code partition.NAME.members}) and checks almost nothing.
 */
public final class ClusterDbSource {
    private ClusterDbSource() {
    }

    /** Reads the database from a file path (the only source this stand-in knows). */
    public static ClusterDb load(String spec) throws IOException {
        Map<String, String> t = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of(spec), StandardCharsets.UTF_8)) {
            String l = line.strip();
            int eq = l.indexOf('=');
            if (!l.isEmpty() && !l.startsWith("#") && eq > 0) {
                t.put(l.substring(0, eq).strip(), l.substring(eq + 1).strip());
            }
        }
        Map<String, Member> members = new LinkedHashMap<>();
        Map<String, Partition> partitions = new LinkedHashMap<>();
        Map<String, Map<String, String>> byMember = new LinkedHashMap<>();
        t.forEach((k, v) -> {
            String[] w = k.split("\\.");
            if (w.length == 3 && w[0].equals("member")) {
                byMember.computeIfAbsent(w[1], n -> new HashMap<>()).put(w[2], v);
            } else if (w.length == 3 && w[0].equals("partition") && w[2].equals("members")) {
                partitions.put(w[1], new Partition(w[1], list(v), "auto", 0, 0, SchedulingPolicy.NORMAL, 1, 1, Set.of("*"),
                        Set.of(), null, PlacementMode.PHYSICAL));
            }
        });
        byMember.forEach((n, a) -> members.put(n, new Member(n, a.get("address"), Integer.parseInt(a.getOrDefault("cpus", "1")),
                Integer.parseInt(a.getOrDefault("slots", "1")))));
        DaemonSettings d = DaemonSettings.defaults();
        DaemonSettings s = new DaemonSettings(Integer.parseInt(t.getOrDefault("daemon.port", "" + d.port())),
                time(t, "daemon.updateInterval", d.updateInterval()), time(t, "daemon.ttl", d.ttl()),
                time(t, "daemon.heartbeat", d.heartbeat()), time(t, "daemon.ringTimeout", d.ringTimeout()),
                time(t, "daemon.maxSkew", d.maxSkew()));
        return new ClusterDb(t.getOrDefault("cluster", "cohort"), Long.parseLong(t.getOrDefault("version", "1")),
                t.getOrDefault("default_partition", partitions.isEmpty() ? "" : partitions.keySet().iterator().next()),
                list(t.getOrDefault("load_servers", "")), s, members, partitions);
    }

    private static List<String> list(String v) {
        return Arrays.stream(v.split("[,\\s]+")).filter(x -> !x.isEmpty()).toList();
    }

    /** {@code 500ms}, {@code 2s}, {@code 1m}; a bare number is seconds. */
    private static Duration time(Map<String, String> t, String key, Duration fallback) {
        String v = t.get(key);
        if (v == null) {
            return fallback;
        }
        if (v.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2).strip()));
        }
        if (v.endsWith("m")) {
            return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1).strip()));
        }
        return Duration.ofMillis(Math.round(Double.parseDouble(v.endsWith("s") ? v.substring(0, v.length() - 1) : v) * 1000));
    }
}

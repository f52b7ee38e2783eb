package io.cohort.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The writer's text parses back to an equal value, for many generated databases. */
@Timeout(30)
class ClusterDbWriterTest {

    @Test
    void roundTripOverGeneratedDatabases() {
        Random random = new Random(20240607L);
        for (int i = 0; i < 500; i++) {
            ClusterDb db = generate(random);
            String text = ClusterDbWriter.format(db);
            ClusterDb back = ClusterDbParser.parse(text, "gen" + i);
            assertEquals(db, back, text);
            assertEquals(db.memberOrder(), back.memberOrder(), text);
            assertEquals(List.copyOf(db.partitions().keySet()), List.copyOf(back.partitions().keySet()), text);
            // the DNS forms carry the order in member_order / partition_order, whatever the records' order
            List<String> records = new ArrayList<>();
            ClusterDbWriter.tokens(db, true).forEach(e -> records.add(e.getKey() + "=" + e.getValue()));
            java.util.Collections.shuffle(records, random);
            assertEquals(db, ClusterDbParser.parseRecords(records, "dns:gen", OptionalLong.empty()));
            assertEquals(db.memberOrder(),
                    ClusterDbParser.parseRecords(records, "dns:gen", OptionalLong.empty()).memberOrder());
        }
    }

    @Test
    void canonicalTextOfTheMinimalDatabase() {
        ClusterDb db = ClusterDbParser.parse(ClusterDbParserTest.MINIMAL, "cluster.db");
        assertEquals("""
                # Cohort cluster configuration database (see docs/cluster.md)
                cluster = lab
                version = 7
                default_partition = all
                load_servers = m1

                member.m1.address = 10.0.0.1
                member.m1.cpus = 1

                partition.all.members = m1
                """, ClusterDbWriter.format(db));
        assertEquals(db, ClusterDbParser.parse(ClusterDbWriter.format(db), "again"));
    }

    @Test
    void dnsFormsSplitLongRecordsAndCarryTheSerial() {
        StringBuilder text = new StringBuilder("cluster = lab\nversion = 42\ndefault_partition = all\nload_servers = m1\n");
        for (int i = 1; i <= 60; i++) {
            text.append("member.node-").append(i).append(".address = 10.0.").append(i / 256).append('.').append(i % 256)
                    .append('\n');
        }
        text.append("partition.all.members = *\n");
        ClusterDb db = ClusterDbParser.parse(text.toString().replace("load_servers = m1", "load_servers = node-1"), "f");
        String dnsmasq = ClusterDbWriter.formatDnsmasq(db);
        assertTrue(dnsmasq.contains("txt-record=lab,\"cluster=lab\"\n"), dnsmasq);
        String members = dnsmasq.lines().filter(l -> l.startsWith("txt-record=lab,\"partition.all.members=")).findFirst()
                .orElseThrow();
        assertTrue(members.contains("\",\""), "split over several strings: " + members);
        String zone = ClusterDbWriter.formatZone(db);
        assertTrue(zone.contains("$ORIGIN lab.\n"), zone);
        assertTrue(zone.contains("@\tIN\tSOA\tns hostmaster ( 42 "), zone);
        assertTrue(zone.contains("@\tIN\tTXT\t\"member_order=node-1, node-2,"), zone);
        ClusterDb huge = new ClusterDb("lab", 1L << 33, db.defaultPartition(), db.loadServers(), db.daemon(),
                db.members(), db.partitions());
        assertTrue(assertThrows(ClusterDbException.class, () -> ClusterDbWriter.formatZone(huge)).getMessage()
                .contains("does not fit a zone's serial number"));
    }

    @Test
    void durationsAreWrittenInTheLargestExactUnit() {
        assertEquals("500ms", ClusterDbValues.formatDuration(Duration.ofMillis(500)));
        assertEquals("1500ms", ClusterDbValues.formatDuration(Duration.ofMillis(1500)));
        assertEquals("2s", ClusterDbValues.formatDuration(Duration.ofSeconds(2)));
        assertEquals("90s", ClusterDbValues.formatDuration(Duration.ofSeconds(90)));
        assertEquals("2m", ClusterDbValues.formatDuration(Duration.ofMinutes(2)));
    }

    /** A random valid database: dotted names, every attribute sometimes at its default, sometimes not. */
    static ClusterDb generate(Random r) {
        int n = 1 + r.nextInt(8);
        Map<String, Member> members = new LinkedHashMap<>();
        while (members.size() < n) {
            String name = pick(r, "m", "node", "n.rack", "gpu_", "x-") + r.nextInt(40);
            int cpus = 1 + r.nextInt(64);
            String address = pick(r, "10.0.0." + r.nextInt(256), "fd00::" + Integer.toHexString(r.nextInt(65536)),
                    name.replace('_', '-') + ".example.org");
            if (members.values().stream().anyMatch(m -> m.address().equals(address))) {
                continue; // every member has its own address
            }
            members.put(name, new Member(name, address, cpus, r.nextBoolean() ? cpus : r.nextInt(100)));
        }
        List<String> names = new ArrayList<>(members.keySet());
        Map<String, Partition> partitions = new LinkedHashMap<>();
        int p = 1 + r.nextInt(4);
        while (partitions.size() < p) {
            String name = pick(r, "all", "fast", "p.", "batch-") + (partitions.isEmpty() ? "" : r.nextInt(9));
            List<String> subset = new ArrayList<>(names);
            java.util.Collections.shuffle(subset, r);
            subset = subset.subList(0, 1 + r.nextInt(subset.size()));
            int nice = r.nextInt(40) - 20;
            int minNice = nice - r.nextInt(nice + 21);
            int rt = 1 + r.nextInt(99);
            int maxRt = rt + r.nextInt(100 - rt);
            Set<String> users = r.nextBoolean() ? Set.of("*") : new LinkedHashSet<>(subset(r, "alice", "bob", "carol$"));
            Set<String> groups = new LinkedHashSet<>(subset(r, "hpc", "dev", "ops"));
            String network = pick(r, null, "10.1.0.0/24", "fd00:1::/64", "0.0.0.0/0");
            partitions.put(name, new Partition(name, subset, pick(r, "auto", "tcp", "udp"), nice, minNice,
                    pick(r, SchedulingPolicy.values()), rt, maxRt, users, groups, network, pick(r, PlacementMode.values())));
        }
        List<String> loadServers = new ArrayList<>(names.subList(0, 1 + r.nextInt(names.size())));
        java.util.Collections.shuffle(loadServers, r);
        DaemonSettings d = r.nextBoolean() ? DaemonSettings.defaults() : new DaemonSettings(1 + r.nextInt(65535),
                Duration.ofMillis(100 + r.nextInt(1000)), Duration.ofSeconds(3 + r.nextInt(100)),
                Duration.ofMillis(10 + r.nextInt(490)), Duration.ofSeconds(1 + r.nextInt(3)),
                Duration.ofMinutes(1 + r.nextInt(5)), Duration.ofMillis(100 + r.nextInt(29_901)));
        String cluster = pick(r, "lab", "hpc.example.org", "c-1");
        return new ClusterDb(cluster, r.nextInt(1000), pick(r, partitions.keySet().toArray(new String[0])), loadServers,
                d, members, partitions);
    }

    private static List<String> subset(Random r, String... items) {
        List<String> out = new ArrayList<>();
        for (String s : items) {
            if (r.nextBoolean()) {
                out.add(s);
            }
        }
        return out;
    }

    @SafeVarargs
    private static <T> T pick(Random r, T... choices) {
        return choices[r.nextInt(choices.length)];
    }
}

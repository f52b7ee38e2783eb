package io.cohort.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The grammar of docs/cluster.md: defaults, lists, dotted names, comments, and every error path. */
@Timeout(10)
class ClusterDbParserTest {
    static final String MINIMAL = """
            cluster = lab
            version = 7
            default_partition = all
            load_servers = m1
            member.m1.address = 10.0.0.1
            partition.all.members = *
            """;

    static ClusterDb parse(String text) {
        return ClusterDbParser.parse(text, "cluster.db");
    }

    /** The one-line message of the error the text gives. */
    static String error(String text) {
        ClusterDbException e = assertThrows(ClusterDbException.class, () -> parse(text));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        return e.getMessage();
    }

    @Test
    void aClusterHasAtMostMaxMembers() {
        StringBuilder text = new StringBuilder(MINIMAL);
        for (int i = 2; i <= Member.MAX_MEMBERS; i++) {
            text.append("member.n").append(i).append(".address = 10.").append(i >> 16).append('.').append((i >> 8) & 255)
                    .append('.').append(i & 255).append('\n');
        }
        assertEquals(Member.MAX_MEMBERS, parse(text.toString()).members().size());
        String tooMany = error(text + "member.one-more.address = 10.9.9.9\n");
        assertTrue(tooMany.contains("member 'one-more' would be member 65536; a cluster has at most 65535 members"), tooMany);
    }

    @Test
    void minimalDatabaseTakesEveryDefault() {
        ClusterDb db = parse(MINIMAL);
        assertEquals("lab", db.name());
        assertEquals(7, db.version());
        assertEquals("all", db.defaultPartition());
        assertEquals(List.of("m1"), db.loadServers());
        assertEquals(DaemonSettings.defaults(), db.daemon());
        assertEquals(new Member("m1", "10.0.0.1", 1, 1), db.members().get("m1"));
        Partition all = db.partitions().get("all");
        assertEquals(List.of("m1"), all.members());
        assertEquals("auto", all.transport());
        assertEquals(0, all.nice());
        assertEquals(0, all.minNice());
        assertEquals(SchedulingPolicy.NORMAL, all.policy());
        assertEquals(1, all.rtPriority());
        assertEquals(1, all.maxRtPriority());
        assertEquals(Set.of("*"), all.users());
        assertEquals(Set.of(), all.groups());
        assertNull(all.network());
        assertEquals(PlacementMode.PHYSICAL, all.mode());
    }

    @Test
    void everyTokenIsRead() {
        ClusterDb db = parse("""
                # a full database
                cluster = hpc.example.org
                version = 0
                default_partition = fast
                load_servers = n2, n1.rack1
                daemon.port = 9000
                daemon.update_interval = 500ms
                daemon.ttl = 1m
                daemon.heartbeat = 250ms
                daemon.ring_timeout = 3s
                daemon.max_skew = 5s
                daemon.auth_timeout = 1500ms
                member.n1.rack1.address = fd00::1
                member.n1.rack1.cpus = 8
                member.n2.address = node2.example.org
                member.n2.cpus = 4
                member.n2.slots = 0
                partition.fast.members = n2, n1.rack1
                partition.fast.transport = UDP
                partition.fast.nice = 5
                partition.fast.min_nice = -5
                partition.fast.policy = Fifo
                partition.fast.rt_priority = 10
                partition.fast.max_rt_priority = 20
                partition.fast.users = alice, bob
                partition.fast.groups = hpc, dev
                partition.fast.network = 10.1.0.0/24
                partition.fast.mode = VIRTUAL
                """);
        assertEquals(new DaemonSettings(9000, Duration.ofMillis(500), Duration.ofMinutes(1), Duration.ofMillis(250),
                Duration.ofSeconds(3), Duration.ofSeconds(5), Duration.ofMillis(1500)), db.daemon());
        assertEquals(new Member("n1.rack1", "fd00::1", 8, 8), db.members().get("n1.rack1"));
        assertEquals(new Member("n2", "node2.example.org", 4, 0), db.members().get("n2"));
        assertEquals(List.of("n1.rack1", "n2"), db.memberOrder());
        assertEquals(new Partition("fast", List.of("n2", "n1.rack1"), "udp", 5, -5, SchedulingPolicy.FIFO, 10, 20,
                Set.of("alice", "bob"), Set.of("hpc", "dev"), "10.1.0.0/24", PlacementMode.VIRTUAL),
                db.partitions().get("fast"));
        assertEquals(List.of("n2", "n1.rack1"), db.loadServers());
    }

    @Test
    void starMeansEveryMemberInTheDatabasesOrderAndOrderIsFirstAppearance() {
        ClusterDb db = parse("""
                cluster = lab
                version = 1
                partition.b.members = *
                member.z.address = 10.0.0.3
                default_partition = b
                member.a.address = 10.0.0.1
                partition.a.members = a
                member.m.address = 10.0.0.2
                member.z.cpus = 2
                load_servers = z
                """);
        assertEquals(List.of("z", "a", "m"), db.memberOrder());
        assertEquals(List.of("z", "a", "m"), db.partitions().get("b").members());
        assertEquals(List.of("b", "a"), List.copyOf(db.partitions().keySet()));
    }

    @Test
    void orderTokensFixTheOrder() {
        ClusterDb db = parse(MINIMAL + "member.m0.address = h0\nmember_order = m0, m1\n"
                + "partition.x.members = m1\npartition_order = x, all\n");
        assertEquals(List.of("m0", "m1"), db.memberOrder());
        assertEquals(List.of("m0", "m1"), db.partitions().get("all").members());
        assertEquals(List.of("x", "all"), List.copyOf(db.partitions().keySet()));
    }

    @Test
    void commentsBlankLinesAndCrlf() {
        String text = "# head\r\n\r\ncluster = lab   # trailing\r\n  version=7\r\n\tdefault_partition = all\r\n"
                + "load_servers = m1\r\nmember.m1.address = h1 #b\r\npartition.all.members = *\r\n";
        ClusterDb db = parse(text);
        assertEquals("lab", db.name());
        assertEquals(7, db.version());
        assertEquals("h1", db.members().get("m1").address());
        assertEquals(db, parse("\uFEFF" + text), "a byte-order mark is skipped");
        // '#' inside a word is not a comment (and then not a valid address)
        assertTrue(error("member.x.address = 10.0.0.1#x\n" + MINIMAL).contains("cluster.db:1:"));
    }

    @Test
    void slotsDefaultToCpusAndMayBeZero() {
        ClusterDb db = parse(MINIMAL + "member.m1.cpus = 3\n");
        assertEquals(3, db.members().get("m1").slots());
        assertEquals(0, parse(MINIMAL + "member.m1.slots = 0\n").members().get("m1").slots());
    }

    @Test
    void dnsRecordsDoNotDependOnOrder() {
        List<String> records = List.of("cluster=lab", "version=3", "default_partition=all", "load_servers=m10",
                "member.m10.address=10.0.0.10", "member.m2.address=10.0.0.2", "partition.all.members=*",
                "member.m1.address=10.0.0.1");
        ClusterDb a = ClusterDbParser.parseRecords(records, "dns:lab", OptionalLong.empty());
        List<String> reversed = new java.util.ArrayList<>(records);
        java.util.Collections.reverse(reversed);
        ClusterDb b = ClusterDbParser.parseRecords(reversed, "dns:lab", OptionalLong.empty());
        assertEquals(a, b);
        assertEquals(List.of("m1", "m2", "m10"), a.memberOrder());
        assertEquals(9, ClusterDbParser.parseRecords(records, "dns:lab", OptionalLong.of(9)).version());
        ClusterDbException e = assertThrows(ClusterDbException.class, () -> ClusterDbParser.parseRecords(
                List.of("cluster=lab", "member.m1.cpus=x"), "dns:lab", OptionalLong.empty()));
        assertEquals("dns:lab: TXT record \"member.m1.cpus=x\": the number of CPUs must be a whole number from 1"
                + " to 4096", e.getMessage());
        assertTrue(assertThrows(ClusterDbException.class, () -> ClusterDbParser.parseRecords(
                List.of("v=spf1 -all", "nonsense"), "dns:lab", OptionalLong.empty())).getMessage()
                .contains("TXT record \"nonsense\": a record of the cluster's zone must be 'token=value'"));
    }

    @Test
    void oneAddressInTwoSpellingsIsStillOneMember() {
        String db = MINIMAL.replace("10.0.0.1", "Node1.Example.org.");
        assertTrue(error(db + "member.m2.address = node1.example.ORG\n").contains("member 'm2' has the address of member 'm1'"));
        String v6 = MINIMAL.replace("10.0.0.1", "fd00:0:0::1");
        assertTrue(error(v6 + "member.m2.address = FD00::1\n").contains("member 'm2' has the address of member 'm1'"));
        assertEquals(2, parse(v6 + "member.m2.address = fd00::2\n").members().size());
    }

    @Test
    void theExampleMessageOfTheIssue() {
        assertEquals("cluster.db:7: member.m1.cpus = 'x': the number of CPUs must be a whole number from 1 to 4096",
                error(MINIMAL + "member.m1.cpus = x\n"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            junk line                        | cluster.db:7: 'junk line': a line must be 'token = value'
            = 3                              | cluster.db:7: '= 3': the token before '=' is missing
            colour = red                     | cluster.db:7: colour = 'red': unknown token
            Cluster = lab                    | cluster.db:7: Cluster = 'lab': unknown token
            cluster = other                  | cluster.db:7: cluster = 'other': 'cluster' is given twice; the first is line 1
            daemon.speed = 3                 | unknown daemon setting; known: port, update_interval
            daemon.port = 0                  | the port must be a whole number from 1 to 65535
            daemon.ttl = 10                  | the time-to-live must be a duration above 0
            daemon.ttl = 0s                  | the time-to-live must be a duration
            daemon.ttl = 2h                  | the time-to-live must be a duration
            daemon.ttl = 1s                  | cluster.db:7: daemon.ttl = '1s': the time-to-live (1s) must be at least twice the update interval (2s)
            daemon.ttl = 3s                  | cluster.db:7: daemon.ttl = '3s': the time-to-live (3s) must be at least twice the update interval (2s), or one lost update expires a member
            daemon.heartbeat = 5s            | cluster.db:7: daemon.heartbeat = '5s': the ring time-out (2s) must be at least twice the heartbeat (5s)
            daemon.heartbeat = 1500ms        | cluster.db:7: daemon.heartbeat = '1500ms': the ring time-out (2s) must be at least twice the heartbeat (1500ms), or one late heartbeat loses a ring neighbour
            daemon.heartbeat = 5ms           | cluster.db:7: daemon.heartbeat = '5ms': the heartbeat (5ms) must be at least 10ms
            daemon.update_interval = 9ms     | cluster.db:7: daemon.update_interval = '9ms': the update interval (9ms) must be at least 10ms
            daemon.max_skew = 999ms          | cluster.db:7: daemon.max_skew = '999ms': the largest clock skew (999ms) must be at least 1s
            daemon.auth_timeout = 50ms       | cluster.db:7: daemon.auth_timeout = '50ms': the time for a connection's first authentic frame (50ms) must be from 100ms to 30s
            member.m1                        | 'member.m1': a line must be
            member.m1 = 3                    | unknown token; a member token is member.NAME.ATTRIBUTE
            member.m1.cpu = 3                | unknown member attribute 'cpu'; known: address, cpus, slots
            member.-x.cpus = 3               | a member name may hold only letters
            member.a/b.cpus = 3              | a member name may hold only letters
            member..cpus = 3                 | a member name may hold only letters
            member.m1.cpus = 0               | the number of CPUs must be a whole number from 1 to 4096
            member.m1.cpus = 4097            | the number of CPUs must be a whole number from 1 to 4096
            member.m1.slots = -1             | the number of job slots must be a whole number from 0 to 65535
            member.m2.cpus = 2               | cluster.db:7: member.m2.cpus = '2': member 'm2' has no address; add a line 'member.m2.address = 10.0.0.1'
            member.m2.address = 10.0.0.1     | cluster.db:7: member.m2.address = '10.0.0.1': member 'm2' has the address of member 'm1'; every member needs its own
            member.m2.address = 10.0.0.256   | '10.0.0.256' is not an IPv4 address
            member.m2.address = 1.2.3        | '1.2.3' is not an IPv4 address
            member.m2.address = fe80::zz     | 'fe80::zz' is not an IPv6 address
            member.m2.address = bad_.host    | an address must be an IPv4 or IPv6 address or a DNS name
            partition.p.nice = 3             | cluster.db:7: partition.p.nice = '3': partition 'p' has no members; add a line 'partition.p.members = *'
            partition.p.members = m1, m9     | cluster.db:7: partition.p.members = 'm1, m9': 'm9' is not a member; define member.m9.address
            partition.p.members = m1, m1     | 'm1' is listed twice
            partition.p.members = *, m1      | '*' means all and cannot be combined with names
            partition.p.members =            | the list needs at least 1 member name
            partition.p.members = m1,,m1     | the list has an empty item
            partition.all.transport = sctp   | the transport must be auto, tcp or udp
            partition.all.nice = 20          | a nice value must be a whole number from -20 to 19
            partition.all.min_nice = 5       | min_nice (5) must not be above nice (0)
            partition.all.policy = rr        | the policy must be one of normal or fifo
            partition.all.rt_priority = 0    | a real-time priority must be a whole number from 1 to 99
            partition.all.max_rt_priority = 100 | a real-time priority must be a whole number from 1 to 99
            partition.all.users = *, bob     | '*' means all and cannot be combined with names
            partition.all.groups = *         | '*' is not a valid group name
            partition.all.network = 10.1.0.0 | the network must be a CIDR prefix like 10.1.0.0/24
            partition.all.network = 10.1.0.5/24 | '10.1.0.5/24' has bits set after the first 24
            partition.all.network = 10.1.0.0/33 | the network must be a CIDR prefix
            partition.all.network = fd00::1/64 | 'fd00::1/64' has bits set after the first 64
            partition.all.mode = logical     | the mode must be one of physical or virtual
            member_order = m1, m9            | 'm9' is not a member; list each member once
            partition_order = x              | 'x' is not a partition; list each partition once
            """)
    void eachErrorIsOneSentenceNamingLineAndToken(String extra, String expected) {
        String line = extra == null ? "" : extra;
        String message = error(MINIMAL + line + "\n");
        assertTrue(message.startsWith("cluster.db:"), message);
        assertTrue(message.contains(expected.strip()), message);
    }

    @ParameterizedTest(name = "without {0}")
    @CsvSource(delimiter = '|', textBlock = """
            cluster = lab               | cluster.db: the required token 'cluster' is missing; add a line 'cluster = lab'
            version = 7                 | cluster.db: the required token 'version' is missing
            default_partition = all     | cluster.db: the required token 'default_partition' is missing
            load_servers = m1           | cluster.db: the required token 'load_servers' is missing
            """)
    void missingRequiredToken(String line, String expected) {
        assertTrue(error(MINIMAL.replace(line + "\n", "")).startsWith(expected));
    }

    @Test
    void crossReferenceErrors() {
        assertEquals("cluster.db:3: default_partition = 'gpu': no partition 'gpu' is defined; define"
                + " partition.gpu.members or name another partition", error(MINIMAL.replace("= all", "= gpu")));
        assertEquals("cluster.db:4: load_servers = 'm1, m7': load server 'm7' is not a member; define"
                + " member.m7.address or remove it from the list", error(MINIMAL.replace("= m1", "= m1, m7")));
        assertTrue(error(MINIMAL + "member_order = m1\nmember.m2.address = h\n")
                .contains("member 'm2' is missing from the list"));
        assertTrue(error(MINIMAL + "version = 8\n").contains("the first is line 2"));
        assertTrue(error(MINIMAL.replace("cluster = lab", "cluster = -lab")).contains("must be a DNS name"));
        assertTrue(error(MINIMAL.replace("version = 7", "version = -1"))
                .contains("version must be a whole number from 0"));
        for (String v : new String[] {"\u0667", "+7", "9223372036854775808", "7\u0660"}) {
            assertTrue(error(MINIMAL.replace("version = 7", "version = " + v))
                    .contains("version must be a whole number from 0"), v);
        }
        assertEquals(Long.MAX_VALUE, parse(MINIMAL.replace("version = 7", "version = 9223372036854775807")).version());
        assertTrue(error(MINIMAL + "partition.all.rt_priority = 9\npartition.all.max_rt_priority = 8\n")
                .contains("max_rt_priority (8) must not be below rt_priority (9)"));
    }

    @Test
    void rangesThatDependOnEachOtherAccepted() {
        ClusterDb db = parse(MINIMAL + "partition.all.nice = 10\npartition.all.rt_priority = 50\n");
        assertEquals(10, db.partitions().get("all").minNice());
        assertEquals(50, db.partitions().get("all").maxRtPriority());
    }

    @Test
    void naturalOrder() {
        assertTrue(ClusterDbParser.compareNatural("m2", "m10") < 0);
        assertTrue(ClusterDbParser.compareNatural("m10", "m9") > 0);
        assertTrue(ClusterDbParser.compareNatural("a", "b") < 0);
        assertTrue(ClusterDbParser.compareNatural("m01", "m1") != 0);
        assertEquals(0, ClusterDbParser.compareNatural("m1", "m1"));
    }
}

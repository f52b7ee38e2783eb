package io.cohort.systest;

import io.cohort.daemon.MemberState;
import io.cohort.daemon.StatusTable;
import io.cohort.systest.programs.FailingPeer;
import io.cohort.systest.programs.Sleeper;
import io.cohort.systest.programs.WhereAmI;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs in a partition on a cluster in a box (issue 7): four members, a cohortd in each namespace (each
 * reading its load from its own file, since namespaces share the kernel's /proc/loadavg), the launcher
 * in the root namespace asking the load servers where to run. Placement by load, physical and virtual
 * modes, access lists, job registration and its release when the launcher is killed, and the
 * partition's nice value applied to every peer thread by the daemons.
 */
@Tag("long")
class PartitionBoxSystemTest {
    @RegisterExtension
    static final ClusterInABox.Extension BOX = new ClusterInABox.Extension(4);

    private static final int PORT = 7471;

    @TempDir
    static Path dir;
    private static BoxDaemons daemons;

    private static String name(int host) {
        return BOX.box().host(host).name();
    }

    private static Path loadFile(int host) {
        return dir.resolve("loadavg-" + host);
    }

    private static void load(int host, double value) throws Exception {
        Files.writeString(loadFile(host), String.format(java.util.Locale.ROOT, "%.2f %.2f %.2f 1/100 1%n", value, value, value));
    }

    /** A second network on the box's hosts, for partition "datanet"'s preferred network for data traffic. */
    private static String dataNet;

    private static String dataAddress(int host) {
        return dataNet.substring(0, dataNet.lastIndexOf('.') + 1) + host;
    }

    @BeforeAll
    static void startDaemons() throws Exception {
        for (int i = 1; i <= 4; i++) {
            load(i, 0);
        }
        // 10.251.X.0/24, X from the box's random name: a second subnet on the same bridge.
        dataNet = "10.251." + Math.floorMod(BOX.box().host(1).name().hashCode(), 250) + ".0";
        for (int i = 1; i <= 4; i++) {
            ClusterInABox.Result r = BOX.box().exec(BOX.box().host(i), "ip", "addr", "add", dataAddress(i) + "/24", "dev", "eth0");
            assertEquals(0, r.code(), r.toString());
        }
        daemons = new BoxDaemons(BOX.box(), dir, 1, 4,
                List.of("daemon.port = " + PORT, "daemon.update_interval = 300ms", "daemon.ttl = 3s", "daemon.heartbeat = 250ms",
                        "daemon.ring_timeout = 1s"),
                List.of("partition.closed.members = " + BOX.box().hostList(4), "partition.closed.users = somebody-else",
                        "partition.closed.groups = no-such-group", "partition.niced.members = " + name(1) + ", " + name(2),
                        "partition.niced.nice = 5", "partition.niced.min_nice = 5",
                        "partition.datanet.members = " + name(3) + ", " + name(4), "partition.datanet.network = " + dataNet + "/24"),
                List.of("--loadavg", dir.resolve("loadavg-%d").toString()));
        awaitTable(t -> t.members().size() == 4 && t.members().stream().allMatch(m -> m.state() == MemberState.UP),
                "every member up");
    }

    @AfterAll
    static void killDaemons() throws Exception {
        if (daemons != null) {
            daemons.close();
        }
    }

    private static StatusTable awaitTable(Predicate<StatusTable> done, String what) throws Exception {
        return daemons.awaitTable(done, Duration.ofSeconds(30), what);
    }

    private static CohortProcess run(String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of("run", "--cluster-db", daemons.db().toString(), "--key",
                daemons.key().toString(), "--launch-agent", "netns"));
        a.addAll(List.of(args));
        return CohortProcess.run(a.toArray(new String[0]));
    }

    /** rank -> host from WhereAmI's lines, each checked against the addresses the peer really saw. */
    private static Map<Integer, String> hostsOf(CohortProcess p) {
        Map<Integer, String> m = new HashMap<>();
        Pattern line = Pattern.compile("rank (\\d+) host (\\S+) local \\d+/\\d+ addresses (\\S+)");
        for (String l : p.out()) {
            Matcher x = line.matcher(l);
            if (x.matches()) {
                String host = x.group(2);
                String address = BOX.box().hosts().stream().filter(h -> h.name().equals(host)).findFirst().orElseThrow().address();
                assertTrue(List.of(x.group(3).split(",")).contains(address), "rank " + x.group(1) + " runs where it was placed: " + l);
                m.put(Integer.parseInt(x.group(1)), host);
            }
        }
        return m;
    }

    @Test
    @Timeout(120)
    void eightPeersAcrossFourMembersInVirtualModeWithStdioAndExitCodes() throws Exception {
        CohortProcess p = run("-n", "8", "--partition", "all", "--mode", "virtual", "-cp", CohortProcess.TEST_CLASSES,
                WhereAmI.class.getName());
        assertEquals(0, p.exitCode(), p.toString());
        Map<Integer, String> hosts = hostsOf(p);
        assertEquals(8, hosts.size(), p.toString());
        for (int i = 1; i <= 4; i++) {
            String n = name(i);
            assertEquals(2, hosts.values().stream().filter(n::equals).count(), "two peers on " + n + ": " + hosts);
        }
        CohortProcess failing = run("-n", "8", "--partition", "all", "--mode", "virtual", "-cp", CohortProcess.TEST_CLASSES,
                FailingPeer.class.getName(), "5", "exit", "7");
        assertEquals(7, failing.exitCode(), failing.toString());
    }

    @Test
    @Timeout(60)
    void physicalModeRefusesMorePeersThanAvailableMembersWithOneLine() throws Exception {
        CohortProcess p = run("-n", "5", "--partition", "all", "-cp", CohortProcess.TEST_CLASSES, WhereAmI.class.getName());
        assertEquals(75, p.exitCode(), p.toString());
        assertEquals(List.of("cohort: partition all has 4 available members for 5 peers, and physical mode runs one peer per member;"
                + " use --mode virtual or fewer peers"), p.err());
    }

    @Test
    @Timeout(90)
    void placementAvoidsALoadedMember() throws Exception {
        load(2, 3.5);
        try {
            awaitTable(t -> t.member(name(2)).load1() >= 3.4, name(2) + "'s load reported");
            CohortProcess p = run("-n", "3", "--partition", "all", "-cp", CohortProcess.TEST_CLASSES, WhereAmI.class.getName());
            assertEquals(0, p.exitCode(), p.toString());
            Map<Integer, String> hosts = hostsOf(p);
            assertEquals(3, hosts.size(), p.toString());
            assertFalse(hosts.containsValue(name(2)), "the loaded member is avoided: " + hosts);
        } finally {
            load(2, 0);
        }
    }

    @Test
    @Timeout(60)
    void aUserNotInThePartitionsAccessListIsRefusedBeforeAnythingStarts() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        CohortProcess p = run("-n", "2", "--partition", "closed", "-cp", CohortProcess.TEST_CLASSES, Sleeper.class.getName(),
                "init", marker);
        assertEquals(77, p.exitCode(), p.toString());
        assertEquals(1, p.err().size(), p.toString());
        assertTrue(p.err().get(0).startsWith("cohort: user " + System.getProperty("user.name")
                + " may not run jobs in partition closed (allowed: users somebody-else, groups no-such-group)"), p.toString());
        assertTrue(CohortProcess.processesWith(marker).isEmpty(), "nothing was started");
    }

    @Test
    @Timeout(120)
    void theJobIsActiveOnEveryMemberAndReleasedWhenTheLauncherIsKilled() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        try (CohortProcess p = sleepersOnEveryMember(marker)) {
            p.process().destroyForcibly(); // SIGKILL: no chance to release anything itself
            p.waitFor();
            awaitTable(x -> x.members().stream().allMatch(m -> m.jobs().isEmpty()), "the job released on every member");
            assertTrue(CohortProcess.awaitNoProcessWith(marker, Duration.ofSeconds(15)), "peers left");
        }
    }

    /**
     * A member's daemon killed and started again while a job runs there gets the job back: the
     * launcher notices the registration's connection end and registers the job anew. Before, the new
     * daemon did not know the job, and its slot could go to another job. The launcher's lines about it
     * go through its stderr queue: never glued to a peer's unfinished stderr line.
     */
    @Test
    @Timeout(120)
    void aDaemonRestartedDuringAJobGetsItsRegistrationBack() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        try (CohortProcess p = sleepersOnEveryMember(marker, "unfinished-stderr")) {
            String job = jobOf();
            CohortProcess old = daemons.daemon(2);
            old.process().destroyForcibly(); // SIGKILL: it forgets everything
            old.waitFor();
            daemons.restart(2);
            assertTrue(p.awaitErr(l -> l.equals("cohort: job " + job + " is registered again with the daemon of " + name(2)), 1),
                    p + "\n" + daemons.logs());
            assertTrue(p.err().stream().anyMatch(l -> l.matches("cohort: the daemon of " + Pattern.quote(name(2)) + " dropped job "
                    + job + "'s registration \\(.+\\); registering it again")), p.toString());
            awaitTable(x -> x.member(name(2)).jobs().size() == 1, "the job active again on the restarted member");
            p.process().destroy();
            p.waitFor();
            awaitTable(x -> x.members().stream().allMatch(m -> m.jobs().isEmpty()), "the job released on every member");
            assertTrue(CohortProcess.awaitNoProcessWith(marker, Duration.ofSeconds(15)), "peers left");
        }
    }

    /** Starts a job of 4 sleeping peers in partition "all", one per member, and waits until every member counts it. */
    private static CohortProcess sleepersOnEveryMember(String marker, String... sleeperArgs) throws Exception {
        List<String> a = new ArrayList<>(List.of("run", "--cluster-db", daemons.db().toString(), "--key", daemons.key().toString(),
                "--launch-agent", "netns", "-n", "4", "--partition", "all", "-cp", CohortProcess.TEST_CLASSES,
                Sleeper.class.getName(), "init", marker));
        a.addAll(List.of(sleeperArgs));
        CohortProcess p = CohortProcess.start(a.toArray(new String[0]));
        assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 4), p.toString());
        StatusTable t = awaitTable(x -> x.members().stream().allMatch(m -> m.jobs().size() == 1), "the job active on every member");
        assertEquals(1, t.members().stream().map(m -> m.jobs().get(0)).distinct().count(), t.toString());
        return p;
    }

    /** The job id the daemons know the job by (the one every member lists). */
    private static String jobOf() throws Exception {
        return daemons.client().status(daemons.cluster()).member(name(1)).jobs().get(0);
    }

    @Test
    @Timeout(120)
    void thePartitionsNiceValueReachesEveryThreadOfEveryPeer() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        List<String> a = new ArrayList<>(List.of("run", "--cluster-db", daemons.db().toString(), "--key", daemons.key().toString(), "--launch-agent",
                "netns", "--verbose", "-n", "2", "--partition", "niced", "-cp", CohortProcess.TEST_CLASSES, Sleeper.class.getName(),
                "init", marker));
        try (CohortProcess p = CohortProcess.start(a.toArray(new String[0]))) {
            assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 2), p.toString());
            assertTrue(p.awaitErr(l -> l.matches("cohort: rank \\d \\(pid \\d+ on \\S+\\) scheduled at nice 5"), 2), p.toString());
            Pattern started = Pattern.compile("cohort: rank \\d \\(pid (\\d+) on \\S+\\) scheduled at nice 5");
            List<Long> pids = p.err().stream().map(started::matcher).filter(Matcher::matches).map(m -> Long.parseLong(m.group(1))).toList();
            assertEquals(2, pids.size(), p.toString());
            for (long pid : pids) {
                try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                    List<Path> all = tasks.toList();
                    assertTrue(all.size() > 5, "a peer JVM has many threads");
                    for (Path task : all) {
                        String stat = Files.readString(task.resolve("stat"));
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        assertEquals("5", f[19 - 3], "nice of " + task);
                    }
                }
            }
            assertTrue(daemons.daemon(1).err().stream().anyMatch(l -> l.contains("runs at nice 5"))
                    || daemons.daemon(2).err().stream().anyMatch(l -> l.contains("runs at nice 5")), daemons.logs());
            p.process().destroy();
            p.waitFor();
        }
        assertTrue(CohortProcess.awaitNoProcessWith(marker, Duration.ofSeconds(15)), "peers left");
    }

    @Test
    @Timeout(120)
    void peersBindTheirDataEndpointsInThePartitionsPreferredNetwork() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        List<String> a = new ArrayList<>(List.of("run", "--cluster-db", daemons.db().toString(), "--key", daemons.key().toString(),
                "--launch-agent", "netns", "--transport", "tcp", "-n", "2", "--partition", "datanet", "-cp", CohortProcess.TEST_CLASSES,
                Sleeper.class.getName(), "init", marker));
        try (CohortProcess p = CohortProcess.start(a.toArray(new String[0]))) {
            assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 2), p.toString());
            for (int h = 3; h <= 4; h++) {
                int host = h;
                // The peers' TCP connection runs between their data-network addresses, not the addresses the
                // launcher reached them at.
                ClusterInABox.Result ss = BOX.box().exec(BOX.box().host(host), "ss", "-Htn", "state", "established");
                int other = 7 - host;
                assertTrue(ss.out().lines().anyMatch(l -> l.contains(" " + dataAddress(host) + ":") && l.contains(" " + dataAddress(other) + ":")),
                        "no connection between " + dataAddress(host) + " and " + dataAddress(other) + ": " + ss + "\n" + p);
            }
            p.process().destroy();
            p.waitFor();
        }
        assertTrue(CohortProcess.awaitNoProcessWith(marker, Duration.ofSeconds(15)), "peers left");
    }
}

package io.cohort.systest;

import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs across cluster-in-a-box hosts: one io-manager per host started with {@code ip netns exec},
 * peers talking TCP between hosts and shared memory within one; stdio, exit status, the root cause
 * and the no-orphan rules across hosts.
 */
@Isolated // it looks for job directories left in /dev/shm, and another class's job has one too
class MultiHostSystemTest {
    @RegisterExtension
    static final ClusterInABox.Extension BOX = new ClusterInABox.Extension(3);

    private static final String FAILING = "io.cohort.systest.programs.FailingPeer";
    private static final String SLEEPER = "io.cohort.systest.programs.Sleeper";

    private static ClusterInABox box() {
        return BOX.box();
    }

    private static CohortProcess run(String... args) throws Exception {
        CohortProcess p = CohortProcess.start(args);
        p.closeStdin();
        p.waitFor();
        return p;
    }

    private static List<String> summaries(CohortProcess p) {
        // The summary, not the --verbose line "cohort: job ID: N peers on ...".
        return p.err().stream().filter(l -> l.matches("cohort: job [0-9a-f]{8} (failed:|could not|was|exceeded) .*")).toList();
    }

    @Test
    @Timeout(60)
    void peersRunInTheirHostsWithPerHostLocalRanks() throws Exception {
        CohortProcess p = run("run", "-n", "4", "--hosts", box().hostList(3), "--launch-agent", "netns",
                "-cp", CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.WhereAmI");
        assertEquals(0, p.exitCode(), p.toString());
        // Four ranks on three hosts without slots: 2, 1, 1 in blocks.
        ClusterInABox.Host h1 = box().host(1);
        ClusterInABox.Host h2 = box().host(2);
        ClusterInABox.Host h3 = box().host(3);
        assertEquals(List.of(
                "rank 0 host " + h1.name() + " local 0/2 addresses " + h1.address(),
                "rank 1 host " + h1.name() + " local 1/2 addresses " + h1.address(),
                "rank 2 host " + h2.name() + " local 0/1 addresses " + h2.address(),
                "rank 3 host " + h3.name() + " local 0/1 addresses " + h3.address()),
                p.out().stream().sorted().toList(), p.toString());
    }

    @Test
    @Timeout(60)
    void alltoallAcrossThreeHostsOverTcpBetweenThemAndShmWithin() throws Exception {
        CohortProcess p = run("run", "-n", "6", "--hosts", box().hostList(3), "--launch-agent", "netns", "--verbose",
                "--example", "alltoall", "20");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of("alltoall: 6 peers exchanged 600 messages in 20 rounds, all correct"), p.out(), p.toString());
        // The matrix rank 0 prints: shm with the peer on its own host, tcp to the other hosts.
        String row0 = p.err().stream().filter(l -> l.matches("\\s+0\\s+-.*")).findFirst().orElseThrow(() ->
                new AssertionError(p.toString()));
        assertTrue(row0.matches("\\s+0\\s+-\\s+shm\\s+tcp\\s+tcp\\s+tcp\\s+tcp\\s+" + box().host(1).name()), row0);
        assertTrue(p.err().stream().anyMatch(l -> l.contains("controller at " + box().bridgeAddress() + ":")), p.toString());
        // The hosts are namespaces of this kernel: one machine, whose cores the six peers share.
        int cores = Runtime.getRuntime().availableProcessors();
        String placement = "cohort: 6 peers on 1 machine (cores: " + cores + ")"
                + (6 > cores ? "; more peers than cores, so collectives send fewer messages" : "");
        assertTrue(p.err().contains(placement), placement + " in " + p);
    }

    @Test
    @Timeout(60)
    void ringThroughACommandTemplateAgent() throws Exception {
        CohortProcess p = run("run", "-n", "4", "--hosts", box().hostList(2), "--launch-agent", "ip netns exec %h",
                "--controller-address", box().bridgeAddress(), "--tag-output", "--example", "ring");
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.out().stream().anyMatch(l -> l.startsWith("[0] ring:") && l.endsWith("(correct)")), p.toString());
        assertEquals(List.of(), p.err(), p.toString());
    }

    @Test
    @Timeout(60)
    void aPeerKilledOnOneHostIsTheRootCauseAndEveryHostStops() throws Exception {
        CohortProcess p = run("run", "-n", "4", "--hosts", box().hostList(2), "--launch-agent", "netns",
                "-cp", CohortProcess.TEST_CLASSES, FAILING, "3", "kill9", "0");
        assertEquals(137, p.exitCode(), p.toString());
        List<String> s = summaries(p);
        assertEquals(1, s.size(), p.toString());
        assertTrue(s.get(0).matches("cohort: job [0-9a-f]{8} failed: rank 3 on " + box().host(2).name()
                + " was killed by signal 9 \\(SIGKILL\\) or exited with status 137 \\(root cause\\); 3 other peers were stopped"), s.get(0));
        assertTrue(box().awaitNoProcessesInHosts(Duration.ofSeconds(10)), "left in the hosts: " + box().processesInHosts());
    }

    @Test
    @Timeout(60)
    void aPeerThatExitsWithAStatusOnOneHostGivesThatStatus() throws Exception {
        CohortProcess p = run("run", "-n", "6", "--hosts", box().hostList(3), "--launch-agent", "netns",
                "-cp", CohortProcess.TEST_CLASSES, FAILING, "2", "exit", "7");
        assertEquals(7, p.exitCode(), p.toString());
        List<String> s = summaries(p);
        assertEquals(1, s.size(), p.toString());
        assertTrue(s.get(0).contains("rank 2 on " + box().host(2).name() + " exited with status 7 (root cause); "
                + "5 other peers were stopped"), s.get(0));
        assertTrue(box().awaitNoProcessesInHosts(Duration.ofSeconds(10)), "left in the hosts: " + box().processesInHosts());
    }

    @Test
    @Timeout(60)
    void sigkillToTheLauncherLeavesNoProcessOnAnyHost() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        try (CohortProcess p = CohortProcess.start("run", "-n", "5", "--hosts", box().hostList(3), "--launch-agent",
                "netns", "-cp", CohortProcess.TEST_CLASSES, SLEEPER, "init", marker)) {
            assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 5), p.toString());
            assertEquals(8, box().processesInHosts().size(), "3 io-managers and 5 peers in the hosts");
            p.process().destroyForcibly();
            p.waitFor();
            assertTrue(box().awaitNoProcessesInHosts(Duration.ofSeconds(15)), "left in the hosts: " + box().processesInHosts());
            assertTrue(CohortProcess.awaitNoProcessWith(marker, Duration.ofSeconds(5)), "peers left");
        }
    }

    @Test
    @Timeout(60)
    void sigtermToTheLauncherStopsEveryHostAndExits143() throws Exception {
        try (CohortProcess p = CohortProcess.start("run", "-n", "3", "--hosts", box().hostList(3), "--launch-agent",
                "netns", "--grace-period", "1000", "-cp", CohortProcess.TEST_CLASSES, SLEEPER, "init")) {
            assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 3), p.toString());
            p.process().toHandle().destroy();
            assertEquals(143, p.waitFor(), p.toString());
            assertTrue(p.err().stream().anyMatch(l -> l.matches("cohort: job [0-9a-f]{8} was interrupted.*")), p.toString());
            assertTrue(box().awaitNoProcessesInHosts(Duration.ofSeconds(10)), "left in the hosts: " + box().processesInHosts());
        }
    }

    @Test
    @Timeout(90)
    void ctrlZStopsThePeersOfEveryHostAndTheJobCarriesOnWhenContinued() throws Exception {
        try (CohortProcess p = CohortProcess.start(Map.of(), "run", "-n", "3", "--hosts", box().hostList(3),
                "--launch-agent", "netns", "-cp", CohortProcess.TEST_CLASSES, JobControlSystemTest.ROUNDS)) {
            assertTrue(p.awaitOut(l -> l.endsWith(" round 1"), 3), p.toString());
            ProcessHandle launcher = p.process().toHandle();
            List<ProcessHandle> peers = launcher.descendants()
                    .filter(h -> h.info().commandLine().orElse("").contains("PeerMain")).toList();
            assertEquals(3, peers.size(), "a peer on each host");

            JobControlSystemTest.signal("TSTP", launcher);
            assertTrue(JobControlSystemTest.awaitState(peers, JobControlSystemTest.STOPPED),
                    "every host's peer stopped: " + JobControlSystemTest.states(peers));
            assertTrue(JobControlSystemTest.awaitState(List.of(launcher), JobControlSystemTest.STOPPED), "the launcher too");
            JobControlSystemTest.signal("CONT", launcher);
            assertTrue(JobControlSystemTest.awaitState(peers, JobControlSystemTest.RUNNING),
                    "every host's peer continued: " + JobControlSystemTest.states(peers));

            p.closeStdin();
            assertEquals(0, p.waitFor(), p.toString());
            assertEquals(3, p.out().stream().filter(l -> l.matches("rank [0-2] did [0-9]+ rounds")).count(), p.toString());
        }
    }

    @Test
    @Timeout(60)
    void theTimeLimitStopsEveryHostWith124() throws Exception {
        CohortProcess p = run("run", "-n", "3", "--hosts", box().hostList(3), "--launch-agent", "netns",
                "--timeout", "2", "--grace-period", "500", "-cp", CohortProcess.TEST_CLASSES, SLEEPER, "init");
        assertEquals(124, p.exitCode(), p.toString());
        assertTrue(summaries(p).get(0).contains("exceeded the time limit of 2 s"), p.toString());
        assertTrue(box().awaitNoProcessesInHosts(Duration.ofSeconds(10)), "left in the hosts: " + box().processesInHosts());
    }

    @Test
    @Timeout(60)
    void losingTheIoManagerOfOneHostStopsTheWholeJob() throws Exception {
        java.util.Set<String> shmBefore = jobShmDirectories();
        try (CohortProcess p = CohortProcess.start(Map.of(), "run", "-n", "4", "--hosts", box().hostList(2),
                "--launch-agent", "netns", "--verbose", "--grace-period", "500", "-cp", CohortProcess.TEST_CLASSES,
                SLEEPER, "init")) {
            assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 4), p.toString());
            String host2 = box().host(2).name();
            // Its parameters, host name included, come on its standard input: find it by its namespace.
            ProcessHandle ioManager = ProcessHandle.allProcesses()
                    .filter(h -> h.info().commandLine().orElse("").contains("IoManagerMain"))
                    .filter(h -> host2.equals(namespaceOf(h.pid())))
                    .findFirst().orElseThrow(() -> new AssertionError("no io-manager for " + host2));
            ioManager.destroyForcibly();
            assertEquals(70, p.waitFor(), p.toString());
            List<String> s = summaries(p);
            assertEquals(1, s.size(), p.toString());
            assertTrue(s.get(0).contains("the io-manager on " + host2 + " closed its connection before all its peers "
                    + "were reported"), s.get(0));
            assertTrue(box().awaitNoProcessesInHosts(Duration.ofSeconds(10)), "left in the hosts: " + box().processesInHosts());
            // The killed io-manager could not remove its host's shared-memory directory: its peers did.
            long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            java.util.Set<String> left = new java.util.TreeSet<>(jobShmDirectories());
            left.removeAll(shmBefore);
            while (!left.isEmpty() && System.nanoTime() - until < 0) {
                Thread.sleep(20); // polling: there is no event for "a directory was removed"
                left = new java.util.TreeSet<>(jobShmDirectories());
                left.removeAll(shmBefore);
            }
            assertEquals(java.util.Set.of(), left, "shared-memory directories left in /dev/shm");
        }
    }

    /** The names of the jobs' shared-memory directories now in /dev/shm. */
    private static java.util.Set<String> jobShmDirectories() throws java.io.IOException {
        try (java.util.stream.Stream<java.nio.file.Path> all = java.nio.file.Files.list(java.nio.file.Path.of("/dev/shm"))) {
            return all.filter(io.cohort.transport.shm.ShmJobDirectory::isJobDirectory)
                    .map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
        }
    }

    /**
     * A host cut off mid-job (every packet to it dropped, as a machine that lost power or its link):
     * TCP keepalive on the control and mesh connections ends the job in seconds, naming the host.
     * Before, nothing noticed, and the job waited until --timeout, or for ever.
     */
    @Tag("long")
    @Test
    @Timeout(120)
    void aHostCutOffMidJobEndsTheJobNamingIt() throws Exception {
        ClusterInABox.Host cut = box().host(3);
        try (CohortProcess p = CohortProcess.start(Map.of(), "run", "-n", "3", "--hosts", box().hostList(3),
                "--launch-agent", "netns", "--grace-period", "500", "-cp", CohortProcess.TEST_CLASSES, SLEEPER, "init")) {
            assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 3), p.toString());
            box().loss(100, cut);
            try {
                int code = p.waitFor();
                assertTrue(code != 0 && code != 124, "exit " + code + ": " + p);
                List<String> s = summaries(p);
                assertEquals(1, s.size(), p.toString());
                assertTrue(s.get(0).contains(cut.name()), s.get(0));
            } finally {
                box().loss(0, cut);
            }
            assertTrue(box().awaitNoProcessesInHosts(Duration.ofSeconds(30)), "left in the hosts: " + box().processesInHosts());
        }
    }

    @Test
    @Timeout(60)
    void crashFilesOfAPeerOnAnotherHostAreNamedInTheSummary(@TempDir Path root) throws Exception {
        // Rank 2 is alone on the second host; its io-manager there finds the trace and reports it with the exit.
        CohortProcess p = run("run", "-n", "3", "--hosts", box().hostList(2), "--launch-agent", "netns",
                "--core-dir", root.toString(), "-cp", CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.CrashingPeer",
                "2", "throw");
        assertEquals(1, p.exitCode(), p.toString());
        List<String> s = summaries(p);
        assertEquals(1, s.size(), p.toString());
        assertTrue(s.get(0).contains("rank 2 on " + box().host(2).name() + " exited with status 1 (root cause; crash files: "
                + root + "/CrashingPeer."), s.get(0));
        assertTrue(s.get(0).contains("/rank-2/uncaught-exception.txt)"), s.get(0));
        try (var jobs = Files.list(root)) {
            Path job = jobs.findFirst().orElseThrow();
            try (var ranks = Files.list(job)) {
                assertEquals(List.of("rank-2"), ranks.map(r -> r.getFileName().toString()).toList(), p.toString());
            }
        }
    }

    @Test
    @Timeout(60)
    void debuggedPeersOnOtherHostsListenOnTheirHostsAddress() throws Exception {
        try (CohortProcess p = CohortProcess.start(Map.of(), "run", "-n", "2", "--hosts", box().hostList(2),
                "--launch-agent", "netns", "--debug", "--no-tmux", "--example", "hello")) {
            p.closeStdin();
            Pattern attach = Pattern.compile("cohort: rank (\\d) on (\\S+) waits for a debugger: jdb -attach (\\S+)");
            assertTrue(p.awaitErr(l -> attach.matcher(l).matches(), 2), p.toString());
            List<JdbProcess> debuggers = new ArrayList<>();
            try {
                for (String line : p.err()) {
                    Matcher m = attach.matcher(line);
                    if (m.matches()) {
                        ClusterInABox.Host host = box().host(Integer.parseInt(m.group(1)) + 1);
                        assertEquals(host.name(), m.group(2));
                        // Not loopback: the host's own address, which jdb on this machine reaches over the bridge.
                        assertTrue(m.group(3).startsWith(host.address() + ":"), line);
                        debuggers.add(new JdbProcess(m.group(3)));
                    }
                }
                for (JdbProcess jdb : debuggers) {
                    assertTrue(jdb.await("main[1]"), jdb.toString());
                    jdb.type("cont");
                }
                assertEquals(0, p.waitFor(), p.toString());
            } finally {
                debuggers.forEach(JdbProcess::close);
            }
            assertEquals(2, p.out().stream().filter(l -> l.startsWith("hello from rank ")).count(), p.toString());
        }
    }

    /** The name of the network namespace {@code pid} runs in ({@code ip netns identify}), or "" for none. */
    private static String namespaceOf(long pid) {
        try {
            Process p = new ProcessBuilder("ip", "netns", "identify", Long.toString(pid)).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 ? out : "";
        } catch (java.io.IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}

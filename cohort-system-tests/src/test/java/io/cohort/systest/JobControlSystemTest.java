package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Job control: SIGTSTP (Ctrl-Z) to the launcher stops every peer and then the launcher; SIGCONT
 * (fg, bg) continues them; a job stopped this way for longer than its time-outs carries on where it
 * was, and can still be ended.
 */
class JobControlSystemTest {
    private static final String SLEEPER = "io.cohort.systest.programs.Sleeper";
    static final String ROUNDS = "io.cohort.systest.programs.RoundsUntilStdinEnds";
    private static final Duration STATE_WITHIN = Duration.ofSeconds(15);

    @Test
    @Timeout(90)
    void ctrlZStopsEveryPeerThenTheLauncherAndSigcontContinuesThem() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        try (CohortProcess p = CohortProcess.start("run", "-n", "3", "--verbose", "-cp", CohortProcess.TEST_CLASSES, SLEEPER, "init", marker)) {
            assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 3), p.toString());
            String jobId = p.err().stream().filter(l -> l.matches("cohort: job [0-9a-f]{8}: .*")).findFirst()
                    .orElseThrow().substring("cohort: job ".length(), "cohort: job ".length() + 8);
            List<ProcessHandle> peers = peersOf(marker);
            assertEquals(3, peers.size(), "three peers");
            ProcessHandle launcher = p.process().toHandle();

            signal("TSTP", launcher);
            assertTrue(awaitState(peers, STOPPED), "every peer stopped: " + states(peers));
            assertTrue(awaitState(List.of(launcher), STOPPED), "then the launcher: " + states(List.of(launcher)));

            // The stacks of a suspended job: it cannot answer, and the user learns why at once.
            CohortProcess stacks = CohortProcess.start("stacks", jobId);
            stacks.closeStdin();
            assertEquals(69, stacks.waitFor(), stacks.toString());
            assertTrue(stacks.err().stream().anyMatch(l -> l.matches("cohort: job " + jobId + " is suspended: its launcher \\(pid "
                    + launcher.pid() + "\\) is stopped .*kill -CONT " + launcher.pid() + " to see its stacks")), stacks.toString());

            signal("CONT", launcher);
            assertTrue(awaitState(peers, RUNNING), "every peer continued: " + states(peers));
            assertTrue(awaitState(List.of(launcher), RUNNING), "the launcher too: " + states(List.of(launcher)));

            launcher.destroy(); // SIGTERM: the job ends as it always did
            assertEquals(143, p.waitFor(), p.toString());
        }
    }

    @Tag("long")
    @Test
    @Timeout(90)
    void theScriptStopsWithItsLauncherSoTheShellSeesTheCommandStopped() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        Process script = new ProcessBuilder(CohortProcess.ROOT.resolve("cohort").toString(), "run", "-n", "2",
                "-cp", CohortProcess.TEST_CLASSES, SLEEPER, "init", marker)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.PIPE).start();
        try {
            assertTrue(awaitCount(marker, 2), "two peers started");
            List<ProcessHandle> peers = peersOf(marker);
            ProcessHandle launcher = script.toHandle().children().findFirst().orElseThrow();

            // A SIGTSTP to the script alone (the terminal's would reach the launcher too): passed on.
            signal("TSTP", script.toHandle());
            List<ProcessHandle> all = new ArrayList<>(peers);
            all.add(launcher);
            all.add(script.toHandle());
            assertTrue(awaitState(all, STOPPED), "script, launcher and peers stopped: " + states(all));

            signal("CONT", script.toHandle(), launcher); // what fg sends to the command's process group
            assertTrue(awaitState(all, RUNNING), "all continued: " + states(all));
        } finally {
            script.toHandle().destroy();
            script.waitFor(30, TimeUnit.SECONDS);
            script.destroyForcibly();
        }
        assertTrue(CohortProcess.awaitNoProcessWith(marker, Duration.ofSeconds(15)), "peers left");
    }

    /**
     * The case that needs the peers' help: UDP's inactivity time-out and the broadcast domain's call
     * time-out, both 2 s, and a job suspended for 5 s in the middle of its collectives. The first
     * peer to run again must not convict the others of a silence that was its own. (At 1 s, a
     * machine loaded to 20 runnable threads per processor starved a running peer that long.)
     */
    @Tag("long")
    @Test
    @Timeout(120)
    void aJobSuspendedLongerThanItsTimeOutsCarriesOnWhereItWas() throws Exception {
        try (CohortProcess p = CohortProcess.start(Map.of(), "run", "-n", "3", "--transport", "udp", "--collectives", "bcast",
                "--jvm-opt", "-Dcohort.udp.inactivityTimeoutMillis=2000", "--jvm-opt", "-Dcohort.udp.rtoMaxMillis=250",
                "--jvm-opt", "-Dcohort.bcast.callTimeoutMillis=2000",
                "-cp", CohortProcess.TEST_CLASSES, ROUNDS)) {
            assertTrue(p.awaitOut(l -> l.endsWith(" round 1"), 3), p.toString());
            ProcessHandle launcher = p.process().toHandle();
            List<ProcessHandle> peers = launcher.descendants()
                    .filter(h -> h.info().commandLine().orElse("").contains(ROUNDS)).toList();
            assertEquals(3, peers.size(), "three peers");

            signal("TSTP", launcher);
            assertTrue(awaitState(peers, STOPPED), "every peer stopped: " + states(peers));
            assertTrue(awaitState(List.of(launcher), STOPPED), "the launcher stopped");
            // The condition under test is a suspension longer than the time-outs, so time must pass here.
            TimeUnit.SECONDS.sleep(5);
            // Ranks 1 and 2 first, as if their host's io-manager had been told sooner, and rank 0 (the
            // bcast's root, the ring's start) a moment later with the launcher: they wait for it meanwhile.
            signal("CONT", peers.stream().filter(h -> rankOf(h) != 0).toArray(ProcessHandle[]::new));
            TimeUnit.MILLISECONDS.sleep(300); // the skew between the hosts, also under test
            signal("CONT", launcher);

            p.closeStdin(); // rank 0 ends the rounds
            assertEquals(0, p.waitFor(), p.toString());
            for (int r = 0; r < 3; r++) {
                int rank = r;
                assertTrue(p.out().stream().anyMatch(l -> l.matches("rank " + rank + " did [0-9]+ rounds")), p.toString());
            }
        }
    }

    /**
     * Wire-up: rank 0 waits for the peer table, the others have not joined, and the job is suspended
     * for longer than the wire-up time-out. Continued, it must still start: neither the launcher
     * nor rank 0 counts the suspension.
     */
    @Tag("long")
    @Test
    @Timeout(120)
    void aJobSuspendedInWireUpLongerThanItsTimeOutStillStarts() throws Exception {
        try (CohortProcess p = CohortProcess.start("run", "-n", "2", "--verbose", "--stdin", "all", "--wireup-timeout", "5",
                "-cp", CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.JoinsLate")) {
            assertTrue(p.awaitErr(l -> l.matches("cohort: job [0-9a-f]{8}: .*"), 1), p.toString());
            String jobId = p.err().stream().filter(l -> l.matches("cohort: job [0-9a-f]{8}: .*")).findFirst()
                    .orElseThrow().substring("cohort: job ".length(), "cohort: job ".length() + 8);
            assertTrue(awaitInWireup(jobId), "rank 0 never showed up waiting for the peer table");
            ProcessHandle launcher = p.process().toHandle();
            // Rank 0 waiting says nothing of rank 1's JVM: on a loaded machine it may not have exec'd yet.
            List<ProcessHandle> peers = awaitPeersUnder(launcher, 2);
            assertEquals(2, peers.size(), "two peers");

            signal("TSTP", launcher);
            assertTrue(awaitState(peers, STOPPED), "every peer stopped: " + states(peers));
            assertTrue(awaitState(List.of(launcher), STOPPED), "the launcher stopped");
            TimeUnit.SECONDS.sleep(7); // longer than the wire-up time-out: the condition under test
            signal("CONT", launcher);

            p.stdin().write("join\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.toString());
            assertTrue(p.out().containsAll(List.of("rank 0 joined", "rank 1 joined")), p.toString());
        }
    }

    /** Asks the job for its stacks until rank 0 is seen waiting for the peer table (each try is an answer, not a sleep). */
    private static boolean awaitInWireup(String jobId) throws Exception {
        for (int i = 0; i < 40; i++) {
            CohortProcess stacks = CohortProcess.start("stacks", jobId);
            stacks.closeStdin();
            stacks.waitFor();
            if (stacks.out().stream().anyMatch(l -> l.contains("WireupClient.exchange"))) {
                return true;
            }
        }
        return false;
    }

    @Test
    @Timeout(90)
    void aSuspendedJobCanStillBeEnded() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        try (CohortProcess p = CohortProcess.start("run", "-n", "2", "--grace-period", "5000",
                "-cp", CohortProcess.TEST_CLASSES, SLEEPER, "init", marker)) {
            assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 2), p.toString());
            List<ProcessHandle> peers = peersOf(marker);
            ProcessHandle launcher = p.process().toHandle();
            signal("TSTP", launcher);
            assertTrue(awaitState(peers, STOPPED), "every peer stopped: " + states(peers));
            assertTrue(awaitState(List.of(launcher), STOPPED), "the launcher stopped");

            // The shell's 'kill %1' of a stopped job: SIGTERM, then SIGCONT. The peers are still stopped
            // and act on their TERM only once continued; the io-manager does that, well within the grace.
            signal("TERM", launcher);
            signal("CONT", launcher);
            assertEquals(143, p.waitFor(), p.toString());
            assertTrue(CohortProcess.awaitNoProcessWith(marker, Duration.ofSeconds(15)), "peers left");
            assertTrue(p.err().stream().anyMatch(l -> l.matches("cohort: job [0-9a-f]{8} was interrupted.*")), p.toString());
        }
    }

    /**
     * An io-manager killed while its job stands suspended: its peers, stopped, cannot notice. The
     * kernel continues them as their parent dies (setpriv --pdeathsig CONT); their parent watch then
     * ends them while the launcher still stands stopped, instead of leaving them stopped for ever.
     */
    @Tag("long")
    @Test
    @Timeout(90)
    void peersOfAnIoManagerKilledWhileSuspendedEndAtOnce() throws Exception {
        Process setpriv = new ProcessBuilder("setpriv", "--pdeathsig", "CONT", "--version")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(setpriv.waitFor() == 0,
                "this host's setpriv does not take --pdeathsig: its peers stay stopped, as documented");
        String marker = "marker-" + UUID.randomUUID();
        try (CohortProcess p = CohortProcess.start("run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES, SLEEPER,
                "init", marker)) {
            assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 2), p.toString());
            List<ProcessHandle> peers = peersOf(marker);
            assertEquals(2, peers.size(), peers.toString());
            ProcessHandle launcher = p.process().toHandle();
            signal("TSTP", launcher);
            assertTrue(awaitState(peers, STOPPED), "every peer stopped: " + states(peers));
            assertTrue(awaitState(List.of(launcher), STOPPED), "the launcher stopped");

            ProcessHandle ioManager = peers.get(0).parent().orElseThrow();
            assertTrue(ioManager.info().commandLine().orElse("").contains("IoManagerMain"), ioManager.toString());
            signal("KILL", ioManager);
            assertTrue(awaitState(peers, ENDED), "the peers ended with the launcher still stopped: " + states(peers));
            signal("CONT", launcher);
            assertEquals(70, p.waitFor(), p.toString());
            // A FIN or, with unread bytes in its socket, a reset: either names the lost io-manager.
            assertTrue(p.err().stream().anyMatch(l -> l.matches("cohort: job [0-9a-f]{8} failed: the io-manager on \\S+"
                    + " (closed its connection|stopped answering \\(.*\\)) before all its peers were reported")), p.toString());
        } finally {
            for (ProcessHandle h : CohortProcess.processesWith(marker)) {
                h.destroyForcibly(); // a stopped peer left behind must not outlive the test
            }
        }
    }

    /**
     * --timeout counts the time the job ran, not the time it stood suspended: a 20 s limit and a
     * 21 s suspension still stop the job, but at least 41 s after its start. (The limit counts from
     * the launch, so it must leave a loaded machine time to start both peers before the suspension:
     * 6 s did not, in CI's soak run beside another system-test class.)
     */
    @Tag("long")
    @Test
    @Timeout(150)
    void theTimeLimitDoesNotCountTheSuspension() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        long start = System.nanoTime();
        try (CohortProcess p = CohortProcess.start("run", "-n", "2", "--timeout", "20",
                "-cp", CohortProcess.TEST_CLASSES, SLEEPER, "init", marker)) {
            assertTrue(p.awaitOut(l -> l.endsWith(" ready"), 2), p.toString());
            ProcessHandle launcher = p.process().toHandle();
            signal("TSTP", launcher);
            assertTrue(awaitState(List.of(launcher), STOPPED), "the launcher stopped");
            TimeUnit.SECONDS.sleep(21); // longer than the whole limit: the condition under test
            signal("CONT", launcher);
            assertEquals(124, p.waitFor(), p.toString());
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertTrue(seconds >= 41, "stopped after " + seconds + " s, so the suspension counted: " + p);
        }
    }

    // ---- helpers -------------------------------------------------------------------------------

    static final Predicate<String> STOPPED = s -> s.equals("T") || s.equals("t");
    static final Predicate<String> RUNNING = s -> !s.isEmpty() && !STOPPED.test(s);
    /** Gone, or a zombie that nobody has reaped yet (pid 1 of a container may never). */
    static final Predicate<String> ENDED = s -> s.isEmpty() || s.equals("Z") || s.equals("X");

    /** A peer's rank, from its environment; -1 if it cannot be read. */
    private static int rankOf(ProcessHandle h) {
        try {
            for (String v : Files.readString(Path.of("/proc", Long.toString(h.pid()), "environ")).split("\0")) {
                if (v.startsWith("COHORT_RANK=")) {
                    return Integer.parseInt(v.substring("COHORT_RANK=".length()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // Gone, or not ours.
        }
        return -1;
    }

    private static List<ProcessHandle> peersOf(String marker) {
        return CohortProcess.processesWith(marker).stream()
                .filter(h -> h.info().commandLine().orElse("").contains("PeerMain")).toList();
    }

    /** The launcher's descendants that are peers, once there are {@code count} (or what there are after the wait). */
    private static List<ProcessHandle> awaitPeersUnder(ProcessHandle launcher, int count) throws InterruptedException {
        long deadline = System.nanoTime() + STATE_WITHIN.toNanos();
        List<ProcessHandle> peers;
        do {
            peers = launcher.descendants().filter(h -> h.info().commandLine().orElse("").contains("PeerMain")).toList();
            if (peers.size() >= count) {
                break;
            }
            TimeUnit.MILLISECONDS.sleep(50); // polling the process table: there is no event for "started"
        } while (System.nanoTime() - deadline < 0);
        return peers;
    }

    private static boolean awaitCount(String marker, int count) throws InterruptedException {
        long deadline = System.nanoTime() + STATE_WITHIN.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (peersOf(marker).size() >= count) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(50); // polling the process table: there is no event for "started"
        }
        return false;
    }

    /** Waits until every process's state (from /proc) passes {@code wanted}. */
    static boolean awaitState(List<ProcessHandle> processes, Predicate<String> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + STATE_WITHIN.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (processes.stream().allMatch(h -> wanted.test(state(h)))) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(20); // polling /proc: a stop is no event a test can wait on
        }
        return false;
    }

    /** A process's state letter from /proc/PID/stat (R, S, T, ...); "" if it is gone. */
    private static String state(ProcessHandle h) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    static String states(List<ProcessHandle> processes) {
        StringBuilder b = new StringBuilder();
        for (ProcessHandle h : processes) {
            b.append(h.pid()).append('=').append(state(h)).append(' ');
        }
        return b.toString().trim();
    }

    static void signal(String name, ProcessHandle... processes) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kill", "-" + name));
        for (ProcessHandle h : processes) {
            command.add(Long.toString(h.pid()));
        }
        assertEquals(0, new ProcessBuilder(command).inheritIO().start().waitFor(), "kill " + command);
    }
}

package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code cohort run --debug}: peers wait suspended for their debuggers, the launcher says how to
 * attach (and opens a tmux session with a jdb window per rank), and once jdb lets them go the job
 * runs to its normal end, leaving no tmux session behind. A debugger that quits while its peer runs
 * ends that peer rather than leave its JDWP agent listening again, unauthenticated.
 */
class DebugSystemTest {
    private static final java.time.Duration WIREUP_TIMEOUT = java.time.Duration.ofSeconds(3);
    private static final Pattern ATTACH = Pattern.compile("cohort: rank (\\d+) on \\S+ waits for a debugger: jdb -attach (\\S+)");
    private static final Pattern SESSION = Pattern.compile("tmux attach -t (cohort-[0-9a-f]{8})");
    /** How long the test waits for jdb to attach (it starts a JVM of its own) before it gives up. */
    private static final long ATTACH_MILLIS = 30_000;

    /** How long a peer whose debugger quit may take to be gone. */
    private static final long GONE_MILLIS = 10_000;

    private static boolean jdbInstalled() {
        try {
            new ProcessBuilder(JdbProcess.jdb().toString(), "-version").redirectErrorStream(true).start().waitFor();
            return true;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static boolean tmuxInstalled() {
        try {
            return new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** Runs a tmux command to its end: exit status and output. */
    private static Result tmux(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tmux"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "tmux " + String.join(" ", args) + " hangs");
        return new Result(p.exitValue(), out);
    }

    private record Result(int status, String out) {
    }

    /** Polls a pane's screen until it shows {@code text} (tmux has no event for it), within a deadline. */
    private static void awaitPane(String target, String text) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ATTACH_MILLIS);
        String screen = "";
        while (System.nanoTime() < deadline) {
            screen = tmux("capture-pane", "-p", "-t", target).out();
            if (screen.contains(text)) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new AssertionError("pane " + target + " never showed '" + text + "':\n" + screen);
    }

    @Test
    @Timeout(90)
    void tmuxSessionHasAJdbWindowPerRankAndEndsWithTheJob() throws Exception {
        assumeTrue(tmuxInstalled(), "tmux is not installed (.ci/run installs it); skipping the tmux debugging test");
        String session = null;
        try (CohortProcess p = CohortProcess.start("run", "-n", "2", "--debug", "--example", "hello")) {
            p.closeStdin();
            assertTrue(p.awaitErr(l -> SESSION.matcher(l).find(), 1), p.toString());
            session = p.err().stream().map(SESSION::matcher).filter(Matcher::find).findFirst().orElseThrow().group(1);
            assertEquals(2, p.err().stream().filter(l -> ATTACH.matcher(l).matches()).count(), p.toString());
            Result windows = tmux("list-windows", "-t", "=" + session, "-F", "#{window_name}");
            assertEquals(0, windows.status(), windows.out());
            assertEquals(List.of("rank-0", "rank-1"), windows.out().lines().toList());
            for (String w : List.of("rank-0", "rank-1")) {
                String target = "=" + session + ":" + w;
                awaitPane(target, "main[1]"); // jdb attached and took the VM start event: the peer waits for "cont"
                assertEquals(0, tmux("send-keys", "-t", target, "cont", "Enter").status());
            }
            assertEquals(0, p.waitFor(), p.toString());
            assertEquals(2, p.out().stream().filter(l -> l.startsWith("hello from rank ")).count(), p.toString());
            assertTrue(p.out().stream().noneMatch(l -> l.contains("Listening for transport")),
                    "the JDWP agent's line is the launcher's, not program output: " + p);
            assertNotEquals(0, tmux("has-session", "-t", "=" + session).status(), "the job's tmux session is left behind");
            session = null;
        } finally {
            if (session != null) {
                tmux("kill-session", "-t", "=" + session);
            }
        }
    }

    @Test
    @Timeout(90)
    void withoutTmuxTheAttachCommandsArePrintedAndJdbReleasesTheChosenRank() throws Exception {
        // Only rank 1 is debugged; rank 0 joins at once and waits for it. The 3 s wire-up time-out
        // would end the job while rank 1 is suspended (held so for longer, below), but it does not
        // apply under --debug. (It still bounds the io-manager's start, which a loaded machine may
        // stretch past 1 s.)
        try (CohortProcess p = CohortProcess.start("run", "-n", "2", "--debug=1", "--no-tmux", "--wireup-timeout",
                Long.toString(WIREUP_TIMEOUT.toSeconds()), "--example", "hello")) {
            p.closeStdin();
            assertTrue(p.awaitErr(l -> l.contains("suspended until a debugger lets it go"), 1), p.toString());
            long suspendedAt = System.nanoTime();
            List<Matcher> attach = p.err().stream().map(ATTACH::matcher).filter(Matcher::matches).toList();
            assertEquals(1, attach.size(), p.toString());
            assertEquals("1", attach.get(0).group(1));
            assertTrue(attach.get(0).group(2).startsWith("127.0.0.1:"), p.toString());
            assertTrue(p.err().stream().noneMatch(l -> l.contains("tmux")), p.toString());
            try (JdbProcess jdb = new JdbProcess(attach.get(0).group(2))) {
                assertTrue(jdb.await("main[1]"), jdb.toString()); // the prompt comes after the VM start event is handled
                // Rank 1 stays suspended past the wire-up time-out: the time-out this test shows not to apply.
                long left = WIREUP_TIMEOUT.plusMillis(500).toNanos() - (System.nanoTime() - suspendedAt);
                if (left > 0) {
                    Thread.sleep(left / 1_000_000); // outliving a time-out, not waiting for an event
                }
                jdb.type("cont");
                assertEquals(0, p.waitFor(), p + "\njdb: " + jdb);
                assertTrue(jdb.await("The application exited"), jdb.toString());
            }
            assertEquals(2, p.out().stream().filter(l -> l.startsWith("hello from rank ")).count(), p.toString());
        }
    }

    @Tag("long")
    @Test
    @Timeout(90)
    void quittingJdbWhilePeerRunsEndsThatRankAndLeavesNoDebugPortOpen() throws Exception {
        assumeTrue(jdbInstalled(), "jdb is not installed (a JRE without the JDK's tools); skipping the detach test");
        // Hang: rank 1 passes a barrier, prints "rank 1 ready" and waits in a receive for ever, so its
        // JVM would outlive the debugger's quit by as long as the job runs.
        try (CohortProcess p = CohortProcess.start("run", "-n", "2", "--debug=1", "--no-tmux",
                "-cp", CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.Hang")) {
            p.closeStdin();
            assertTrue(p.awaitErr(l -> l.contains("suspended until a debugger lets it go"), 1), p.toString());
            Matcher attach = p.err().stream().map(ATTACH::matcher).filter(Matcher::matches).findFirst().orElseThrow();
            String address = attach.group(2);
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
            try (JdbProcess jdb = new JdbProcess(address)) {
                assertTrue(jdb.await("main[1]"), jdb.toString());
                long peer = TcpSockets.acceptorOf(port); // the JVM at the other end of jdb's connection
                assertTrue(peer > 0, "no process accepted jdb's connection to " + address);
                jdb.type("cont");
                assertTrue(p.awaitOut(l -> l.equals("rank 1 ready"), 1), p + "\njdb: " + jdb);
                jdb.type("quit"); // detaches; the peer runs on (it waits for rank 0 in a receive)
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GONE_MILLIS);
                while (ProcessHandle.of(peer).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
                    TimeUnit.MILLISECONDS.sleep(20);
                }
                assertTrue(!ProcessHandle.of(peer).map(ProcessHandle::isAlive).orElse(false), "rank 1 (pid " + peer
                        + ") still runs " + GONE_MILLIS + " ms after its debugger quit, listening on TCP ports "
                        + TcpSockets.listeningPorts(peer) + ": " + p);
                assertEquals(List.of(), TcpSockets.listeningPorts(peer), "rank 1's JVM listens after its debugger quit");
                assertNotEquals(0, p.waitFor(), "a rank ended by its debugger's quit fails the job: " + p);
            }
            assertTrue(p.err().stream().anyMatch(l -> l.contains("rank 1") && l.contains("debugger detached")),
                    "the launcher says why rank 1 ended: " + p);
            assertTrue(p.out().stream().noneMatch(l -> l.contains("Listening for transport"))
                    && p.err().stream().noneMatch(l -> l.contains("Listening for transport")),
                    "no JDWP agent line reaches the user, the first or a later one: " + p);
        }
    }
}

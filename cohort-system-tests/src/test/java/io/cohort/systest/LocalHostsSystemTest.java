package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several io-managers without namespaces: {@code --hosts a,b --launch-agent local} runs one
 * io-manager per named host on this machine, so the multi-host launcher is tested on any machine,
 * root or not (the host names only group the peers: shared memory within, TCP between).
 */
class LocalHostsSystemTest {
    private static CohortProcess run(String... args) throws Exception {
        CohortProcess p = CohortProcess.start(args);
        p.closeStdin();
        p.waitFor();
        return p;
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void aHostfileOfLocalhostRunsHereWithoutSsh(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        // The default agent is ssh; mpirun too starts a host that names this machine without it.
        java.nio.file.Path hosts = java.nio.file.Files.writeString(dir.resolve("hosts"), "localhost slots=2\n");
        CohortProcess p = run("run", "-np", "2", "--hostfile", hosts.toString(), "--example", "hello");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(2, p.out().stream().filter(l -> l.startsWith("hello from rank ")).count(), p.toString());
    }

    @Test
    @Timeout(60)
    void alltoallOverTwoLocalHosts() throws Exception {
        CohortProcess p = run("run", "-n", "5", "--hosts", "ha:2,hb", "--launch-agent", "local", "--example", "alltoall", "5");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of("alltoall: 5 peers exchanged 100 messages in 5 rounds, all correct"), p.out(), p.toString());
        assertEquals(List.of(), p.err(), p.toString());
    }

    @Test
    @Timeout(60)
    void stdinReachesTheRankOnAnotherHostsIoManager() throws Exception {
        try (CohortProcess p = CohortProcess.start("run", "-n", "3", "--hosts", "ha,hb,hc", "--launch-agent", "local",
                "--stdin", "2", "-cp", CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.StdinEcho")) {
            p.stdin().write("over the hosts\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.toString());
            assertTrue(p.out().contains("rank 2 stdin: over the hosts"), p.toString());
            assertTrue(p.out().contains("rank 0 stdin: "), p.toString());
        }
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void aFailingPeerOnTheSecondHostIsTheRootCause() throws Exception {
        CohortProcess p = run("run", "-n", "4", "--hosts", "ha,hb", "--launch-agent", "local",
                "-cp", CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.FailingPeer", "3", "exit", "5");
        assertEquals(5, p.exitCode(), p.toString());
        assertTrue(p.err().stream().anyMatch(l -> l.matches("cohort: job [0-9a-f]{8} failed: rank 3 on hb exited with "
                + "status 5 \\(root cause\\); 3 other peers were stopped")), p.toString());
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void anAgentThatCannotStartTheIoManagerIsALaunchFailure() throws Exception {
        CohortProcess p = CohortProcess.start("run", "-n", "2", "--hosts", "ha,hb", "--launch-agent", "false %h",
                "--controller-address", "127.0.0.1", "--example", "hello");
        p.closeStdin();
        // Timed from the failure's line, not from the start: a loaded machine may take seconds to start a JVM.
        assertTrue(p.awaitErr(l -> l.contains("could not start"), 1), p.toString());
        long start = System.nanoTime();
        assertEquals(4, p.waitFor(), p.toString());
        assertTrue(p.err().stream().anyMatch(l -> l.matches("cohort: job [0-9a-f]{8} could not start: the io-manager on "
                + "h[ab] exited with status 1 before connecting; run with --verbose to see its command line")), p.toString());
        assertFalse(p.err().stream().anyMatch(l -> l.contains("\tat ")), p.toString());
        // The launcher once waited 15 s more in its shutdown hook after a launch failure.
        long seconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(seconds < 10, "the launcher took " + seconds + " s to exit after the failure");
    }

    /** More than one io-manager's launch request can carry: one line and exit 4, before any peer starts. */
    @Tag("long")
    @Test
    @Timeout(60)
    void peersBeyondOneLaunchRequestAreALaunchFailure() throws Exception {
        CohortProcess p = run("run", "-n", "200", "-x", "BIG=" + "x".repeat(100_000), "--example", "hello");
        assertEquals(4, p.exitCode(), p.toString());
        assertEquals(1, p.err().size(), p.toString());
        assertTrue(p.err().get(0).matches("cohort: job [0-9a-f]{8} could not start: the 200 peers on \\S+ need a launch "
                + "request of \\d+ MiB, more than one io-manager takes \\(16 MiB\\); .*"), p.toString());
        assertTrue(p.out().isEmpty(), p.toString());
    }
}

package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExamplesSystemTest {
    @Test
    @Timeout(60)
    void piPrintsOneLineAndExitsZero() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "4", "--example", "pi");
        assertEquals(0, p.exitCode(), p.toString());
        List<String> pi = p.out().stream().filter(l -> l.startsWith("pi = 3.14159")).toList();
        assertEquals(1, pi.size(), p.toString());
        assertTrue(pi.get(0).contains("computed by 4 peers"), p.toString());
        assertEquals(List.of(), p.err(), "a clean job prints nothing on stderr");
    }

    @Tag("long")
    @Test
    @Timeout(120)
    void everyExampleRunsAsAJobOfOne() throws Exception {
        CohortProcess list = CohortProcess.run("examples");
        assertEquals(0, list.exitCode(), list.toString());
        List<String> names = list.out().stream().map(l -> l.split(" ")[0]).toList();
        assertTrue(names.containsAll(List.of("hello", "pi", "ring", "alltoall", "broadcast", "deck")), names.toString());
        for (String name : names) {
            CohortProcess p = CohortProcess.run("run", "-n", "1", "--example", name);
            assertEquals(0, p.exitCode(), name + ": " + p);
            assertEquals(List.of(), p.err(), name + " prints nothing on stderr: " + p);
            assertTrue(p.out().stream().noneMatch(l -> l.contains(" 1 peers")), name + ": " + p);
        }
    }

    @Test
    @Timeout(60)
    void helloPrintsFourDistinctRanks() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "4", "--example", "hello");
        assertEquals(0, p.exitCode(), p.toString());
        Set<String> ranks = p.out().stream().filter(l -> l.startsWith("hello from rank "))
                .map(l -> l.split(" ")[3]).collect(Collectors.toSet());
        assertEquals(Set.of("0", "1", "2", "3"), ranks, p.toString());
    }

    @Test
    @Timeout(60)
    void ringPassesWithFivePeers() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "5", "--example", "ring");
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.out().stream().anyMatch(l -> l.startsWith("ring:") && l.endsWith("(correct)")), p.toString());
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void alltoallPassesWithFivePeers() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "5", "--example", "alltoall");
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.out().stream().anyMatch(l -> l.startsWith("alltoall: 5 peers") && l.endsWith("all correct")),
                p.toString());
    }

    /** The broadcast domain on one host (loopback multicast), with 10% of its datagrams lost by the fault layer. */
    @Tag("long")
    @Test
    @Timeout(60)
    void broadcastOverTheDomainPassesWithFourPeersAndLoss() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "4", "--fault", "loss=0.1,seed=5", "--example", "broadcast", "200");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(1, p.out().size(), p.toString());
        String line = p.out().get(0);
        assertTrue(line.startsWith("broadcast: 4 peers multicast 800 messages in 200 rounds, all correct; "), p.toString());
        assertTrue(!line.contains("; 0 NACKs") && !line.contains(" 0 retransmissions"), "10% loss cost nothing? " + line);
    }

    @Test
    @Timeout(30)
    void examplesAreListed() throws Exception {
        CohortProcess p = CohortProcess.run("examples");
        assertEquals(0, p.exitCode(), p.toString());
        for (String name : List.of("hello", "pi", "ring", "alltoall", "broadcast", "deck")) {
            assertTrue(p.out().stream().anyMatch(l -> l.startsWith(name + " ")), p.toString());
        }
    }
}

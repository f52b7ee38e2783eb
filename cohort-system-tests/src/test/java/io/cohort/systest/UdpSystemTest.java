package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The udp transport through real multi-process jobs: checksummed all-to-all traffic with and
 * without injected faults ({@code --fault}), the transport matrix, and a peer killed in the middle
 * of a stream (UDP sees no connection drop: the launcher's word must end it).
 */
class UdpSystemTest {
    private static final String PROGRAMS = "io.cohort.systest.programs.";
    private static final Pattern MATRIX_ROW = Pattern.compile("^(?:\\[\\d+\\] )?\\s*(\\d+)((?:\\s+(?:-|shm|tcp|udp))+)\\s+\\S+\\s*$");

    private static void assertAllUdp(CohortProcess p, int n) {
        assertTrue(p.err().stream().anyMatch(l -> l.contains("cohort: transports (row = from, column = to)")), p.toString());
        String[][] cells = new String[n][];
        for (String l : p.err()) {
            Matcher m = MATRIX_ROW.matcher(l);
            if (m.matches() && Integer.parseInt(m.group(1)) < n) {
                cells[Integer.parseInt(m.group(1))] = m.group(2).trim().split("\\s+");
            }
        }
        for (int i = 0; i < n; i++) {
            assertNotNull(cells[i], "no matrix row for rank " + i + ": " + p);
            for (int j = 0; j < n; j++) {
                assertEquals(i == j ? "-" : "udp", cells[i][j], "from " + i + " to " + j + ": " + p);
            }
        }
    }

    private static void assertChecksumsOk(CohortProcess p, int n, long seed) {
        assertEquals(0, p.exitCode(), "seed " + seed + ": " + p);
        assertEquals(n, p.out().stream().filter(l -> l.matches("(\\[\\d+\\] )?rank \\d ok \\d+ bytes")).count(),
                "seed " + seed + ": " + p);
        assertFalse(Stream.of(p.out(), p.err()).flatMap(List::stream).anyMatch(l -> l.contains("MISMATCH")), p.toString());
    }

    @Tag("long")
    @Test
    @Timeout(180)
    void checksummedAllToAllOverUdp() throws Exception {
        long seed = System.nanoTime();
        CohortProcess p = CohortProcess.run("run", "-n", "4", "--transport", "udp", "--verbose",
                "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "ChecksumAllToAll", "6", Long.toString(seed));
        assertChecksumsOk(p, 4, seed);
        assertAllUdp(p, 4);
    }

    @Test
    @Timeout(180)
    void checksummedAllToAllOverUdpWithInjectedLossDuplicationAndReordering() throws Exception {
        long seed = System.nanoTime();
        CohortProcess p = CohortProcess.run("run", "-n", "4", "--transport", "udp", "--verbose",
                "--fault", "loss=0.05,dup=0.01,reorder=0.01,seed=" + (seed & 0xFFFF),
                "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "ChecksumAllToAll", "6", Long.toString(seed));
        assertChecksumsOk(p, 4, seed);
        assertAllUdp(p, 4);
    }

    @Tag("long")
    @Test
    @Timeout(120)
    void peerSigkilledWhileReceivingIsTheRootCauseAndTheSenderDoesNotHang() throws Exception {
        long start = System.nanoTime();
        // Rank 0 streams 2 MiB messages over udp; rank 1 SIGKILLs itself after 5. Nothing on the wire says so.
        CohortProcess p = CohortProcess.run("run", "-n", "2", "--transport", "udp", "-cp", CohortProcess.TEST_CLASSES,
                PROGRAMS + "ShmStreamVictim", "200", "2", "5");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertEquals(137, p.exitCode(), p.toString());
        assertTrue(seconds < 60, "the job took " + seconds + " s to end: the sender hung on the dead receiver? " + p);
        List<String> summaries = p.err().stream().filter(l -> l.matches("cohort: job [0-9a-f]{8} .*")).toList();
        assertEquals(1, summaries.size(), p.toString());
        assertTrue(summaries.get(0).contains("rank 1 on ") && summaries.get(0).contains("killed by signal 9 (SIGKILL) or exited with status 137 (root cause)"),
                summaries.get(0));
    }

    @Test
    @Timeout(60)
    void aBadFaultSpecIsOneLineAndExitTwo() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "--transport", "udp", "--fault", "loss=0.05,jitter=3",
                "--example", "pi");
        assertEquals(2, p.exitCode(), p.toString());
        assertEquals(List.of("cohort: --fault: fault spec 'loss=0.05,jitter=3': 'jitter=3' needs a unit: ns, us, ms or s (like 2ms)"),
                p.err(), p.toString());
    }
}

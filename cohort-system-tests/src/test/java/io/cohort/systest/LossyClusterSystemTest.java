package io.cohort.systest;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs across cluster-in-a-box hosts whose kernels drop 5% of the packets each host receives
 * (nftables): TCP retransmits, and so does Cohort's own udp transport, so the job, its wire-up and
 * its control connections must come through intact, only slower.
 */
@Tag("long")
class LossyClusterSystemTest {
    static final double LOSS_PERCENT = 5;

    @RegisterExtension
    static final ClusterInABox.Extension BOX = new ClusterInABox.Extension(3, LOSS_PERCENT);

    private static ClusterInABox box() {
        return BOX.box();
    }

    private static CohortProcess run(String... args) throws Exception {
        CohortProcess p = CohortProcess.start(args);
        p.closeStdin();
        p.waitFor();
        return p;
    }

    private long dropped() throws Exception {
        long n = 0;
        for (ClusterInABox.Host h : box().hosts()) {
            n += box().dropped(h);
        }
        return n;
    }

    /** auto: shared memory within a host, TCP between hosts; udp: Cohort's own retransmissions everywhere. */
    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"auto", "udp"})
    @Timeout(120)
    void alltoallAcrossThreeLossyHostsCompletes(String transport) throws Exception {
        long before = dropped();
        CohortProcess p = run("run", "-n", "6", "--hosts", box().hostList(3), "--launch-agent", "netns",
                "--transport", transport, "--example", "alltoall", "100");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of("alltoall: 6 peers exchanged 3000 messages in 100 rounds, all correct"), p.out(), p.toString());
        assertTrue(dropped() > before, "the hosts' loss rules dropped nothing: the job did not run through the loss");
    }

    /** Every pair exchanges 0 B, 4 MiB and a random size up to 4 MiB, checked with CRC-32 (over udp some 3 000 datagrams each). */
    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"auto", "udp"})
    @Timeout(120)
    void largeCheckedMessagesAcrossLossyHostsArriveIntact(String transport) throws Exception {
        long before = dropped();
        CohortProcess p = run("run", "-n", "4", "--hosts", box().hostList(2), "--launch-agent", "netns",
                "--transport", transport, "-cp", CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.ChecksumAllToAll",
                "3", "11");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(4, p.out().stream().filter(l -> l.matches("rank \\d ok \\d+ bytes")).count(), p.toString());
        assertTrue(dropped() > before, "the hosts' loss rules dropped nothing");
    }
}

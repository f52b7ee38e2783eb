package io.cohort.systest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The job's PCODE broadcast domain across cluster-in-a-box hosts, through {@code cohort run}: the
 * peers open it with {@code Communicator.broadcastDomain()}, over real multicast or subnet broadcast
 * on the box's bridge, while every host's kernel drops 5% of its inbound packets (nftables). The
 * {@code broadcast} example checks every message of every round.
 */
class BroadcastDomainBoxSystemTest {
    static final String ROUNDS = "300";

    @RegisterExtension
    static final ClusterInABox.Extension BOX = new ClusterInABox.Extension(3, 5);

    private static String[] job(String... jvmOpts) {
        return job(false, jvmOpts);
    }

    private static String[] job(boolean verbose, String... jvmOpts) {
        List<String> args = new java.util.ArrayList<>(List.of("run", "-n", "6", "--hosts", BOX.box().hostList(3),
                "--launch-agent", "netns"));
        if (verbose) {
            args.add("--verbose");
        }
        for (String o : jvmOpts) {
            args.add("--jvm-opt");
            args.add(o);
        }
        args.addAll(List.of("--example", "broadcast", ROUNDS));
        return args.toArray(new String[0]);
    }

    private static void assertAllCorrect(CohortProcess p) {
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(1, p.out().size(), p.toString());
        assertTrue(p.out().get(0).startsWith("broadcast: 6 peers multicast 1800 messages in 300 rounds, all correct;"),
                p.toString());
    }

    @Test
    @Timeout(120)
    void allToAllOverMulticastAcrossThreeLossyHostsDeliversEveryMessage() throws Exception {
        long before = dropped();
        assertAllCorrect(CohortProcess.run(job()));
        assertTrue(dropped() > before, "the hosts' loss rules dropped nothing: the job did not run through the loss");
    }

    @Test
    @Timeout(120)
    void allToAllOverSubnetBroadcastAcrossThreeLossyHostsDeliversEveryMessage() throws Exception {
        long before = dropped();
        assertAllCorrect(CohortProcess.run(job("-Dcohort.bcast.medium=broadcast")));
        assertTrue(dropped() > before, "the hosts' loss rules dropped nothing");
    }

    /** Two jobs on the same hosts at once, on the same subnet broadcast port: the frame tags keep them apart. */
    @Test
    @Timeout(180)
    void twoConcurrentJobsOnTheSameHostsAndPortDoNotDisturbEachOther() throws Exception {
        String port = "-Dcohort.bcast.group=239.255.77.1:27001"; // the broadcast medium takes only the port
        try (CohortProcess a = CohortProcess.start(job(true, "-Dcohort.bcast.medium=broadcast", port));
             CohortProcess b = CohortProcess.start(job("-Dcohort.bcast.medium=broadcast", port))) {
            a.closeStdin();
            b.closeStdin();
            a.waitFor();
            b.waitFor();
            assertAllCorrect(a);
            assertAllCorrect(b);
            assertTrue(foreignDropped(a) + foreignDropped(b) > 0, "the jobs never saw each other's frames: " + a + b);
            // With --verbose a peer that dropped the other job's frames says so in its last line.
            if (foreignDropped(a) > 0) {
                assertTrue(a.err().stream().anyMatch(l -> l.matches("cohort: rank \\d dropped traffic that was not this job's or"
                        + " was malformed: broadcast domain \\d+ datagrams? \\(.*other job or communicator \\d+.*")), a.toString());
            }
            assertTrue(b.err().stream().noneMatch(l -> l.contains("dropped traffic")), "only under --verbose: " + b);
        }
    }

    private static long foreignDropped(CohortProcess p) {
        String line = p.out().get(0);
        String count = line.substring(line.lastIndexOf(", ") + 2, line.indexOf(" foreign datagrams dropped"));
        return Long.parseLong(count);
    }

    private static long dropped() throws IOException {
        long n = 0;
        for (ClusterInABox.Host h : BOX.box().hosts()) {
            n += BOX.box().dropped(h);
        }
        return n;
    }
}

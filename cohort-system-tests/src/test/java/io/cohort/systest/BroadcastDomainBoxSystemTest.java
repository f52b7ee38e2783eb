package io.cohort.systest;

import io.cohort.systest.programs.BroadcastsUntilAnotherJobIsHeard;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The job's PCODE broadcast domain across cluster-in-a-box hosts, through {@code cohort run}: the
 * peers open it with {@code Communicator.broadcastDomain()}, over real multicast or subnet broadcast
 * on the box's bridge, while every host's kernel drops 5% of its inbound packets (nftables). The
 * {@code broadcast} example checks every message of every round.
 */
@Tag("long")
class BroadcastDomainBoxSystemTest {
    static final String ROUNDS = "300";

    @RegisterExtension
    static final ClusterInABox.Extension BOX = new ClusterInABox.Extension(3, 5);

    private static String[] job(String... jvmOpts) {
        return job(false, List.of("--example", "broadcast", ROUNDS), jvmOpts);
    }

    private static String[] job(boolean verbose, List<String> program, String... jvmOpts) {
        List<String> args = new java.util.ArrayList<>(List.of("run", "-n", "6", "--hosts", BOX.box().hostList(3),
                "--launch-agent", "netns"));
        if (verbose) {
            args.add("--verbose");
        }
        for (String o : jvmOpts) {
            args.add("--jvm-opt");
            args.add(o);
        }
        args.addAll(program);
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

    /**
     * Two jobs on the same hosts at once, on the same subnet broadcast port: the frame tags keep them
     * apart. Each job broadcasts until one of its peers has dropped a frame of the other job (or for
     * 60 s), so the two overlap however late the second one's peers start on a loaded machine.
     */
    @Test
    @Timeout(180)
    void twoConcurrentJobsOnTheSameHostsAndPortDoNotDisturbEachOther() throws Exception {
        String port = "-Dcohort.bcast.group=239.255.77.1:27001"; // the broadcast medium takes only the port
        List<String> program = List.of("-cp", CohortProcess.TEST_CLASSES, BroadcastsUntilAnotherJobIsHeard.class.getName(),
                ROUNDS, "60");
        try (CohortProcess a = CohortProcess.start(job(true, program, "-Dcohort.bcast.medium=broadcast", port));
             CohortProcess b = CohortProcess.start(job(false, program, "-Dcohort.bcast.medium=broadcast", port))) {
            a.closeStdin();
            b.closeStdin();
            a.waitFor();
            b.waitFor();
            long foreignA = untilHeardCorrectly(a);
            long foreignB = untilHeardCorrectly(b);
            assertTrue(foreignA + foreignB > 0, "the jobs never saw each other's frames: " + a + b);
            // With --verbose a peer that dropped the other job's frames says so in its last line.
            if (foreignA > 0) {
                assertTrue(a.err().stream().anyMatch(l -> l.matches("cohort: rank \\d dropped traffic that was not this job's or"
                        + " was malformed: broadcast domain \\d+ datagrams? \\(.*other job or communicator \\d+.*")), a.toString());
            }
            assertTrue(b.err().stream().noneMatch(l -> l.contains("dropped traffic")), "only under --verbose: " + b);
        }
    }

    /** Checks a {@link BroadcastsUntilAnotherJobIsHeard} job's report and returns its foreign-datagram count. */
    private static long untilHeardCorrectly(CohortProcess p) {
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(1, p.out().size(), p.toString());
        Matcher m = Pattern
                .compile("until-heard: (\\d+) rounds, 0 wrong, (\\d+) foreign datagrams dropped").matcher(p.out().get(0));
        assertTrue(m.matches(), p.toString());
        assertTrue(Integer.parseInt(m.group(1)) >= Integer.parseInt(ROUNDS), p.toString());
        return Long.parseLong(m.group(2));
    }

    private static long dropped() throws IOException {
        long n = 0;
        for (ClusterInABox.Host h : BOX.box().hosts()) {
            n += BOX.box().dropped(h);
        }
        return n;
    }
}

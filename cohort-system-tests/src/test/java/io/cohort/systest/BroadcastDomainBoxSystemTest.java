package io.cohort.systest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PCODE broadcast domain across cluster-in-a-box hosts: one process per host, real multicast or
 * subnet broadcast over the box's bridge, 5% of every host's inbound packets dropped by the kernel (nftables). Every
 * message of every round is checked. Not through {@code cohort run} yet: the probes are started
 * by hand with fixed unicast ports, since the domain is not part of the job wire-up.
 */
class BroadcastDomainBoxSystemTest {
    static final int ROUNDS = 300;

    @RegisterExtension
    static final ClusterInABox.Extension BOX = new ClusterInABox.Extension(3, 5);

    @Test
    @Timeout(120)
    void allToAllOverMulticastAcrossThreeLossyHostsDeliversEveryMessage() throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        run("239.255." + random.nextInt(1, 255) + "." + random.nextInt(1, 255) + ":" + random.nextInt(20_000, 30_000));
    }

    @Test
    @Timeout(120)
    void allToAllOverSubnetBroadcastAcrossThreeLossyHostsDeliversEveryMessage() throws Exception {
        String first = BOX.box().hosts().get(0).address();
        String subnetBroadcast = first.substring(0, first.lastIndexOf('.')) + ".255"; // the box is a /24
        run(subnetBroadcast + ":" + ThreadLocalRandom.current().nextInt(20_000, 30_000));
    }

    /** Runs one probe per host on {@code group} (a multicast group or the broadcast address, with its port). */
    private static void run(String group) throws Exception {
        ClusterInABox box = BOX.box();
        long before = dropped(box);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String unicastPort = Integer.toString(random.nextInt(30_000, 40_000));
        String key = Long.toString(random.nextLong());
        String cp = CohortProcess.LIB.resolve("cohort-core.jar") + ":" + CohortProcess.TEST_CLASSES;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<ClusterInABox.Host> hosts = box.hosts();
        List<Process> peers = new ArrayList<>();
        for (int rank = 0; rank < hosts.size(); rank++) {
            List<String> cmd = new ArrayList<>(List.of(java, "-Djava.net.preferIPv4Stack=true", "-Xmx128m", "-cp", cp,
                    "io.cohort.systest.programs.BroadcastProbe", Integer.toString(rank), key, group, unicastPort,
                    Integer.toString(ROUNDS), "1024"));
            for (ClusterInABox.Host h : hosts) {
                cmd.add(h.address());
            }
            peers.add(box.start(hosts.get(rank), cmd.toArray(new String[0])));
        }
        try {
            for (int rank = 0; rank < peers.size(); rank++) {
                Process p = peers.get(rank);
                assertTrue(p.waitFor(100, TimeUnit.SECONDS), "rank " + rank + " did not finish");
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(0, p.exitValue(), "rank " + rank + ": " + out + err);
                assertTrue(out.startsWith("rank " + rank + ": " + ROUNDS + " rounds of 1024 B checked"), out + err);
            }
        } finally {
            for (Process p : peers) {
                p.destroyForcibly();
            }
        }
        assertTrue(dropped(box) > before, "the hosts' loss rules dropped nothing: the run did not go through the loss");
    }

    private static long dropped(ClusterInABox box) throws IOException {
        long n = 0;
        for (ClusterInABox.Host h : box.hosts()) {
            n += box.dropped(h);
        }
        return n;
    }
}

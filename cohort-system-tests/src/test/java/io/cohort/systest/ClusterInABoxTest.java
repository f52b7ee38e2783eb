package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The test bed itself: addresses, unicast, broadcast and multicast, loss, and a clean teardown. */
@Tag("long")
class ClusterInABoxTest {
    @RegisterExtension
    static final ClusterInABox.Extension BOX = new ClusterInABox.Extension(3);

    private static final Pattern RECEIVED = Pattern.compile("(\\d+) packets transmitted, (\\d+) received");

    private static ClusterInABox box() {
        return BOX.box();
    }

    @Test
    @Timeout(30)
    void everyHostReachesEveryOtherAndTheLauncherSideByUnicast() throws Exception {
        ClusterInABox.assumeCommand("ping", "iputils-ping");
        for (ClusterInABox.Host from : box().hosts()) {
            List<String> targets = new ArrayList<>(box().hosts().stream().map(ClusterInABox.Host::address).toList());
            targets.add(box().bridgeAddress());
            for (String to : targets) {
                ClusterInABox.Result r = box().exec(from, "ping", "-c", "1", "-W", "5", to);
                assertEquals(0, r.code(), from.name() + " -> " + to + ": " + r);
            }
        }
        // And the root namespace, where the launcher runs, reaches each host.
        for (ClusterInABox.Host h : box().hosts()) {
            ClusterInABox.Result r = ClusterInABox.run(List.of("ping", "-c", "1", "-W", "5", h.address()));
            assertEquals(0, r.code(), "root -> " + h + ": " + r);
        }
    }

    @Test
    @Timeout(60)
    void aMulticastAndABroadcastDatagramFromOneHostReachEveryOther() throws Exception {
        String group = "239.213.0.7";
        String port = "47123";
        String nonce = Long.toString(System.nanoTime(), 36);
        String mcast = "mcast-" + nonce;
        String bcast = "bcast-" + nonce;
        List<Process> listeners = new ArrayList<>();
        List<BufferedReader> outputs = new ArrayList<>();
        try {
            for (int i = 2; i <= 3; i++) {
                Process p = box().start(box().host(i), probe("listen", port, group, mcast, bcast));
                listeners.add(p);
                outputs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
            }
            for (BufferedReader out : outputs) {
                assertEquals("listening", out.readLine(), "a listener did not start");
            }
            ClusterInABox.Result sent = box().exec(box().host(1),
                    probe("send", port, group + "=" + mcast, box().broadcastAddress() + "=" + bcast));
            assertEquals(0, sent.code(), sent.toString());
            for (int i = 0; i < listeners.size(); i++) {
                Process p = listeners.get(i);
                List<String> got = new ArrayList<>();
                String line;
                while ((line = outputs.get(i).readLine()) != null) {
                    got.add(line);
                }
                assertEquals(0, p.waitFor(), "host " + (i + 2) + " printed " + got + "; stderr: "
                        + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
                String from = box().host(1).address();
                assertTrue(got.contains("got " + mcast + " from " + from), got.toString());
                assertTrue(got.contains("got " + bcast + " from " + from), got.toString());
            }
        } finally {
            listeners.forEach(Process::destroyForcibly);
        }
    }

    @Test
    @Timeout(60)
    void inboundLossDropsRoughlyThatShareOfTheProbesAndCanBeRemovedAgain() throws Exception {
        ClusterInABox.assumeCommand("ping", "iputils-ping");
        ClusterInABox.Host sender = box().host(1);
        ClusterInABox.Host lossy = box().host(2);
        box().loss(30, lossy);
        try {
            assertTrue(box().status().contains("host " + lossy.name() + " " + lossy.address() + " loss=30%"), box().status());
            // Echo requests are dropped on arrival at the lossy host; the sender has no loss, so
            // the replies all come back: the lost share is the lossy host's inbound loss.
            int sent = 400;
            double lost = 1 - received(box().exec(sender, "ping", "-q", "-n", "-c", Integer.toString(sent), "-i", "0.002",
                    "-W", "1", lossy.address())) / (double) sent;
            // 400 probes at 30%: the standard deviation is 2.3 points; 10 points either way is 4 of them.
            assertTrue(lost > 0.20 && lost < 0.40, "lost " + lost + " of the probes, expected about 0.30");
            assertTrue(box().dropped(lossy) > 0, "the nft counter of " + lossy.name() + " counted no drop");
        } finally {
            box().loss(0);
        }
        assertTrue(box().status().contains("host " + lossy.name() + " " + lossy.address() + " loss=0%"), box().status());
        assertEquals(100, received(box().exec(sender, "ping", "-q", "-n", "-c", "100", "-i", "0.002", "-W", "2",
                lossy.address())), "no loss once removed");
    }

    @Test
    @Timeout(60)
    void downLeavesNothingEvenWithProcessesInsideAndAfterAHalfDoneTeardown() throws Exception {
        String prefix = ClusterInABox.uniquePrefix();
        ClusterInABox first = ClusterInABox.up(prefix, 2, 5);
        // A crash that left half a box: the next 'up' of the same name cleans it first.
        ClusterInABox.run(List.of("ip", "link", "delete", prefix + "-br"));
        try (ClusterInABox box = ClusterInABox.up(prefix, 2, 5)) {
            assertEquals(2, box.hosts().size());
            // 'ip netns exec' enters the namespace after it has started: the sleeper says when it is in.
            Process sleeper = box.start(box.host(1), "sh", "-c", "echo inside; exec sleep 600");
            assertEquals("inside", new BufferedReader(new InputStreamReader(sleeper.getInputStream(),
                    StandardCharsets.UTF_8)).readLine(), "the sleeper did not start");
            assertTrue(box.processesInHosts().contains(sleeper.pid()), "the sleeper runs inside the host");
            assertTrue(box.status().contains("loss=5%"), box.status());
            box.close();
            assertEquals(List.of(), ClusterInABox.leftovers(prefix));
            assertTrue(sleeper.waitFor(10, java.util.concurrent.TimeUnit.SECONDS), "down ended what ran inside");
            assertTrue(!ClusterInABox.run(List.of("nft", "list", "tables")).out().contains("cohort_loss"),
                    "no loss table in the root namespace");
        } finally {
            first.close(); // its hook; the box itself is gone already
        }
        assertEquals(List.of(), ClusterInABox.leftovers(prefix));
    }

    /** --rate puts a token bucket of that rate on what each host sends; a bad rate is a usage error. */
    @Test
    @Timeout(60)
    void rateLimitsWhatEachHostSends() throws Exception {
        try (ClusterInABox box = ClusterInABox.up(ClusterInABox.uniquePrefix(), 2, 0, "--rate", "20mbit")) {
            for (ClusterInABox.Host h : box.hosts()) {
                ClusterInABox.Result q = box.exec(h, "tc", "qdisc", "show", "dev", "eth0");
                assertTrue(q.out().contains("tbf") && q.out().contains("rate 20Mbit"), h.name() + ": " + q);
            }
        }
        ClusterInABox.Result bad = ClusterInABox.run(List.of(ClusterInABox.SCRIPT.toString(), "up", "2", "--rate", "fast"));
        assertEquals(2, bad.code(), bad.toString());
        assertTrue(bad.err().contains("--rate needs a link speed such as 100mbit or 1gbit"), bad.toString());
    }

    /** --mtu sets every link's frame size: a 8900-byte ping crosses unfragmented; a bad size is a usage error. */
    @Test
    @Timeout(60)
    void mtuSetsTheFrameSizeOfEveryLink() throws Exception {
        ClusterInABox.assumeCommand("ping", "iputils-ping");
        try (ClusterInABox box = ClusterInABox.up(ClusterInABox.uniquePrefix(), 2, 0, "--mtu", "9000")) {
            for (ClusterInABox.Host h : box.hosts()) {
                ClusterInABox.Result l = box.exec(h, "ip", "link", "show", "dev", "eth0");
                assertTrue(l.out().contains("mtu 9000"), h.name() + ": " + l);
            }
            ClusterInABox.Result ping = box.exec(box.host(1), "ping", "-c", "1", "-W", "5", "-M", "do", "-s", "8900",
                    box.host(2).address());
            assertEquals(0, ping.code(), ping.toString());
        }
        ClusterInABox.Result bad = ClusterInABox.run(List.of(ClusterInABox.SCRIPT.toString(), "up", "2", "--mtu", "100"));
        assertEquals(2, bad.code(), bad.toString());
        assertTrue(bad.err().contains("--mtu needs a frame size from 576 to 65535 bytes"), bad.toString());
    }

    private static String[] probe(String... args) {
        List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.net.preferIPv4Stack=true", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.DatagramProbe"));
        c.addAll(List.of(args));
        return c.toArray(new String[0]);
    }

    private static int received(ClusterInABox.Result ping) {
        Matcher m = RECEIVED.matcher(ping.out());
        assertTrue(m.find(), ping.toString());
        return Integer.parseInt(m.group(2));
    }
}

package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 42, item 1, run for real: an attacker who is not a member of a job joins the job's multicast
 * group, captures the job's DATA frames as they go by and sends them back replayed, with their
 * payload changed, with a random tag, and as the sender's next frame ({@link ForgingProbe}), first
 * as an unprivileged local process on the job's host (here, the test JVM on loopback) and then from
 * a host of the cluster in a box that runs no peer of the job. Every message must still arrive
 * exactly once and right, the job must end 0, and the peers' {@code --verbose} drop lines must count
 * the altered frames as having failed authentication.
 *
 * <p>Before the frames carried tags a receiver believed any frame whose 64-bit job tag matched, and
 * that tag is in clear in every frame: the forged next frames were delivered as the sender's next
 * message, and the job printed WRONG or failed its global-program check.
 *
 * <p>The job's group is fixed ({@code -Dcohort.bcast.group}) so the attacker knows where to listen;
 * address and port follow from this JVM's pid, the port above the ephemeral range and outside the
 * 20000-29999 that derived groups use, so concurrent test runs and other jobs do not meet it.
 */
@Tag("long")
class ForgedBroadcastFramesSystemTest {
    private static final Pattern DROP_LINE = Pattern.compile(
            "cohort: rank (\\d+) dropped traffic that was not this job's or was malformed: .*broadcast domain \\d+ datagrams? \\(([^)]*)\\)");
    private static final Pattern FAILED_AUTHENTICATION = Pattern.compile("failed authentication (\\d+)");
    private static final Duration JOB_LIMIT = Duration.ofSeconds(150);

    /** The group this test's jobs use: 239.254.x.y:6xxxx from the pid. */
    private static InetSocketAddress group() throws Exception {
        long pid = ProcessHandle.current().pid();
        return new InetSocketAddress(InetAddress.getByName("239.254." + ((pid >>> 8) & 0xFF) + "." + (pid & 0xFF)),
                61_000 + (int) (pid % 4_000));
    }

    private static String groupSetting(InetSocketAddress g) {
        return "-Dcohort.bcast.group=" + g.getAddress().getHostAddress() + ":" + g.getPort();
    }

    /**
     * An unprivileged local process joins the job's group on loopback (where the peers of a
     * one-host job meet) and attacks for as long as the job runs.
     */
    @Test
    @Timeout(240)
    void aLocalProcessThatIsNotAPeerCannotInjectFramesIntoTheBroadcastDomain() throws Exception {
        int rounds = 3000;
        InetSocketAddress g = group();
        try (ForgingProbe probe = ForgingProbe.open(g, NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress()),
                InetAddress.getLoopbackAddress());
             CohortProcess job = CohortProcess.start("run", "-n", "3", "--verbose", "--jvm-opt", groupSetting(g),
                     "--example", "broadcast", Integer.toString(rounds))) {
            long deadline = System.nanoTime() + JOB_LIMIT.toNanos();
            // Joined before the job started, so it sees the job's first frame; stops once the job has ended.
            CompletableFuture<ForgingProbe.Counts> attack = new CompletableFuture<>();
            Thread attacker = new Thread(() -> {
                try {
                    attack.complete(probe.attack(() -> job.process().isAlive(), deadline));
                } catch (Throwable t) {
                    attack.completeExceptionally(t);
                }
            }, "forging-probe");
            attacker.setDaemon(true);
            attacker.start();
            try {
                job.closeStdin();
                awaitEnd(job, deadline);
                ForgingProbe.Counts sent = attack.get(10, TimeUnit.SECONDS);
                assertRefused(job, 3, rounds, sent);
            } finally {
                attacker.interrupt();
            }
        }
    }

    /**
     * A host of the cluster in a box that runs no peer joins the job's group on its interface and
     * attacks across the bridge while the job runs on two other hosts.
     */
    @Test
    @Timeout(300)
    void aHostOutsideTheJobCannotInjectFramesIntoTheBroadcastDomain() throws Exception {
        ClusterInABox.assumeAvailable();
        int rounds = 1500;
        InetSocketAddress g = group();
        try (ClusterInABox box = ClusterInABox.up(3, 0)) {
            List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", box.host(3).name(),
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Djava.net.preferIPv4Stack=true",
                    "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", CohortProcess.TEST_CLASSES + ":" + CohortProcess.LIB + "/*",
                    ForgingProbe.class.getName(), g.getAddress().getHostAddress() + ":" + g.getPort(),
                    Long.toString(JOB_LIMIT.toSeconds() + 30)));
            try (CohortProcess probe = CohortProcess.startCommand(command, Map.of())) {
                assertTrue(probe.awaitOut(l -> l.startsWith("listening on "), 1), "the attacker did not join: " + probe);
                ForgingProbe.Counts sent;
                try (CohortProcess job = CohortProcess.start("run", "-n", "4", "--hosts", box.hostList(2), "--launch-agent", "netns",
                        "--verbose", "--jvm-opt", groupSetting(g), "--example", "broadcast", Integer.toString(rounds))) {
                    job.closeStdin();
                    awaitEnd(job, System.nanoTime() + JOB_LIMIT.toNanos());
                    probe.closeStdin(); // the job is over: the attacker stops and says what it sent
                    assertTrue(probe.awaitOut(l -> l.startsWith("forging-probe: "), 1), "the attacker said nothing: " + probe);
                    sent = probe.out().stream().map(ForgingProbe.Counts::parse).filter(c -> c != null).findFirst().orElse(null);
                    assertNotNull(sent, probe.toString());
                    assertRefused(job, 4, rounds, sent);
                }
            }
        }
    }

    /** Waits for the job to end and its output to be read, failing with what it printed if it is not over by the deadline. */
    private static void awaitEnd(CohortProcess job, long deadlineNanos) throws InterruptedException {
        if (!job.process().waitFor(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            fail("the job did not end within " + JOB_LIMIT.toSeconds() + " s: " + job);
        }
        job.waitFor();
    }

    /**
     * The job ended 0 with every message delivered once and right, the attack really happened, and
     * the receivers counted the altered frames as failing authentication.
     */
    private static void assertRefused(CohortProcess job, int peers, int rounds, ForgingProbe.Counts sent) {
        String report = sent.line() + "\n" + job;
        assertEquals(0, job.exitCode(), report);
        assertEquals(1, job.out().size(), report);
        assertTrue(job.out().get(0).startsWith("broadcast: " + peers + " peers multicast " + (long) peers * rounds + " messages in "
                + rounds + " rounds, all correct;"), report);
        assertTrue(sent.replays() > 0 && sent.forged() > 0, "the attacker captured nothing to forge, so proved nothing: " + report);
        long failed = 0;
        for (String l : job.err()) {
            Matcher m = DROP_LINE.matcher(l);
            if (m.find()) {
                Matcher f = FAILED_AUTHENTICATION.matcher(m.group(2));
                if (f.find()) {
                    failed += Long.parseLong(f.group(1));
                }
            }
        }
        assertTrue(failed > 0, "no peer counted a frame that failed authentication: " + report);
        System.out.println(ForgedBroadcastFramesSystemTest.class.getSimpleName() + ": " + peers + " peers, " + sent.line()
                + "; the peers counted " + failed + " that failed authentication");
    }
}

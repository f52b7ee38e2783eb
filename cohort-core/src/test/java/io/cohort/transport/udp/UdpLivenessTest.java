package io.cohort.transport.udp;

import io.cohort.CohortException;
import io.cohort.PeerFailedException;
import io.cohort.auth.JobSecret;
import io.cohort.transport.SendCompletion;
import io.cohort.transport.fault.FaultPlan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UDP cannot see a dead peer: the inactivity time-out and the launcher's word must. Two transports
 * wired by hand with recording sinks; the test thread is the progress owner of both.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // the test thread polls in a loop
class UdpLivenessTest {
    private static final String[] NAMES = {"rank 0 (pid 10 on a)", "rank 1 (pid 11 on b)"};
    private final FragmenterTest.RecordingSink[] sinks = {new FragmenterTest.RecordingSink(), new FragmenterTest.RecordingSink()};
    private UdpTransport[] t;

    private void wire(UdpSettings settings) throws IOException {
        JobSecret key = JobSecret.generate();
        t = new UdpTransport[2];
        UdpEndpoint[] endpoints = new UdpEndpoint[2];
        for (int i = 0; i < 2; i++) {
            t[i] = new UdpTransport(i, 2, key, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), settings,
                    FaultPlan.NONE);
            endpoints[i] = t[i].localEndpoint();
        }
        for (int i = 0; i < 2; i++) {
            t[i].connect(endpoints, NAMES, sinks[i]);
        }
    }

    @AfterEach
    void close() {
        if (t != null) {
            for (UdpTransport x : t) {
                x.close();
            }
        }
    }

    /** Drives the given transports (blocking politely in between) until the condition holds. */
    private static void progressUntil(BooleanSupplier done, UdpTransport... ts) {
        while (!done.getAsBoolean()) {
            for (UdpTransport x : ts) {
                if (x.poll() == 0) {
                    x.block(1_000_000);
                }
            }
        }
    }

    private static UdpSettings shortTimeouts() {
        return timeouts(400);
    }

    private static UdpSettings timeouts(int inactivityMillis) {
        return UdpSettings.defaults().with(UdpSettings.RTO_MAX_MILLIS_PROP_NAME, "50")
                .with(UdpSettings.INACTIVITY_TIMEOUT_MILLIS_PROP_NAME, Integer.toString(inactivityMillis));
    }

    private static final class Outcome implements SendCompletion {
        final AtomicReference<Object> result = new AtomicReference<>();

        @Override
        public void sent() {
            result.set("sent");
        }

        @Override
        public void failed(CohortException cause) {
            result.set(cause);
        }
    }

    @Test
    void aSilentPeerIsReportedByNameAfterTheInactivityTimeout() throws IOException {
        wire(shortTimeouts());
        t[1].send(0, 0, 1, ByteBuffer.wrap(new byte[] {1, 2, 3}), SendCompletion.NONE);
        progressUntil(() -> sinks[0].messages.size() == 1, t[0], t[1]);
        t[1].close(); // the process vanished without a word (no BYE, no launcher notice)
        Outcome large = new Outcome();
        t[0].send(1, 0, 2, ByteBuffer.allocate(200_000), large); // kept until acknowledged: never
        long start = System.nanoTime();
        progressUntil(() -> !sinks[0].failures.isEmpty(), t[0]);
        long waited = (System.nanoTime() - start) / 1_000_000;
        String reason = sinks[0].failures.get(0);
        assertTrue(reason.startsWith("rank 1 (pid 11 on b) sent nothing for 400 ms (UDP inactivity time-out, "
                + UdpSettings.INACTIVITY_TIMEOUT_MILLIS_PROP_NAME + ")"), reason);
        // The last receive came a little before start: a loaded machine may stall the thread in between.
        assertTrue(waited >= 150 && waited < 5_000, "reported after " + waited + " ms");
        PeerFailedException f = assertInstanceOf(PeerFailedException.class, large.result.get(), "the pending send fails");
        assertEquals(1, f.peer());
        Outcome later = new Outcome();
        t[0].send(1, 0, 3, ByteBuffer.allocate(10), later);
        assertInstanceOf(PeerFailedException.class, later.result.get(), "and so does every later one");
        assertTrue(t[0].isCloseComplete(), "a failed pair does not hold up closing");
    }

    @Test
    void keepalivesKeepAnIdlePairAliveWellPastTheTimeout() throws IOException {
        // A 1.2 s time-out, so that a stall of this one thread (GC, a loaded machine) is not a silence.
        wire(timeouts(1_200));
        long until = System.nanoTime() + 4_000_000_000L; // the subject is time passing: drive both for 4 s
        progressUntil(() -> System.nanoTime() - until >= 0, t[0], t[1]);
        assertEquals(0, sinks[0].failures.size(), sinks[0].failures.toString());
        assertEquals(0, sinks[1].failures.size(), sinks[1].failures.toString());
        assertTrue(t[0].counters().acksSent() >= 3, "keepalives flowed: " + t[0].counters());
    }

    @Test
    void theLaunchersWordWithoutAGoodbyeIsTheFailureOfThePeer() throws IOException {
        wire(UdpSettings.defaults());
        t[1].send(0, 0, 1, ByteBuffer.wrap(new byte[] {9}), SendCompletion.NONE);
        progressUntil(() -> sinks[0].messages.size() == 1, t[0], t[1]);
        t[0].peerGone(1, "rank 1 (pid 11 on b) exited with status 3");
        assertEquals(java.util.List.of("rank 1 (pid 11 on b) exited with status 3"), sinks[0].failures);
    }

    @Test
    void theLaunchersWordAfterAGoodbyeEndsThePairQuietly() throws IOException {
        wire(UdpSettings.defaults());
        t[0].send(1, 0, 1, ByteBuffer.wrap(new byte[] {9}), SendCompletion.NONE);
        t[0].startClose();
        progressUntil(() -> t[1].byeReceived(0), t[0], t[1]);
        assertEquals(1, sinks[1].messages.size(), "the message before the goodbye arrived");
        t[1].peerGone(0, "rank 0 (pid 10 on a) exited with status 0");
        assertEquals(0, sinks[1].failures.size(), sinks[1].failures.toString());
    }
}

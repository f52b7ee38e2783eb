package io.cohort.systest;

import io.cohort.systest.programs.Sleeper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's rendezvous under a flood from someone without the job's secret: idle connections
 * and hellos that never prove do not keep the job's peers out, and each is closed within the
 * deadline for a hello and its proof (10 s each), not held for the job's life.
 */
@Tag("long")
class RendezvousFloodSystemTest {
    private static final Pattern CONTROLLER = Pattern.compile("controller at (127\\.0\\.0\\.1):(\\d+)");

    @Test
    @Timeout(120)
    void aFloodWithoutTheSecretNeitherHoldsTheRendezvousNorKeepsThePeersOut() throws Exception {
        List<Socket> flood = new ArrayList<>();
        try (CohortProcess job = CohortProcess.start(Map.of(), "run", "-n", "3", "--verbose", "-cp",
                CohortProcess.TEST_CLASSES, Sleeper.class.getName(), "init")) {
            assertTrue(job.awaitErr(l -> CONTROLLER.matcher(l).find(), 1), job.toString());
            Matcher m = job.err().stream().map(CONTROLLER::matcher).filter(Matcher::find).findFirst().orElseThrow();
            InetSocketAddress rendezvous = new InetSocketAddress(m.group(1), Integer.parseInt(m.group(2)));
            long floodStart = System.nanoTime();
            for (int i = 0; i < 150; i++) {
                Socket s = new Socket();
                s.connect(rendezvous, 5_000);
                if (i % 3 == 0) {
                    // A peer's hello with a made-up nonce: it is challenged, and never answers.
                    OutputStream out = s.getOutputStream();
                    byte[] hello = new io.cohort.wireup.PeerRecord(1, 1, "h", Map.of())
                            .hello("flood", "00".repeat(16)).encode().array();
                    out.write(hello);
                    out.flush();
                }
                flood.add(s);
            }
            assertTrue(job.awaitOut(l -> l.endsWith(" ready"), 3), "the peers did not get in: " + job);
            for (Socket s : flood) {
                assertClosedBy(s, floodStart, 25_000);
            }
            long seconds = (System.nanoTime() - floodStart) / 1_000_000_000L;
            assertTrue(seconds <= 25, "the flood's connections were held " + seconds + " s");
            job.close();
        } finally {
            for (Socket s : flood) {
                s.close();
            }
        }
    }

    /** Waits until the launcher closes {@code s} (end of stream or reset), at most until {@code millis} after {@code since}. */
    private static void assertClosedBy(Socket s, long since, long millis) throws IOException {
        InputStream in = s.getInputStream();
        byte[] b = new byte[4096];
        for (;;) {
            long left = millis - (System.nanoTime() - since) / 1_000_000;
            assertTrue(left > 0, "a flood connection was still open " + millis + " ms after the flood began");
            s.setSoTimeout((int) left);
            try {
                if (in.read(b) < 0) {
                    return; // closed; a challenge read before it is fine
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("a flood connection was still open " + millis + " ms after the flood began");
            } catch (IOException e) {
                return; // reset: closed too
            }
        }
    }
}

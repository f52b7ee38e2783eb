package io.cohort.daemon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(20)
class RequestServerTest {
    /** A listening socket whose accept fails as it does when the process has no file descriptors left. */
    private static final class Exhausted extends ServerSocket {
        final AtomicInteger attempts = new AtomicInteger();
        final CountDownLatch sixth = new CountDownLatch(6);

        Exhausted() throws IOException {
            super();
        }

        @Override
        public Socket accept() throws IOException {
            attempts.incrementAndGet();
            sixth.countDown();
            throw new IOException("Too many open files");
        }
    }

    @Test
    void failingAcceptsArePacedAndLoggedOnce() throws Exception {
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        DaemonLog log = new DaemonLog("m1", new PrintStream(logBytes, true, StandardCharsets.UTF_8), Clock.systemUTC());
        MessageAuthenticator auth = new MessageAuthenticator(TestClusters.KEY, "m1", Clock.systemUTC(), 30_000,
                new ReplayGuard(30_000, 10));
        Exhausted socket = new Exhausted();
        RequestServer server = new RequestServer(socket, auth, new RefusalLog(log), log, 2000);
        long t0 = System.nanoTime();
        server.start();
        assertTrue(socket.sixth.await(10, TimeUnit.SECONDS), "accept is tried again");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        server.close();
        // Pauses of 10, 20, 40, 80 and 160 ms lie between the six attempts: a spinning loop makes them in microseconds.
        assertTrue(ms >= 300, "six failing accepts took only " + ms + " ms");
        String lines = logBytes.toString(StandardCharsets.UTF_8);
        assertEquals(1, lines.lines().count(), lines);
        assertTrue(lines.contains("accept failed: Too many open files; pausing up to 1000 ms between attempts"), lines);
    }
}

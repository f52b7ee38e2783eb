package io.cohort.daemon;

import io.cohort.testing.Trickler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A frame stream over a real loopback connection, fed by hand one byte at a time where it matters. */
@Timeout(20)
class FrameStreamTest {
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final RefusalLog refusals = new RefusalLog(new DaemonLog("m1", new PrintStream(logBytes, true,
            StandardCharsets.UTF_8), Clock.systemUTC()));
    private final MessageAuthenticator sender = authenticator("m2");
    private Socket writer;
    private Socket reader;

    private static MessageAuthenticator authenticator(String name) {
        return new MessageAuthenticator(TestClusters.KEY, name, Clock.systemUTC(), 30_000, new ReplayGuard(30_000, 100));
    }

    @BeforeEach
    void connect() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            writer = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
            reader = server.accept();
        }
    }

    @AfterEach
    void close() throws Exception {
        writer.close();
        reader.close();
    }

    private FrameStream stream() throws Exception {
        return new FrameStream(reader, authenticator("m1"), refusals);
    }

    private byte[] frame() {
        return sender.seal(MessageType.STATUS, MessageBody.empty().put("x", "y"), "m1");
    }

    @Test
    void aFrameTrickledByteByByteIsCutOffAtItsDeadline() throws Exception {
        FrameStream s = stream().frameDeadline(300);
        reader.setSoTimeout(30_000); // the idle time-out a daemon connection has: far longer than the deadline
        byte[] f = frame();
        Trickler.start(writer.getOutputStream(), f, 50);
        long t0 = System.nanoTime();
        MalformedMessageException e = assertThrows(MalformedMessageException.class, s::read);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(Refusal.SLOW, e.refusal());
        assertTrue(e.getMessage().startsWith("frame too slow to arrive (a frame took longer than 300 ms to arrive"), e.getMessage());
        assertTrue(ms < 5_000, "cut off by the frame's deadline, not the idle time-out: " + ms + " ms");
        assertEquals(1, refusals.count(Refusal.SLOW));
        assertTrue(logBytes.toString(StandardCharsets.UTF_8).contains("a frame took longer than 300 ms"), logBytes.toString());
    }

    @Test
    void aLongAnswerGetsASecondMorePerMibItAnnounces() throws Exception {
        FrameStream s = stream().frameDeadline(300).acceptingLongAnswers();
        writer.getOutputStream().write(new byte[] {0, 0x20, 0, 0, 'C', 'D'}); // 2 MiB announced, then nothing more
        MalformedMessageException e = assertThrows(MalformedMessageException.class, s::read);
        assertEquals(Refusal.SLOW, e.refusal());
        assertTrue(e.getMessage().contains("a frame took longer than 2300 ms to arrive (6 bytes came)"), e.getMessage());
    }

    @Test
    void aConnectionEndingInsideAFrameIsCountedAsMalformed() throws Exception {
        FrameStream s = stream();
        byte[] f = frame();
        writer.getOutputStream().write(f, 0, f.length / 2);
        writer.shutdownOutput();
        EOFException e = assertThrows(EOFException.class, s::read);
        assertEquals("end of stream inside a frame", e.getMessage());
        assertEquals(1, refusals.count(Refusal.MALFORMED));
        // A connection that ends between frames is simply done.
        FrameStreamTest other = new FrameStreamTest();
        other.connect();
        try {
            other.writer.shutdownOutput();
            assertEquals("end of stream", assertThrows(EOFException.class, other.stream()::read).getMessage());
            assertEquals(0, other.refusals.count(Refusal.MALFORMED));
        } finally {
            other.close();
        }
    }

    @Test
    void onlyTheSideThatAskedTakesAFrameLongerThanADatagram() throws Exception {
        byte[] big = sender.seal(MessageType.OK, MessageBody.empty().put("table", "x".repeat(200_000)), "m1",
                DaemonFrame.MAX_ANSWER_LENGTH);
        assertTrue(big.length > DaemonFrame.MAX_LENGTH);
        writer.getOutputStream().write(big);
        FrameStream accepting = stream();
        MalformedMessageException e = assertThrows(MalformedMessageException.class, accepting::read);
        assertEquals("malformed frame (length field " + big.length + ")", e.getMessage());
        FrameStreamTest other = new FrameStreamTest();
        other.connect();
        try {
            other.writer.getOutputStream().write(big);
            DaemonMessage m = other.stream().acceptingLongAnswers().read();
            assertEquals(200_000, m.body().get("table", "").length());
        } finally {
            other.close();
        }
        assertThrows(IllegalArgumentException.class, () -> sender.seal(MessageType.OK,
                MessageBody.empty().put("table", "x".repeat(200_000)), "m1"), "other frames keep the datagram limit");
    }

    @Test
    void theSocketsOwnShorterTimeOutKeepsThePartFrameForTheNextRead() throws Exception {
        FrameStream s = stream();
        reader.setSoTimeout(100); // as the ring's heartbeat timer sets it
        byte[] f = frame();
        writer.getOutputStream().write(f, 0, 10);
        assertThrows(SocketTimeoutException.class, s::read);
        writer.getOutputStream().write(f, 10, f.length - 10);
        reader.setSoTimeout(5_000);
        DaemonMessage m = s.read();
        assertEquals(MessageType.STATUS, m.type());
        assertEquals("y", m.body().get("x", null));
        assertEquals(0, refusals.count(Refusal.MALFORMED));
        assertEquals(5_000, reader.getSoTimeout(), "the socket's own time-out is put back");
    }
}

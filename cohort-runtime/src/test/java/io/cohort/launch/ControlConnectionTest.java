package io.cohort.launch;

import io.cohort.testing.Trickler;
import io.cohort.wireup.ControlFrame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(20)
class ControlConnectionTest {
    @Test
    void aConnectionThatSaysNothingOrAsksForHugeFramesIsDroppedBeforeItIsKnown() throws IOException {
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             Socket silent = new Socket(server.getInetAddress(), server.getLocalPort());
             ControlConnection accepted = new ControlConnection(server.accept())) {
            assertThrows(SocketTimeoutException.class, () -> accepted.readFirst(200), "nothing sent");
        }
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             Socket greedy = new Socket(server.getInetAddress(), server.getLocalPort());
             ControlConnection accepted = new ControlConnection(server.accept())) {
            OutputStream out = greedy.getOutputStream();
            out.write(ByteBuffer.allocate(5).putInt(ControlFrame.MAX_LENGTH).put((byte) 1).array());
            out.flush();
            IOException e = assertThrows(IOException.class, () -> accepted.readFirst(5_000));
            assertTrue(e.getMessage().contains("malformed control frame"), e.getMessage());
        }
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             Socket peer = new Socket(server.getInetAddress(), server.getLocalPort());
             ControlConnection accepted = new ControlConnection(server.accept())) {
            // A hello in time is read, and later frames wait as long as they need (no time-out left behind).
            byte[] hello = {0, 0, 0, 3, 7, 1, 2};
            peer.getOutputStream().write(hello);
            assertEquals(7, accepted.readFirst(5_000).type());
            peer.getOutputStream().write(hello);
            assertEquals(7, accepted.read().type());
        }
    }

    @Test
    void aFirstFrameTrickledAByteAtATimeIsCutOffAtTheWholeFramesTimeOut() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             Socket trickler = new Socket(server.getInetAddress(), server.getLocalPort());
             ControlConnection accepted = new ControlConnection(server.accept())) {
            // A 256-byte frame (length 0x00000100, then 1s), sent one byte each 100 ms.
            byte[] frame = new byte[1000];
            java.util.Arrays.fill(frame, 4, frame.length, (byte) 1);
            frame[2] = 1;
            Trickler.start(trickler.getOutputStream(), frame, 100);
            long t0 = System.nanoTime();
            SocketTimeoutException e = assertThrows(SocketTimeoutException.class, () -> accepted.readFirst(500));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("the first frame did not arrive within 500 ms", e.getMessage());
            assertTrue(ms < 3_000, "each byte came within the time-out, the frame did not: " + ms + " ms");
        }
    }
}

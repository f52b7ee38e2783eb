package io.cohort.launch;

import io.cohort.wireup.ControlFrame;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;

/**
 * One blocking control connection: one thread reads it ({@link #read}), any thread may send (frames
 * are written whole under a lock so two senders never mix their bytes).
 */
public final class ControlConnection implements Closeable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    public ControlConnection(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 64 * 1024));
    }

    /** The address of the other end (for an io-manager: the address its host reached us from), or null. */
    public java.net.InetAddress remoteAddress() {
        return socket.getInetAddress();
    }

    /** The next frame, or null at end of stream. */
    public ControlFrame read() throws IOException {
        return ControlFrame.readFrom(in);
    }

    /**
     * The connection's first frame, which must say who it is: at most
     * {@link ControlFrame#MAX_FIRST_LENGTH} bytes, within {@code timeoutMillis} (a connection that
     * sends nothing, or a byte at a time, is dropped rather than held). Null at end of stream.
     */
    public ControlFrame readFirst(int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        try {
            return ControlFrame.readFrom(in, ControlFrame.MAX_FIRST_LENGTH);
        } finally {
            socket.setSoTimeout(0);
        }
    }

    /** True when a read would not block: the reader may flush what it wrote for the frames so far. */
    public boolean idle() throws IOException {
        return in.available() == 0;
    }

    public void send(ControlFrame f) throws IOException {
        synchronized (out) {
            f.writeTo(out);
            out.flush();
        }
    }

    /** Sends, ignoring a broken connection (its reader reports the loss). */
    public boolean trySend(ControlFrame f) {
        try {
            send(f);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing; nothing useful to do with a failure.
        }
    }
}

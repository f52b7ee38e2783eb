package io.cohort.launch;

import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlSeal;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

/**
 * One blocking control connection: one thread reads it ({@link #read}), any thread may send (frames
 * are written whole under a lock so two senders never mix their bytes).
 */
public final class ControlConnection implements Closeable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    /** The tags of every frame after the challenge-response ({@link ControlSeal}); null before it and on stacks queries. */
    private volatile ControlSeal seal;

    public ControlConnection(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        // Both ends: the launcher notices an io-manager's or a peer's host dying (and stops the job,
        // naming it) instead of waiting for ever, and an io-manager notices the launcher's.
        io.cohort.transport.tcp.KeepAlive.on(socket);
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 64 * 1024));
    }

    /** The socket under this connection (to tell the connection apart in admission bookkeeping). */
    Socket socket() {
        return socket;
    }

    /** The address of the other end (for an io-manager: the address its host reached us from), or null. */
    public java.net.InetAddress remoteAddress() {
        return socket.getInetAddress();
    }

    /**
     * Seals every frame sent from now on and opens every frame read from now on. The caller sets it
     * between its last bare frame and its first sealed one, in each direction: that is the protocol's
     * order ({@link io.cohort.wireup.ControlAuth}).
     */
    public void seal(ControlSeal s) {
        synchronized (out) {
            this.seal = s;
        }
    }

    /** The next frame, or null at end of stream; once sealed, a frame whose tag fails is an IOException. */
    public ControlFrame read() throws IOException {
        ControlFrame f = ControlFrame.readFrom(in);
        ControlSeal s = seal;
        return f == null || s == null ? f : s.open(f);
    }

    /**
     * The connection's first frame, which must say who it is: at most
     * {@link ControlFrame#MAX_FIRST_LENGTH} bytes, within {@code timeoutMillis} (a connection that
     * sends nothing, or a byte at a time, is dropped rather than held). Null at end of stream.
     */
    public ControlFrame readFirst(int timeoutMillis) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        // The time-out is the whole frame's, not each read's: every read may wait only what is left.
        InputStream timed = new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    socket.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                    try {
                        return in.read(b, off, len);
                    } catch (SocketTimeoutException e) {
                        // the time left ran out: said below as for a deadline passed between reads
                    }
                }
                throw new SocketTimeoutException("the first frame did not arrive within " + timeoutMillis + " ms");
            }
        };
        try {
            return ControlFrame.readFrom(new DataInputStream(timed), ControlFrame.MAX_FIRST_LENGTH);
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(0);
            }
        }
    }

    /** True when a read would not block: the reader may flush what it wrote for the frames so far. */
    public boolean idle() throws IOException {
        return in.available() == 0;
    }

    public void send(ControlFrame f) throws IOException {
        synchronized (out) {
            ControlSeal s = seal;
            (s == null ? f : s.seal(f)).writeTo(out);
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

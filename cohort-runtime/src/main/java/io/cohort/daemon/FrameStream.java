package io.cohort.daemon;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;

/**
 * Daemon frames over one TCP connection: {@link #write} sends a sealed frame, {@link #read} returns the
 * next authentic message. A frame whose length field is out of range cannot be skipped safely, so it
 * ends the connection ({@link MalformedMessageException}); a complete frame that fails a check is
 * counted and logged by the {@link RefusalLog}, and also ends the connection, since a peer that sends
 * one is not speaking for this cluster. A frame must arrive whole within {@value #FRAME_MILLIS} ms of its
 * first byte, and a connection that ends inside a frame is counted as malformed: a peer that trickles a
 * byte at a time, or hangs up halfway, cannot hold a connection (and its thread) for ever.
 *
 * <p>One reading thread and one writing thread at a time (writes are synchronized, so a writer may
 * be any thread).
 */
final class FrameStream implements AutoCloseable {
    /**
     * How long a frame may take from its first byte to its last: a request is at most 64 KiB; a long
     * answer gets {@value #MILLIS_PER_MIB} ms more for each MiB its length field announces.
     */
    static final int FRAME_MILLIS = 10_000;
    /** The extra time a long answer gets per MiB: it must arrive at 1 MiB/s at least. */
    static final int MILLIS_PER_MIB = 1_000;

    private final Socket socket;
    private final InputStream in;
    /** Bytes read but not yet returned as a frame; grows to the longest frame seen (at most maxIncoming). */
    private byte[] pending = new byte[4096];
    private int filled;
    /** When the first byte of the frame now in {@code pending} arrived; meaningful while {@code filled > 0}. */
    private long frameStartNanos;
    private long frameNanos = FRAME_MILLIS * 1_000_000L;
    /** The longest frame read: a request's limit, unless this side asked and waits for a long answer. */
    private int maxIncoming = DaemonFrame.MAX_LENGTH;
    private final OutputStream out;
    private final MessageAuthenticator auth;
    private final RefusalLog refusals;
    private final SocketAddress remote;
    /**
     * Who is at the other end: given by the side that connects (the member it connected to), learned from
     * the first message by the side that accepts. Messages are sealed for it, and a message from anyone
     * else ends the connection.
     */
    private volatile String peer;
    /** The accepting side: a frame refused for a reason a client can act on is told with a {@link RefusalNotice}. */
    private boolean sendsNotices;
    /** The connecting side of a request: a {@link RefusalNotice} ends the read with a {@link RefusalNoticeException}. */
    private boolean readsNotices;

    FrameStream(Socket socket, MessageAuthenticator auth, RefusalLog refusals, String peer) throws IOException {
        this(socket, auth, refusals);
        this.peer = peer;
    }

    FrameStream(Socket socket, MessageAuthenticator auth, RefusalLog refusals) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.auth = auth;
        this.refusals = refusals;
        this.remote = socket.getRemoteSocketAddress();
    }

    /**
     * Lets frames of up to {@link DaemonFrame#MAX_ANSWER_LENGTH} in: for the side that connected to a
     * daemon and reads its answers. The side that accepts connections never does.
     */
    FrameStream acceptingLongAnswers() {
        maxIncoming = DaemonFrame.MAX_ANSWER_LENGTH;
        return this;
    }

    /**
     * An answer to a request on this connection: a frame of up to {@link DaemonFrame#MAX_ANSWER_LENGTH},
     * whose body is the body's own encoding (shared, not copied).
     */
    SealedFrame sealAnswer(MessageType type, MessageBody body) {
        return auth.sealParts(type, body, peer(), DaemonFrame.MAX_ANSWER_LENGTH);
    }

    /** For the side that accepts requests: tells a client why its frame was refused before closing. */
    FrameStream sendingNotices() {
        sendsNotices = true;
        return this;
    }

    /**
     * For the side that sent a request: a daemon's {@link RefusalNotice} ends {@link #read} with a
     * {@link RefusalNoticeException}, not as a malformed frame.
     */
    FrameStream readingNotices() {
        readsNotices = true;
        return this;
    }

    /** Sets how long a frame may take to arrive (tests use a short one). */
    FrameStream frameDeadline(long millis) {
        frameNanos = millis * 1_000_000L;
        return this;
    }

    Socket socket() {
        return socket;
    }

    SocketAddress remote() {
        return remote;
    }

    /** Seals and sends one message. */
    void write(MessageType type, MessageBody body) throws IOException {
        byte[] frame = seal(type, body);
        synchronized (out) {
            out.write(frame);
            out.flush();
        }
    }

    /**
     * A frame for the peer, not yet sent; throws {@link IllegalArgumentException} when the body does not
     * fit one frame.
     */
    byte[] seal(MessageType type, MessageBody body) {
        return auth.seal(type, body, peer());
    }

    private String peer() {
        String to = peer;
        if (to == null) {
            throw new IllegalStateException("nothing read on this connection yet: whom to seal for is unknown");
        }
        return to;
    }

    /** Sends an answer sealed by {@link #sealAnswer}. */
    void write(SealedFrame frame) throws IOException {
        synchronized (out) {
            frame.writeTo(out);
            out.flush();
        }
    }

    /**
     * The next message. Throws {@link EOFException} at the end of the stream, a
     * {@link java.net.SocketTimeoutException} after the socket's read time-out (bytes of a frame read so
     * far are kept, so a later call goes on where this one stopped), and {@link MalformedMessageException}
     * (already counted and logged) for a frame that must end the connection; on the side that
     * {@link #readingNotices reads notices}, a {@link RefusalNoticeException} when the daemon closes with one.
     */
    DaemonMessage read() throws IOException {
        for (;;) {
            if (filled >= 4) {
                int length = lengthField();
                if (readsNotices && length == RefusalNotice.LENGTH) { // shorter than any sealed frame: a notice or nothing
                    if (filled >= length) {
                        RefusalNotice n = RefusalNotice.decode(pending, 0);
                        if (n != null) {
                            throw new RefusalNoticeException(n);
                        }
                    } else {
                        int got = readWithinFrameDeadline();
                        if (got < 0) {
                            throw new EOFException("end of stream inside a notice");
                        }
                        filled += got;
                        continue;
                    }
                }
                if (length < DaemonFrame.MIN_LENGTH || length > maxIncoming) {
                    refusals.refuse(Refusal.MALFORMED, remote, "length field " + length);
                    throw new MalformedMessageException(Refusal.MALFORMED,
                            Refusal.MALFORMED.description() + " (length field " + length + ")");
                }
                if (length > pending.length) {
                    pending = java.util.Arrays.copyOf(pending, length);
                }
                if (filled >= length) {
                    MessageAuthenticator.Opened o = auth.open(pending, 0, length, maxIncoming);
                    System.arraycopy(pending, length, pending, 0, filled - length);
                    filled -= length;
                    frameStartNanos = System.nanoTime(); // what is left begins the next frame
                    if (!o.ok()) {
                        refusals.refuse(o.refusal(), remote, o.detail());
                        tell(o);
                        throw new MalformedMessageException(o.refusal(), o.refusal().description()
                                + (o.detail() == null ? "" : " (" + o.detail() + ")"));
                    }
                    String from = o.message().sender();
                    if (peer == null) {
                        peer = from;
                    } else if (!peer.equals(from)) {
                        String detail = "a message from '" + MessageAuthenticator.printable(from)
                                + "' on a connection with '" + MessageAuthenticator.printable(peer) + "'";
                        refusals.refuse(Refusal.UNEXPECTED, remote, detail);
                        throw new MalformedMessageException(Refusal.UNEXPECTED, detail);
                    }
                    return o.message();
                }
            }
            int n = filled == 0 ? in.read(pending, 0, pending.length) : readWithinFrameDeadline();
            if (n < 0) {
                if (filled > 0) {
                    refusals.refuse(Refusal.MALFORMED, remote, "the connection ended inside a frame, after " + filled + " bytes");
                    throw new EOFException("end of stream inside a frame");
                }
                throw new EOFException("end of stream");
            }
            if (filled == 0) {
                frameStartNanos = System.nanoTime();
            }
            filled += n;
        }
    }

    /** On the accepting side, sends the notice for a refused frame, if its reason is one a client is told. */
    private void tell(MessageAuthenticator.Opened refused) {
        RefusalNotice n = sendsNotices ? RefusalNotice.of(refused.refusal(),
                (int) Math.min(Integer.MAX_VALUE, refused.retryAfterMillis())) : null;
        if (n == null) {
            return;
        }
        try {
            synchronized (out) {
                out.write(n.encode());
                out.flush();
            }
            socket.shutdownOutput(); // the notice, then the end of stream: the connection is closed next
        } catch (IOException ignored) {
            // The peer is gone: nothing to tell.
        }
    }

    /**
     * Reads more of a frame begun earlier, waiting no longer than the frame's deadline (nor than the
     * socket's own time-out, which then throws as usual and keeps the bytes read so far).
     */
    private int readWithinFrameDeadline() throws IOException {
        long left = frameDeadlineNanos() - (System.nanoTime() - frameStartNanos);
        if (left <= 0) {
            throw tooSlow();
        }
        int own = socket.getSoTimeout();
        int cap = (int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000L));
        if (own != 0 && own <= cap) {
            return in.read(pending, filled, pending.length - filled);
        }
        socket.setSoTimeout(cap);
        try {
            return in.read(pending, filled, pending.length - filled);
        } catch (java.net.SocketTimeoutException e) {
            throw tooSlow();
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(own);
            }
        }
    }

    /** The time the frame now arriving may take: the base, and more for a long answer's announced length. */
    private long frameDeadlineNanos() {
        if (filled < 4) {
            return frameNanos;
        }
        // The length was checked against maxIncoming when its four bytes came, before any more was read.
        return frameNanos + (lengthField() >> 20) * MILLIS_PER_MIB * 1_000_000L;
    }

    /** The length field of the frame now in {@code pending} (its first four bytes, big-endian). */
    private int lengthField() {
        return ((pending[0] & 0xFF) << 24) | ((pending[1] & 0xFF) << 16) | ((pending[2] & 0xFF) << 8) | (pending[3] & 0xFF);
    }

    private MalformedMessageException tooSlow() {
        String detail = "a frame took longer than " + frameDeadlineNanos() / 1_000_000L + " ms to arrive (" + filled
                + " bytes came)";
        refusals.refuse(Refusal.SLOW, remote, detail);
        return new MalformedMessageException(Refusal.SLOW, Refusal.SLOW.description() + " (" + detail + ")");
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing: nothing left to do with it.
        }
    }

}

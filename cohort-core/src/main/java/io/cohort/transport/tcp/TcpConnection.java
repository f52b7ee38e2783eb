package io.cohort.transport.tcp;

import io.cohort.CohortException;
import io.cohort.PeerFailedException;
import io.cohort.transport.InboundSink;
import io.cohort.transport.InboundTarget;
import io.cohort.transport.SendCompletion;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

/**
 * One peer's connection: a frame reader driven by the progress owner and a frame writer any
 * sending thread may drive.
 *
 * <p>Writing: a message that fits the 64 KiB staging buffer is copied there with its header and
 * written with one system call; its send completes at once, since the caller's memory is no longer
 * needed. A larger one is staged with its first bytes and the rest is written straight from the
 * caller's buffer (heap arrays in slices, because the JDK copies a heap buffer through a temporary
 * direct buffer on every call); its send completes when the last byte is taken by the kernel.
 * When the socket is full the frame stays queued and OP_WRITE finishes it.
 *
 * <p>Reading: headers and small payloads come through a 64 KiB read buffer; once a large payload's
 * target is known and the buffer is drained, the rest is read straight into the target.
 */
final class TcpConnection {
    static final int STAGING_BYTES = 64 * 1024;
    static final int READ_BUFFER_BYTES = 64 * 1024;
    /** Below this a payload's tail is read via the read buffer, above it straight into the target. */
    static final int DIRECT_READ_MIN = 16 * 1024;
    /** Largest slice of a heap buffer handed to one read or write call. */
    static final int HEAP_SLICE = 256 * 1024;

    final int peer;
    final String peerName;
    private final SocketChannel channel;
    private final TcpTransport transport;
    private final InboundSink sink;
    private SelectionKey key;

    // Reader state: touched only by the progress owner.
    private final ByteBuffer readBuf = ByteBuffer.allocateDirect(READ_BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private InboundTarget target;
    private ByteBuffer targetBuf;
    private volatile boolean byeReceived;

    // Writer state: guarded by this.
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final ArrayDeque<OutFrame> queue = new ArrayDeque<>();
    private boolean wantWrite;
    private boolean byeQueued;
    private volatile boolean ended;
    private String failure;

    /** A frame waiting for the socket. */
    private static final class OutFrame {
        ByteBuffer header;
        final ByteBuffer payload;
        SendCompletion completion;

        OutFrame(ByteBuffer header, ByteBuffer payload, SendCompletion completion) {
            this.header = header;
            this.payload = payload;
            this.completion = completion;
        }
    }

    TcpConnection(int peer, String peerName, SocketChannel channel, TcpTransport transport, InboundSink sink) {
        this.peer = peer;
        this.peerName = peerName;
        this.channel = channel;
        this.transport = transport;
        this.sink = sink;
        readBuf.limit(0);
        staging.limit(0);
    }

    void register(SelectionKey key) {
        this.key = key;
    }

    SocketChannel channel() {
        return channel;
    }

    // ---- writing -------------------------------------------------------------------------------

    synchronized void send(int context, int tag, ByteBuffer payload, SendCompletion completion) {
        if (ended || byeQueued) {
            completion.failed(new PeerFailedException(peer, failure != null ? failure
                    : "cannot send to " + peerName + ": the connection is closing"));
            return;
        }
        int length = payload.remaining();
        if (queue.isEmpty() && !staging.hasRemaining() && length <= STAGING_BYTES - FrameDescriptor.HEADER_LENGTH) {
            // Fast path: idle connection, small message. One copy, one system call, done.
            staging.clear();
            FrameDescriptor.write(staging, length, FrameDescriptor.TYPE_DATA, context, tag);
            staging.put(payload.duplicate());
            staging.flip();
            completion.sent();
            flushLocked();
            return;
        }
        ByteBuffer header = ByteBuffer.allocate(FrameDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        FrameDescriptor.write(header, length, FrameDescriptor.TYPE_DATA, context, tag);
        header.flip();
        if (length <= STAGING_BYTES) {
            // Queued behind other frames: keep a private copy so the caller's buffer is free now.
            ByteBuffer copy = ByteBuffer.allocate(length);
            copy.put(payload.duplicate()).flip();
            queue.add(new OutFrame(header, copy, null));
            completion.sent();
        } else {
            queue.add(new OutFrame(header, payload.duplicate(), completion));
        }
        flushLocked();
    }

    synchronized void sendBye() {
        if (ended || byeQueued) {
            return;
        }
        byeQueued = true;
        ByteBuffer header = ByteBuffer.allocate(FrameDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        FrameDescriptor.write(header, 0, FrameDescriptor.TYPE_BYE, 0, 0);
        header.flip();
        queue.add(new OutFrame(header, ByteBuffer.allocate(0), null));
        flushLocked();
    }

    synchronized void flush() {
        flushLocked();
    }

    /** Writes until everything is out or the socket is full. */
    private void flushLocked() {
        if (ended) {
            return;
        }
        try {
            for (;;) {
                if (staging.hasRemaining()) {
                    channel.write(staging);
                    if (staging.hasRemaining()) {
                        setWantWrite(true);
                        return;
                    }
                }
                OutFrame f = queue.peek();
                if (f == null) {
                    setWantWrite(false);
                    return;
                }
                if (f.header != null) {
                    // Stage the header with as much payload as fits: one system call for both.
                    staging.clear();
                    staging.put(f.header);
                    f.header = null;
                    int n = Math.min(staging.remaining(), f.payload.remaining());
                    staging.put(f.payload.slice().limit(n));
                    f.payload.position(f.payload.position() + n);
                    staging.flip();
                    continue;
                }
                while (f.payload.hasRemaining()) {
                    int n = writeSome(f.payload);
                    if (n == 0) {
                        setWantWrite(true);
                        return;
                    }
                }
                queue.poll();
                if (f.completion != null) {
                    f.completion.sent();
                    f.completion = null;
                }
            }
        } catch (IOException e) {
            lost("lost the connection to " + peerName + " while sending: " + describe(e));
        }
    }

    private int writeSome(ByteBuffer payload) throws IOException {
        if (payload.isDirect() || payload.remaining() <= HEAP_SLICE) {
            return channel.write(payload);
        }
        ByteBuffer slice = payload.slice().limit(HEAP_SLICE);
        int n = channel.write(slice);
        payload.position(payload.position() + n);
        return n;
    }

    private void setWantWrite(boolean want) {
        if (want == wantWrite || key == null || !key.isValid()) {
            return;
        }
        wantWrite = want;
        key.interestOps(want ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        if (want) {
            transport.wakeup(); // a blocked owner must re-select with OP_WRITE
        }
    }

    synchronized boolean outboundDrained() {
        return ended || (queue.isEmpty() && !staging.hasRemaining());
    }

    // ---- reading (progress owner only) -----------------------------------------------------------

    /** Reads every complete frame available; returns the number of frames finished. */
    int read() {
        int frames = 0;
        try {
            for (;;) {
                if (targetBuf == null) {
                    if (readBuf.remaining() < FrameDescriptor.HEADER_LENGTH) {
                        if (fill() == 0) {
                            return frames;
                        }
                        continue;
                    }
                    int at = readBuf.position();
                    int length = FrameDescriptor.length(readBuf, at);
                    short type = FrameDescriptor.type(readBuf, at);
                    int context = FrameDescriptor.context(readBuf, at);
                    int tag = FrameDescriptor.tag(readBuf, at);
                    readBuf.position(at + FrameDescriptor.HEADER_LENGTH);
                    if (type == FrameDescriptor.TYPE_BYE && length == 0 && !byeReceived) {
                        byeReceived = true;
                        frames++;
                        continue;
                    }
                    if (type != FrameDescriptor.TYPE_DATA || length < 0 || byeReceived) {
                        transport.countMalformed();
                        lost("received a malformed frame from " + peerName + " (type " + type + ", length " + length
                                + "); closing the connection");
                        return frames;
                    }
                    target = sink.begin(peer, context, tag, length);
                    targetBuf = target.buffer();
                    if (!targetBuf.hasRemaining()) {
                        finishTarget();
                        frames++;
                        continue;
                    }
                }
                if (readBuf.hasRemaining()) {
                    int n = Math.min(readBuf.remaining(), targetBuf.remaining());
                    int limit = readBuf.limit();
                    readBuf.limit(readBuf.position() + n);
                    targetBuf.put(readBuf);
                    readBuf.limit(limit);
                }
                if (!targetBuf.hasRemaining()) {
                    finishTarget();
                    frames++;
                    continue;
                }
                if (targetBuf.remaining() >= DIRECT_READ_MIN) {
                    int n = readSome(targetBuf);
                    if (n < 0) {
                        throw new EOFException();
                    }
                    if (n == 0) {
                        return frames;
                    }
                    continue;
                }
                if (fill() == 0) {
                    return frames;
                }
            }
        } catch (EOFException e) {
            if (byeReceived && targetBuf == null) {
                endQuietly();
            } else {
                lost(peerName + " closed its connection without saying goodbye (it exited or was killed)");
            }
        } catch (IOException e) {
            lost("lost the connection to " + peerName + ": " + describe(e));
        }
        return frames;
    }

    private int readSome(ByteBuffer dst) throws IOException {
        if (dst.isDirect() || dst.remaining() <= HEAP_SLICE) {
            return channel.read(dst);
        }
        ByteBuffer slice = dst.slice().limit(HEAP_SLICE);
        int n = channel.read(slice);
        if (n > 0) {
            dst.position(dst.position() + n);
        }
        return n;
    }

    private int fill() throws IOException {
        readBuf.compact();
        int n;
        try {
            n = channel.read(readBuf);
        } finally {
            readBuf.flip();
        }
        if (n < 0) {
            throw new EOFException();
        }
        return n;
    }

    private void finishTarget() {
        InboundTarget t = target;
        target = null;
        targetBuf = null;
        t.complete();
    }

    boolean byeReceived() {
        return byeReceived;
    }

    boolean isEnded() {
        return ended;
    }

    // ---- endings ---------------------------------------------------------------------------------

    /** The peer is gone: fail what waits on it, tell the engine, close. */
    void lost(String reason) {
        SendCompletion[] toFail;
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            failure = reason;
            toFail = queue.stream().map(f -> f.completion).filter(c -> c != null).toArray(SendCompletion[]::new);
            queue.clear();
            staging.limit(0);
        }
        closeChannel();
        CohortException cause = new PeerFailedException(peer, reason);
        for (SendCompletion c : toFail) {
            c.failed(cause);
        }
        sink.peerFailed(peer, reason);
    }

    /** Normal end after the peer's goodbye. */
    void endQuietly() {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            queue.clear();
        }
        closeChannel();
    }

    private void closeChannel() {
        if (key != null) {
            key.cancel();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // Closing a broken socket can fail; it is gone either way.
        }
    }

    private static String describe(IOException e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }
}

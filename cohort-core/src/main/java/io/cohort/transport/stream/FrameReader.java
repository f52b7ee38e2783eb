package io.cohort.transport.stream;

import io.cohort.transport.InboundSink;
import io.cohort.transport.InboundTarget;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;

/**
 * Reads frames from one peer and hands them to the engine; only the progress owner calls it.
 * Headers and small payloads come through a 64 KiB read buffer; once a large payload's target is
 * known and the buffer is drained, the rest is read straight into the target.
 *
 * <p>A read that returns less than it had room for has emptied the socket, so the reader returns to
 * the selector instead of asking again: the second read would only come back empty, one wasted
 * system call per message. The selector is level-triggered, so bytes that arrive after that short
 * read make the channel ready again and nothing waits.
 */
public final class FrameReader {
    public static final int READ_BUFFER_BYTES = 64 * 1024 + FrameDescriptor.HEADER_LENGTH;
    /** Below this a payload's tail is read via the read buffer, above it straight into the target. */
    public static final int DIRECT_READ_MIN = 16 * 1024;

    /** How a read ended, when it did. */
    public enum End {
        /** Still open. */
        NONE,
        /** End of stream after the peer's goodbye: a normal close. */
        CLEAN,
        /** End of stream or an error without a goodbye, or a malformed frame: the peer is lost. */
        LOST
    }

    private final int peer;
    private final ReadableByteChannel channel;
    private final InboundSink sink;
    private final ByteBuffer readBuf = ByteBuffer.allocateDirect(READ_BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private InboundTarget target;
    private ByteBuffer targetBuf;
    private volatile boolean byeReceived;
    private End end = End.NONE;
    private String lostReason;
    private long malformed;
    /** The last read in this call came back short: the socket had nothing more at that moment. */
    private boolean drained;

    public FrameReader(int peer, ReadableByteChannel channel, InboundSink sink) {
        this.peer = peer;
        this.channel = channel;
        this.sink = sink;
        readBuf.limit(0);
    }

    /** Reads every frame available now; returns how many finished. Check {@link #end()} afterwards. */
    public int read(String peerName) {
        int frames = 0;
        drained = false; // called because the channel is ready: always try at least once
        try {
            for (;;) {
                if (targetBuf == null) {
                    if (readBuf.remaining() < FrameDescriptor.HEADER_LENGTH) {
                        if (drained || fill() == 0) {
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
                        malformed++;
                        end = End.LOST;
                        lostReason = "received a malformed frame from " + peerName + " (type " + type + ", length "
                                + length + "); closing the connection";
                        return frames;
                    }
                    if (length <= readBuf.remaining()) {
                        // The whole message is here: match and copy it in one step.
                        sink.deliver(peer, context, tag, readBuf, readBuf.position(), length);
                        readBuf.position(readBuf.position() + length);
                        frames++;
                        continue;
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
                if (drained) {
                    return frames;
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
                end = End.CLEAN;
            } else {
                end = End.LOST;
                lostReason = peerName + " closed its connection without saying goodbye (it exited or was killed)";
            }
        } catch (IOException e) {
            end = End.LOST;
            lostReason = "lost the connection to " + peerName + ": "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
        return frames;
    }

    private int readSome(ByteBuffer dst) throws IOException {
        int room = Math.min(dst.remaining(), dst.isDirect() ? Integer.MAX_VALUE : FrameWriter.HEAP_SLICE);
        int n;
        if (room == dst.remaining()) {
            n = channel.read(dst);
        } else {
            ByteBuffer slice = dst.slice().limit(room);
            n = channel.read(slice);
            if (n > 0) {
                dst.position(dst.position() + n);
            }
        }
        drained = n < room;
        return n;
    }

    private int fill() throws IOException {
        readBuf.compact();
        int room = readBuf.remaining();
        int n;
        try {
            n = channel.read(readBuf);
        } finally {
            readBuf.flip();
        }
        if (n < 0) {
            throw new EOFException();
        }
        drained = n < room;
        return n;
    }

    private void finishTarget() {
        InboundTarget t = target;
        target = null;
        targetBuf = null;
        t.complete();
    }

    public boolean byeReceived() {
        return byeReceived;
    }

    public End end() {
        return end;
    }

    /** Why the peer was lost, when {@link #end()} is {@link End#LOST}. */
    public String lostReason() {
        return lostReason;
    }

    public long malformedFrames() {
        return malformed;
    }
}

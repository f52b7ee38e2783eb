package io.cohort.transport.stream;

import io.cohort.CohortException;
import io.cohort.PeerFailedException;
import io.cohort.transport.SendCompletion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayDeque;

/**
 * Writes frames to one peer; any sending thread may drive it (every method synchronizes on this).
 *
 * <p>A message that fits the 64 KiB staging buffer is copied there with its header and written
 * with one call; its send completes at once, since the caller's memory is no longer needed. A
 * larger one is staged with its first bytes and the rest is written straight from the caller's
 * buffer (heap arrays in slices, because the JDK copies a heap buffer through a temporary direct
 * buffer on every socket call); its send completes when the last byte is taken. When the channel is
 * full the frame stays queued, {@link Listener#wantWrite} is told, and a later {@link #flush}
 * finishes it.
 */
public final class FrameWriter {
    public static final int STAGING_BYTES = 64 * 1024 + FrameDescriptor.HEADER_LENGTH;
    /** Largest slice of a heap buffer handed to one write call. */
    public static final int HEAP_SLICE = 256 * 1024;

    /** What the owning connection does about the writer's state. */
    public interface Listener {
        /** The channel is full with frames queued ({@code true}), or everything is out ({@code false}). */
        void wantWrite(boolean want);

        /** Writing failed: the peer is gone. Called with the writer's monitor held. */
        void writeFailed(IOException cause);
    }

    private final int peer;
    private final WritableByteChannel channel;
    private final Listener listener;
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final ArrayDeque<OutFrame> queue = new ArrayDeque<>();
    private boolean wantWrite;
    private boolean byeQueued;
    private volatile boolean ended;
    private String endReason;

    /** A frame waiting for the channel. */
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

    public FrameWriter(int peer, WritableByteChannel channel, Listener listener) {
        this.peer = peer;
        this.channel = channel;
        this.listener = listener;
        staging.limit(0);
    }

    public synchronized void send(int context, int tag, ByteBuffer payload, SendCompletion completion) {
        if (ended && endReason != null) {
            completion.failed(new PeerFailedException(peer, endReason));
            return;
        }
        if (ended || byeQueued) {
            completion.failed(new CohortException("cannot send to rank " + peer
                    + ": this peer is closing its communicator"));
            return;
        }
        int length = payload.remaining();
        if (queue.isEmpty() && !staging.hasRemaining() && length <= STAGING_BYTES - FrameDescriptor.HEADER_LENGTH) {
            // Fast path: idle channel, small message. One copy, one call, done.
            staging.clear();
            FrameDescriptor.write(staging, length, FrameDescriptor.TYPE_DATA, context, tag);
            staging.put(payload.duplicate());
            staging.flip();
            completion.sent();
            flushLocked();
            return;
        }
        ByteBuffer header = header(length, FrameDescriptor.TYPE_DATA, context, tag);
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

    /** Queues the goodbye frame: nothing may be sent after it. */
    public synchronized void sendBye() {
        if (ended || byeQueued) {
            return;
        }
        byeQueued = true;
        queue.add(new OutFrame(header(0, FrameDescriptor.TYPE_BYE, 0, 0), ByteBuffer.allocate(0), null));
        flushLocked();
    }

    private static ByteBuffer header(int length, short type, int context, int tag) {
        ByteBuffer h = ByteBuffer.allocate(FrameDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        FrameDescriptor.write(h, length, type, context, tag);
        return h.flip();
    }

    public synchronized void flush() {
        flushLocked();
    }

    /** Whether {@link #end} has been called; a plain volatile read, cheap enough for every poll. */
    public boolean isEnded() {
        return ended;
    }

    public synchronized boolean hasPending() {
        return !ended && (!queue.isEmpty() || staging.hasRemaining());
    }

    /** Writes until everything is out or the channel is full. */
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
                    // Stage the header with as much payload as fits: one call for both.
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
                    if (writeSome(f.payload) == 0) {
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
            listener.writeFailed(e);
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
        if (want != wantWrite) {
            wantWrite = want;
            listener.wantWrite(want);
        }
    }

    /**
     * Ends the writer. With a {@code reason} (the peer is lost) later sends fail with it and so do the
     * queued sends that had not finished; with null (a normal end after goodbyes) nothing is pending.
     * Returns false if it had ended before.
     */
    public boolean end(String reason) {
        SendCompletion[] pending;
        synchronized (this) {
            if (ended) {
                return false;
            }
            ended = true;
            endReason = reason;
            java.util.List<SendCompletion> waiting = new java.util.ArrayList<>();
            for (OutFrame f : queue) {
                if (f.completion != null) {
                    waiting.add(f.completion);
                }
            }
            pending = waiting.toArray(new SendCompletion[0]);
            queue.clear();
            staging.limit(0);
        }
        if (reason != null) {
            PeerFailedException cause = new PeerFailedException(peer, reason);
            for (SendCompletion c : pending) {
                c.failed(cause);
            }
        }
        return true;
    }
}

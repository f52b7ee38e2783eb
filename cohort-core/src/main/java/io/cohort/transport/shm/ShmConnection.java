package io.cohort.transport.shm;

import io.cohort.transport.InboundSink;
import io.cohort.transport.SendCompletion;
import io.cohort.transport.stream.FrameReader;
import io.cohort.transport.stream.FrameWriter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * One local peer: frames in through the ring it writes to us, frames out through the ring we
 * write to it. A ring has no end of stream: a peer that dies is reported by the launcher
 * ({@link #peerGone}), and the ring tells whether it said goodbye first.
 */
final class ShmConnection implements FrameWriter.Listener {
    final int peer;
    final String peerName;
    private final InboundSink sink;
    private final FrameReader reader;
    private final FrameWriter writer;
    private volatile boolean writePending;

    ShmConnection(int peer, String peerName, ShmRing in, ShmRing out, InboundSink sink) {
        this.peer = peer;
        this.peerName = peerName;
        this.sink = sink;
        this.reader = new FrameReader(peer, inbound(in), sink);
        this.writer = new FrameWriter(peer, outbound(out), this);
    }

    private static ReadableByteChannel inbound(ShmRing ring) {
        return new ReadableByteChannel() {
            @Override
            public int read(ByteBuffer dst) {
                return ring.read(dst);
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
    }

    private static WritableByteChannel outbound(ShmRing ring) {
        return new WritableByteChannel() {
            @Override
            public int write(ByteBuffer src) {
                return ring.write(src);
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
    }

    void send(int context, int tag, ByteBuffer payload, SendCompletion completion) {
        writer.send(context, tag, payload, completion);
    }

    void sendBye() {
        writer.sendBye();
    }

    /** Progress owner: read what arrived, push what waits. Returns work done. */
    int poll() {
        if (writer.isEnded()) {
            return 0;
        }
        int work = reader.read(peerName);
        if (reader.end() == FrameReader.End.LOST) {
            lost(reader.lostReason());
            return work;
        }
        if (writePending) {
            writer.flush();
            work++;
        }
        return work;
    }

    boolean isCloseComplete() {
        return writer.isEnded() || (reader.byeReceived() && !writer.hasPending());
    }

    /** The launcher says the peer's process is gone: whatever it wrote is in the ring already. */
    void peerGone(String reason) {
        if (writer.isEnded()) {
            return;
        }
        reader.read(peerName);
        if (reader.byeReceived()) {
            endQuietly();
        } else {
            lost(reason);
        }
    }

    @Override
    public void wantWrite(boolean want) {
        writePending = want;
    }

    @Override
    public void writeFailed(IOException cause) {
        lost("writing to " + peerName + " failed: " + cause.getMessage());
    }

    /** The first end wins: the writer knows whether it has ended already. */
    void lost(String reason) {
        if (writer.end(reason)) {
            sink.peerFailed(peer, reason);
        }
    }

    void endQuietly() {
        writer.end(null);
    }
}

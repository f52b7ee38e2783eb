package io.cohort.transport.tcp;

import io.cohort.transport.InboundSink;
import io.cohort.transport.SendCompletion;
import io.cohort.transport.stream.FrameReader;
import io.cohort.transport.stream.FrameWriter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One peer's TCP connection: a {@link FrameReader} driven by the progress owner, a
 * {@link FrameWriter} any sending thread may drive, and the selection key whose OP_WRITE interest
 * follows the writer's backlog.
 */
final class TcpConnection implements FrameWriter.Listener {
    final int peer;
    final String peerName;
    private final SocketChannel channel;
    private final TcpTransport transport;
    private final InboundSink sink;
    private final FrameReader reader;
    private final FrameWriter writer;
    private volatile SelectionKey key;

    TcpConnection(int peer, String peerName, SocketChannel channel, TcpTransport transport, InboundSink sink) {
        this.peer = peer;
        this.peerName = peerName;
        this.channel = channel;
        this.transport = transport;
        this.sink = sink;
        this.reader = new FrameReader(peer, channel, sink);
        this.writer = new FrameWriter(peer, channel, this);
    }

    void register(SelectionKey key) {
        this.key = key;
    }

    void send(int context, int tag, ByteBuffer payload, SendCompletion completion) {
        writer.send(context, tag, payload, completion);
    }

    void sendBye() {
        writer.sendBye();
    }

    void flush() {
        writer.flush();
    }

    boolean outboundDrained() {
        return !writer.hasPending();
    }

    /** Reads every complete frame available; returns the number of frames finished. */
    /** The peer's goodbye has been handed to the sink; owner thread only. */
    private boolean byeReported;

    int read() {
        int frames = reader.read(peerName);
        if (!byeReported && reader.byeReceived() && reader.end() != FrameReader.End.LOST) {
            byeReported = true;
            sink.peerClosed(peer); // frames come in order: everything the peer sent is delivered
        }
        switch (reader.end()) {
            case CLEAN:
                endQuietly();
                break;
            case LOST:
                if (reader.malformedFrames() > 0) {
                    transport.countMalformed();
                }
                lost(reader.lostReason());
                break;
            default:
        }
        return frames;
    }

    boolean byeReceived() {
        return reader.byeReceived();
    }

    boolean isEnded() {
        return writer.isEnded();
    }

    @Override
    public void wantWrite(boolean want) {
        SelectionKey k = key;
        if (k == null || !k.isValid()) {
            return;
        }
        k.interestOps(want ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        if (want) {
            transport.wakeup(); // a blocked owner must re-select with OP_WRITE
        }
    }

    @Override
    public void writeFailed(IOException cause) {
        lost("lost the connection to " + peerName + " while sending: "
                + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage()));
    }

    /** The peer is gone: fail what waits on it, tell the engine, close. The first end wins. */
    void lost(String reason) {
        if (writer.end(reason)) {
            closeChannel();
            sink.peerFailed(peer, reason);
        }
    }

    /** Normal end after the peer's goodbye. */
    void endQuietly() {
        if (writer.end(null)) {
            closeChannel();
        }
    }

    private void closeChannel() {
        SelectionKey k = key;
        if (k != null) {
            k.cancel();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // Closing a broken socket can fail; it is gone either way.
        }
    }
}

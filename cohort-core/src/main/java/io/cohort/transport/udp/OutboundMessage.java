package io.cohort.transport.udp;

import io.cohort.transport.SendCompletion;

import java.nio.ByteBuffer;

/**
 * One message (or the goodbye) on its way to a peer: the bytes, where fragmentation has got to,
 * and whom to tell when the peer has acknowledged all of it. Guarded by its pair's lock.
 */
final class OutboundMessage {
    final byte type;
    final int context;
    final int tag;
    /** The payload at absolute positions {@code [start, start + length)}; a private copy or the caller's buffer. */
    final ByteBuffer data;
    final int start;
    final int length;
    /** Bytes of a private copy, counted against the transport's overflow limit until acknowledged. */
    final int copiedBytes;
    /** Told when every fragment is acknowledged; null if told already (copied messages complete at once). */
    SendCompletion completion;
    /** Bytes handed to fragments so far. */
    int fragmented;
    /** Whether the first fragment has been cut (a zero-length message has exactly one). */
    boolean started;

    OutboundMessage(byte type, int context, int tag, ByteBuffer data, int start, int length, int copiedBytes,
                    SendCompletion completion) {
        this.type = type;
        this.context = context;
        this.tag = tag;
        this.data = data;
        this.start = start;
        this.length = length;
        this.copiedBytes = copiedBytes;
        this.completion = completion;
    }

    /** True once every byte belongs to a fragment (the message has left the overflow queue). */
    boolean fullyFragmented() {
        return started && fragmented == length;
    }
}

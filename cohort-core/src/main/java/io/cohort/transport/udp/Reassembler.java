package io.cohort.transport.udp;

import io.cohort.transport.InboundSink;
import io.cohort.transport.InboundTarget;

import java.nio.ByteBuffer;

/**
 * Turns the in-order DATA frames of one peer back into messages: the first fragment asks the
 * engine where the message goes ({@link InboundSink#begin}: a posted receive's buffer, or a fresh
 * array), and every fragment's payload is copied straight there, so a large message streams into
 * the receive that waits for it without a second copy.
 *
 * <p>Threads: the progress owner only.
 */
final class Reassembler {
    static final int OK = 0;
    /** The fragment ended its message. */
    static final int COMPLETE = 1;
    static final int MALFORMED = -1;

    private final int peer;
    private final InboundSink sink;
    private InboundTarget target;
    private ByteBuffer buffer;
    private int remaining;

    Reassembler(int peer, InboundSink sink) {
        this.peer = peer;
        this.sink = sink;
    }

    /** Whether a message has begun and not ended. */
    boolean inMessage() {
        return target != null;
    }

    /** A FIRST fragment: {@code length} payload bytes of a {@code messageLength}-byte message at {@code from[at]}. */
    int first(int context, int tag, int messageLength, ByteBuffer from, int at, int length) {
        if (target != null || length > messageLength) {
            return MALFORMED;
        }
        target = sink.begin(peer, context, tag, messageLength);
        buffer = target.buffer();
        remaining = messageLength;
        return copy(from, at, length);
    }

    /** A continuation fragment. */
    int more(ByteBuffer from, int at, int length) {
        if (target == null || length > remaining) {
            return MALFORMED;
        }
        return copy(from, at, length);
    }

    private int copy(ByteBuffer from, int at, int length) {
        if (length > 0) {
            int p = buffer.position();
            buffer.put(p, from, at, length);
            buffer.position(p + length);
            remaining -= length;
        }
        if (remaining == 0) {
            InboundTarget t = target;
            target = null;
            buffer = null;
            t.complete();
            return COMPLETE;
        }
        return OK;
    }
}

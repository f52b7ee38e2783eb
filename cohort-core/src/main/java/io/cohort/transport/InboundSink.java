package io.cohort.transport;

import java.nio.ByteBuffer;

/**
 * Where a transport delivers what it reads: the engine's matching. Called by the thread that
 * drives the transport (or, for the local transport, by the sending thread).
 */
public interface InboundSink {
    /**
     * A message of {@code length} bytes from world rank {@code source} begins. The returned target's
     * buffer has exactly {@code length} bytes remaining; the transport fills it (possibly over many
     * calls, never interleaving two messages from the same source) and then calls
     * {@link InboundTarget#complete()}.
     */
    InboundTarget begin(int source, int context, int tag, int length);

    /**
     * A whole message of {@code length} bytes from {@code source} is at absolute index
     * {@code index} of {@code src}: match it and copy it out before returning (the transport reuses
     * that memory afterwards). The engine's fast path for messages that arrive in one piece; the
     * default goes through {@link #begin}.
     */
    default void deliver(int source, int context, int tag, ByteBuffer src, int index, int length) {
        InboundTarget t = begin(source, context, tag, length);
        ByteBuffer b = t.buffer();
        int p = b.position();
        b.put(p, src, index, length);
        b.position(p + length);
        t.complete();
    }

    /**
     * A whole message, the bytes of {@code payload} from position to limit (left unchanged), from
     * {@code source}: delivered before returning, as {@link #begin} would. For a sender that copies
     * straight into the receiver (self-sends, the local transport).
     */
    default void deliver(int source, int context, int tag, ByteBuffer payload) {
        InboundTarget t = begin(source, context, tag, payload.remaining());
        t.buffer().put(payload.duplicate());
        t.complete();
    }

    /** The transport lost {@code source}; {@code reason} is a sentence naming it. */
    void peerFailed(int source, String reason);

    /**
     * {@code source} said goodbye: every message it sent has been delivered, and no more will come.
     * Called once per peer, on the thread that delivers its messages, after the last of them.
     */
    default void peerClosed(int source) {
    }
}

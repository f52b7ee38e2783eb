package io.cohort.transport;

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

    /** The transport lost {@code source}; {@code reason} is a sentence naming it. */
    void peerFailed(int source, String reason);
}

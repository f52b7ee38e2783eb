package io.cohort.transport;

import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;

/**
 * Moves messages to and from a set of peers.
 *
 * <pre>
 *   user thread ── send(dest, ctx, tag, payload, completion) ──► transport ──► wire
 *                                                                            │
 *   progress owner ── poll() / block(nanos) ──► transport reads ──► InboundSink.begin(...)
 *                                                               └─► InboundTarget.complete()
 * </pre>
 *
 * <p>Threads: {@link #send} may be called by any thread, concurrently. {@link #poll},
 * {@link #block} and the close handshake are called only by the engine's current progress owner
 * (one thread at a time). {@link #wakeup} may be called by any thread.
 */
public interface Transport extends AutoCloseable {
    /** Short name shown to users ({@code tcp}, {@code local}). */
    String name();

    /**
     * Starts sending {@code payload} (position to limit; neither is changed). Never blocks for long:
     * when the wire is busy the frame is queued and finished by later {@link #poll} calls. The
     * completion is called exactly once, when the payload's memory may be reused or when the send
     * failed.
     */
    void send(int dest, int context, int tag, ByteBuffer payload, SendCompletion completion);

    /**
     * As {@link #send(int, int, int, ByteBuffer, SendCompletion)} for the {@code length} bytes of
     * {@code payload} from index {@code offset}, whatever its position and limit. Transports whose
     * send costs less than a buffer view (shared memory) take the bytes from there; the others get
     * a view of them.
     */
    default void send(int dest, int context, int tag, ByteBuffer payload, int offset, int length,
                      SendCompletion completion) {
        boolean whole = offset == payload.position() && length == payload.remaining();
        send(dest, context, tag, whole ? payload : payload.slice(offset, length), completion);
    }

    /** Does whatever I/O is possible without blocking; returns a count of work done (0 = idle). */
    int poll();

    /** Whether {@link #block} waits for I/O readiness; if not, the engine parks instead. */
    boolean canBlock();

    /** Waits up to {@code nanos} for I/O to become possible, then does it. */
    void block(long nanos);

    /**
     * Whether {@link #block} returns at once, having done the work, when I/O is already possible,
     * at no more cost than {@link #poll}: one selector call either way. Then an owner that is about
     * to block anyway blocks without polling first, which would only find nothing at the price of a
     * system call. False where polling is cheaper than sleeping (shared memory reads its rings,
     * but its sleep arms every peer's doorbell).
     */
    default boolean blockReplacesPoll() {
        return false;
    }

    /** Makes a concurrent {@link #block} return soon. */
    void wakeup();

    // ---- sleeping in another transport's block (a host's shared memory beside TCP to other hosts) ----

    /**
     * Sleeps shorter than this never use a wake channel (nor shared memory's own doorbell): they park
     * on a timer. Measured: a shared-memory ping-pong whose peers rang each other on every short
     * sleep fell into a mode of 10 µs a message (each ring a system call, each wake-up a scheduler
     * round), where short timed parks resynchronise the pair within its spins. The idle peer, whose
     * backoff has long reached its longest sleeps, is the one a wake channel is for; a selector's
     * time-out is in milliseconds anyway.
     */
    long WAKE_CHANNEL_MIN_SLEEP_NANOS = 1_000_000L;

    /**
     * A channel that becomes readable when this transport has work for a sleeping progress owner,
     * between {@link #prepareSleep} and {@link #endSleep}; null if it has none. The engine registers
     * it with the one transport that blocks ({@link #alsoWakeOn}), so a peer with shared-memory
     * neighbours and TCP links sleeps in one place and wakes for either.
     */
    default SelectableChannel wakeChannel() {
        return null;
    }

    /** Before another transport's {@link #block}: asks to be woken, and returns work it found meanwhile. */
    default int prepareSleep() {
        return poll();
    }

    /** After that block. */
    default void endSleep() {
    }

    /**
     * Whether {@link #block} also returns when {@code channel} (another transport's
     * {@link #wakeChannel}) becomes readable; registers it if this transport can. Called before traffic.
     */
    default boolean alsoWakeOn(SelectableChannel channel) {
        return false;
    }

    /**
     * The launcher says {@code peer}'s process is gone ({@code reason} names it). Transports that can
     * see a dead peer themselves (a socket's end of stream) may ignore it; a shared-memory ring
     * cannot, and uses it to end the connection. Called by the progress owner.
     */
    default void peerGone(int peer, String reason) {
    }

    /** Starts the goodbye handshake: no sends may follow. */
    void startClose();

    /** True once every peer has said goodbye or is gone, and our goodbyes are on the wire. */
    boolean isCloseComplete();

    /** Releases sockets and memory. */
    @Override
    void close();
}

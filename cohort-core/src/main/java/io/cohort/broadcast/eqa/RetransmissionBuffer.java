package io.cohort.broadcast.eqa;

import java.nio.ByteBuffer;

/**
 * What a broadcasting sender keeps so that any receiver can be sent any packet again: every packet
 * from the slowest receiver's cursor up to the next sequence number, at most a window of them.
 *
 * <pre>
 *   sequence:   ... freed ... | c_min ............................. | next
 *                             |<------- held, at most window ------->|
 *   cursors:    receiver 0 ──────────────^ c0        (next packet receiver 0 still needs)
 *               receiver 1 ──────^ c1 = c_min
 *               receiver 2 ────────────────────────────────────────^ c2 = next (has all)
 * </pre>
 *
 * A cursor only moves forward ({@link #acknowledge}); a packet is freed once every cursor has
 * passed it. Two implementations with this one contract: {@link SharedRetransmissionBuffer} (EQA:
 * one copy, a cursor per receiver) and {@link PerChannelRetransmissionBuffers} (the baseline: one
 * buffer, and one copy, per receiver). Receivers are numbered 0 to {@link #receivers()} - 1.
 *
 * <p>Threads: not thread-safe; one owner thread (the sender's progress thread) calls everything.
 * {@link #bytesHeld()} and {@link #peakBytesHeld()} may be read by any thread (a plain long that may
 * be stale, for reports).
 */
public interface RetransmissionBuffer {
    /** Bytes of a reference (a slot) in our accounting of structure bytes. */
    int REFERENCE_BYTES = 8;

    /** How many receivers (cursors) there are. */
    int receivers();

    /** Most packets held at once. */
    int window();

    /** The sequence number the next stored packet gets (0 for the first). */
    long nextSequence();

    /** The lowest cursor: the oldest packet still held, or {@link #nextSequence()} when none is. */
    long lowestCursor();

    /** Receiver {@code receiver}'s cursor: the first packet it has not acknowledged. */
    long cursor(int receiver);

    /** True if one more packet fits in the window. */
    default boolean hasRoom() {
        return nextSequence() - lowestCursor() < window();
    }

    /**
     * Copies {@code packet} (position to limit, position unchanged) and returns its sequence number.
     *
     * @throws IllegalStateException if the window is full ({@link #hasRoom()} said so)
     */
    long store(ByteBuffer packet);

    /**
     * Copies the stored packet {@code sequence}, as held for {@code receiver}, into {@code into} at
     * its position and returns its length, or -1 if it is not held for that receiver (already
     * acknowledged by it, or never stored).
     */
    int copy(int receiver, long sequence, ByteBuffer into);

    /**
     * Moves {@code receiver}'s cursor forward to {@code next} (the first packet it still lacks) and
     * frees what every cursor has now passed. Returns the packets freed; an old or impossible
     * {@code next} (behind the cursor, beyond {@link #nextSequence()}) changes nothing and returns -1.
     */
    int acknowledge(int receiver, long next);

    /** Bytes held now: packet copies plus the structures (slots, cursors), by array length. */
    long bytesHeld();

    /** The most {@link #bytesHeld()} ever was. */
    long peakBytesHeld();

    /** Builds the buffer of {@code design}. */
    static RetransmissionBuffer create(EqaContext.BufferDesign design, int receivers, int window) {
        return design == EqaContext.BufferDesign.SHARED
                ? new SharedRetransmissionBuffer(receivers, window)
                : new PerChannelRetransmissionBuffers(receivers, window);
    }
}

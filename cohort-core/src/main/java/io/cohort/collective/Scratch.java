package io.cohort.collective;

import java.nio.ByteBuffer;

/**
 * The memory a communicator's collectives reuse from one call to the next instead of allocating
 * it per call: a buffer for the bytes being sent, one for the bytes being received, and a few
 * element arrays of exact lengths (a partner's partial result, the working copy of a reduction).
 * A 64 KiB bcast or allreduce used to allocate four to six arrays of its size per call; fresh
 * memory costs the cache misses of touching it, and the collector its sweeps, far more than the
 * copies themselves (docs/collectives.md, "Memory").
 *
 * <p>Buffers and arrays up to {@link #KEEP_MAX} bytes are kept, so a communicator holds about 1 MiB
 * at most once its collectives have been long; a longer one is made for the call and dropped, and
 * {@link #release} drops them all when the communicator's collectives close.
 *
 * <p>Threads: guarded by the owning {@link Collectives}' running lock: one collective at a time.
 */
final class Scratch {
    /** The longest buffer kept between calls; longer collectives allocate, as their copies dominate anyway. */
    static final int KEEP_MAX = 256 << 10;
    /** Array slots: 0 the working copy, 1 onward a partner's data per round, the last the pair fold's. */
    static final int SLOTS = 34;
    /** The slot of the partial that a pair fold takes in before the rounds (its length differs from theirs). */
    static final int FOLD_SLOT = SLOTS - 1;

    private ByteBuffer send;
    private ByteBuffer recv;
    private final Object[] arrays = new Object[SLOTS];

    /** A heap buffer of at least {@code length} bytes for outgoing data (position and limit unused). */
    ByteBuffer send(int length) {
        ByteBuffer b = fit(send, length);
        if (length <= KEEP_MAX) {
            send = b;
        }
        return b;
    }

    /** As {@link #send}, for incoming data; a separate buffer, since both are in flight at once. */
    ByteBuffer recv(int length) {
        ByteBuffer b = fit(recv, length);
        if (length <= KEEP_MAX) {
            recv = b;
        }
        return b;
    }

    private static ByteBuffer fit(ByteBuffer kept, int length) {
        if (kept != null && kept.capacity() >= length) {
            return kept;
        }
        int grown = kept == null ? length : (int) Math.min(KEEP_MAX, Math.max(length, 2L * kept.capacity()));
        return ByteBuffer.allocate(length > KEEP_MAX ? length : grown);
    }

    /** Drops everything kept. */
    void release() {
        send = null;
        recv = null;
        java.util.Arrays.fill(arrays, null);
    }

    /**
     * An array of {@code n} elements of {@code like}'s type (byte[] for a ByteBuffer), exactly
     * that long (a user's op function may read the length), kept in {@code slot} for the next call.
     * Its contents are whatever the last user left.
     */
    Object array(int slot, Object like, int n) {
        Object a = arrays[slot];
        Class<?> type = like instanceof ByteBuffer ? byte[].class : like.getClass();
        if (a == null || a.getClass() != type || java.lang.reflect.Array.getLength(a) != n) {
            a = Buffers.newArrayLike(like, n);
            long bytes = (long) n * Buffers.elementBytes(like);
            if (bytes > 0 && bytes <= KEEP_MAX) { // never objects: a kept Object[] would hold the caller's objects
                arrays[slot] = a;
            }
        }
        return a;
    }
}

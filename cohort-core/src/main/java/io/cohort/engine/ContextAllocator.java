package io.cohort.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * One peer's supply of communicator contexts, and the list of the communicators it made.
 *
 * <p>A communicator owns three contexts, {@code c} for point-to-point, {@code c + 1} for its
 * housekeeping and {@code c + 2} for its collectives; the world has 0 to 2. A new communicator's {@code c} is agreed by its parent's
 * members: each proposes {@link #proposal()}, all take the largest and {@link #advancePast} it.
 * Since every member of the new communicator proposed, no member uses {@code c} for anything else,
 * so two communicators that share a peer never share a context; communicators with disjoint
 * members may, harmlessly. Contexts from {@link #FIRST_RESERVED} up belong to system services
 * (DECK's naming and group service), never to a communicator.
 *
 * <p>Threads: any; synchronized.
 */
public final class ContextAllocator {
    /** The first context a communicator may never have; services above it are out of reach of user traffic. */
    public static final int FIRST_RESERVED = Integer.MAX_VALUE - 15;

    /** Contexts per communicator. */
    static final int STRIDE = 3;
    private int next = STRIDE;
    private final List<EngineCommunicator> made = new ArrayList<>();

    synchronized int proposal() {
        return next;
    }

    /** Takes {@code context} to {@code context + 2}: nothing this peer makes later uses them. */
    synchronized void advancePast(int context) {
        if (context > FIRST_RESERVED - STRIDE) {
            throw new IllegalStateException("no contexts left for another communicator (" + context
                    + " would reach the reserved ones); free communicators that are no longer used");
        }
        next = Math.max(next, context + STRIDE);
    }

    synchronized void made(EngineCommunicator c) {
        made.add(c);
    }

    synchronized void closed(EngineCommunicator c) {
        made.remove(c);
    }

    /** The communicators made and not yet closed, newest first (the world closes them before itself). */
    synchronized List<EngineCommunicator> open() {
        List<EngineCommunicator> l = new ArrayList<>(made);
        java.util.Collections.reverse(l);
        return l;
    }
}

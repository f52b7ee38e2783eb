package io.cohort.stacks;

import java.util.List;
import java.util.Objects;

/**
 * One thread of a peer as a capture saw it.
 *
 * @param name      the thread's name
 * @param id        its {@code Thread.getId()}
 * @param daemon    whether it is a daemon thread
 * @param state     its state at the capture
 * @param lockName  what it waits on or is blocked on ({@code java.lang.Object@1b6d3586}, as
 *                  {@code ThreadInfo.getLockName()}), or null
 * @param lockOwner the name of the thread holding that lock, or null
 * @param frames    its stack, innermost frame first (as {@code Thread.getStackTrace()}); frames carry
 *                  class, method, file and line only (no module or class loader)
 * @param call      the collective it was in ({@link CollectiveCalls}), or null
 * @param peerWait  the message it waited for ({@link PeerWaits}), or null
 */
public record ThreadStack(String name, long id, boolean daemon, Thread.State state, String lockName, String lockOwner,
                          List<StackTraceElement> frames, CollectiveCall call, PeerWait peerWait) {
    public ThreadStack {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        frames = List.copyOf(frames);
    }

    /** A thread in no collective. */
    public ThreadStack(String name, long id, boolean daemon, Thread.State state, String lockName, String lockOwner,
                       List<StackTraceElement> frames) {
        this(name, id, daemon, state, lockName, lockOwner, frames, null, null);
    }

    /** This thread with {@code call} as its collective. */
    public ThreadStack withCall(CollectiveCall call) {
        return new ThreadStack(name, id, daemon, state, lockName, lockOwner, frames, call, peerWait);
    }

    /** This thread waiting for {@code wait}. */
    public ThreadStack withWait(PeerWait wait) {
        return new ThreadStack(name, id, daemon, state, lockName, lockOwner, frames, call, wait);
    }

    /** A frame as the wire carries it: class, method, file (or null) and line (-2 for a native method). */
    public static StackTraceElement frame(String className, String method, String file, int line) {
        return new StackTraceElement(className, method, file, line);
    }
}

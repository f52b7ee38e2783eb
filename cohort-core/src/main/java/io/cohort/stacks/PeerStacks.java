package io.cohort.stacks;

import java.util.List;

/**
 * Every live thread of one peer (the capturing thread itself excluded), in the order the capture
 * kept them: the main thread, then other non-daemon threads, then daemon threads, each by id.
 *
 * @param threads        the threads that fitted into the capture's size budget
 * @param omittedThreads threads left out because the budget ({@link #MAX_BYTES}) was spent
 */
public record PeerStacks(List<ThreadStack> threads, int omittedThreads) {
    /**
     * The most bytes one peer's encoded stacks may take: far above a real program's (a few KiB to a
     * few hundred), and small enough that a job of many peers stays cheap for the controller and far
     * below the control protocol's frame limit.
     */
    public static final int MAX_BYTES = 1024 * 1024;

    public PeerStacks {
        threads = List.copyOf(threads);
        if (omittedThreads < 0) {
            throw new IllegalArgumentException("omittedThreads " + omittedThreads);
        }
    }

    public static PeerStacks of(List<ThreadStack> threads) {
        return new PeerStacks(threads, 0);
    }

    public static PeerStacks none() {
        return new PeerStacks(List.of(), 0);
    }
}

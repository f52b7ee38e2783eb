package io.cohort.stacks;

import java.util.Map;

/**
 * Which message each thread waits for, for the stacks. The progress engine registers each thread's
 * waiter once, when the thread first waits; a capture asks every registered waiter what it waits
 * for now. The waiter already keeps its request while it waits, so recording costs a wait nothing.
 */
public final class PeerWaits {
    /** A thread's waiter, asked from the capturing thread; answers from fields its own thread writes. */
    public interface Source extends PerThread.Source<PeerWait> {
        /** What it waits for now, or null if it is not waiting (or for nothing a rank must send). */
        @Override
        PeerWait read();
    }

    private static final PerThread<PeerWait> SOURCES = new PerThread<>();

    private PeerWaits() {
    }

    /** Registers {@code thread}'s waiter (again: the last one counts, as a thread waits in one engine). */
    public static void register(Thread thread, Source source) {
        SOURCES.register(thread, source);
    }

    /** What every waiting thread waits for now, by thread id. */
    public static Map<Long, PeerWait> snapshot() {
        return SOURCES.snapshot();
    }
}

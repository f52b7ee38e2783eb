package io.cohort.stacks;

import java.util.Map;

/**
 * Which message each thread waits for, for the stacks. The progress engine registers each thread's
 * waiter once, when the thread first waits; a capture asks every registered waiter what it waits
 * for now. The waiter already keeps its request while it waits, so recording costs a wait nothing.
 *
 * <p>Waits outside the engine (the broadcast domain's {@code request} and {@code multicast}) write
 * their thread's {@link Slot} instead: a thread may use several domains, one after the other, and
 * the engine as well, so the slot belongs to the thread, not to a domain.
 */
public final class PeerWaits {
    /** A thread's waiter, asked from the capturing thread; answers from fields its own thread writes. */
    public interface Source extends PerThread.Source<PeerWait> {
        /** What it waits for now, or null if it is not waiting (or for nothing a rank must send). */
        @Override
        PeerWait read();
    }

    private static final PerThread<PeerWait> SOURCES = new PerThread<>();
    private static final PerThread<PeerWait> SLOTS = new PerThread<>();
    private static final ThreadLocal<Slot> MINE = ThreadLocal.withInitial(() -> {
        Slot s = new Slot();
        SLOTS.register(Thread.currentThread(), s);
        return s;
    });

    private PeerWaits() {
    }

    /** Registers {@code thread}'s waiter (again: the last one counts, as a thread waits in one engine). */
    public static void register(Thread thread, Source source) {
        SOURCES.register(thread, source);
    }

    /** The calling thread's slot for waits outside the engine; registered on its first use. */
    public static Slot slot() {
        return MINE.get();
    }

    /** What every waiting thread waits for now, by thread id. */
    public static Map<Long, PeerWait> snapshot() {
        Map<Long, PeerWait> all = SOURCES.snapshot();
        SLOTS.snapshot().forEach(all::putIfAbsent); // a thread waits in one place at a time
        return all;
    }

    /**
     * One thread's wait outside the engine: its thread sets it before it idles and clears it when the
     * wait ends; a capture reads it on another thread without synchronisation (a thread that stays in
     * its wait is seen there, which is what the stacks are for).
     */
    public static final class Slot implements Source {
        private PeerWait wait;

        private Slot() {
        }

        /** The thread now waits for {@code w}. */
        public void set(PeerWait w) {
            wait = w;
        }

        /** The thread waits no more. */
        public void clear() {
            wait = null;
        }

        @Override
        public PeerWait read() {
            return wait;
        }
    }
}

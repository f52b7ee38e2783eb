package io.cohort.stacks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Which message each thread waits for, for the stacks. The progress engine registers each thread's
 * waiter once, when the thread first waits; a capture asks every registered waiter what it waits
 * for now. The waiter already keeps its request while it waits, so recording costs a wait nothing.
 */
public final class PeerWaits {
    /** A thread's waiter, asked from the capturing thread; answers from fields its own thread writes. */
    public interface Source {
        /** What it waits for now, or null if it is not waiting (or for nothing a rank must send). */
        PeerWait waiting();
    }

    private static final Map<Thread, Source> SOURCES = new WeakHashMap<>(); // guarded by itself

    private PeerWaits() {
    }

    /** Registers {@code thread}'s waiter (again: the last one counts, as a thread waits in one engine). */
    public static void register(Thread thread, Source source) {
        synchronized (SOURCES) {
            SOURCES.put(thread, source);
        }
    }

    /** What every waiting thread waits for now, by thread id. */
    public static Map<Long, PeerWait> snapshot() {
        List<Map.Entry<Thread, Source>> sources;
        synchronized (SOURCES) {
            sources = new ArrayList<>(SOURCES.entrySet());
        }
        Map<Long, PeerWait> waits = new HashMap<>();
        for (Map.Entry<Thread, Source> e : sources) {
            PeerWait w = e.getValue().waiting();
            if (w != null) {
                waits.put(e.getKey().getId(), w);
            }
        }
        return waits;
    }
}

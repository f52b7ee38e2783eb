package io.cohort.stacks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * What each thread of this JVM is doing for the stacks, one source per thread, each asked by the
 * capture on its own thread. Weak in the thread: a source must not hold its thread, or an ended
 * thread would stay. Its uses are {@link CollectiveCalls} and {@link PeerWaits}.
 *
 * @param <R> what a source reports
 */
final class PerThread<R> {
    /** One thread's source; asked from the capturing thread, it answers from fields its own thread writes. */
    interface Source<R> {
        /** What its thread does now, or null. */
        R read();
    }

    private final Map<Thread, Source<R>> sources = new WeakHashMap<>(); // guarded by itself

    /** Registers {@code thread}'s source; a second registration replaces the first. */
    void register(Thread thread, Source<R> source) {
        synchronized (sources) {
            sources.put(thread, source);
        }
    }

    /** Every non-null report, by thread id. */
    Map<Long, R> snapshot() {
        List<Map.Entry<Thread, Source<R>>> all;
        synchronized (sources) {
            all = new ArrayList<>(sources.entrySet());
        }
        Map<Long, R> out = new HashMap<>();
        for (Map.Entry<Thread, Source<R>> e : all) {
            R r = e.getValue().read();
            if (r != null) {
                out.put(e.getKey().getId(), r);
            }
        }
        return out;
    }
}

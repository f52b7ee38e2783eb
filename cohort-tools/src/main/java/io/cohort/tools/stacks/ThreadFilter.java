package io.cohort.tools.stacks;

import io.cohort.stacks.ThreadStack;

import java.util.List;
import java.util.Set;

/**
 * Which threads the stacks show. By default the JVM's housekeeping threads (reference handling,
 * finalization, signal dispatch, the cleaner, JMX notifications, the attach listener, compiler and
 * flight-recorder threads) and Cohort's watch of its io-manager are hidden: they are the same in
 * every peer, always idle, and say nothing about where a program is. {@code --all-threads} shows them.
 */
public final class ThreadFilter {
    private static final Set<String> HOUSEKEEPING = Set.of("Reference Handler", "Finalizer", "Signal Dispatcher",
            "Common-Cleaner", "Notification Thread", "Attach Listener", "Service Thread", "Sweeper thread",
            "Monitor Deflation Thread", "process reaper", "cohort-parent-watch");
    private static final List<String> HOUSEKEEPING_PREFIXES = List.of("C1 CompilerThread", "C2 CompilerThread",
            "JVMCI CompilerThread", "JFR ");

    /** Every thread. */
    public static final ThreadFilter ALL = new ThreadFilter(false);
    /** Every thread but the housekeeping ones. */
    public static final ThreadFilter PROGRAM = new ThreadFilter(true);

    private final boolean hideHousekeeping;

    private ThreadFilter(boolean hideHousekeeping) {
        this.hideHousekeeping = hideHousekeeping;
    }

    public static ThreadFilter of(boolean allThreads) {
        return allThreads ? ALL : PROGRAM;
    }

    public boolean shows(ThreadStack t) {
        return !hideHousekeeping || !housekeeping(t.name());
    }

    static boolean housekeeping(String name) {
        if (HOUSEKEEPING.contains(name)) {
            return true;
        }
        for (String p : HOUSEKEEPING_PREFIXES) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}

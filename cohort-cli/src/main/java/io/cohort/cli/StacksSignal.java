package io.cohort.cli;

/**
 * The launcher's signal for "print the job's merged stacks": SIGUSR1, which the {@code ./cohort}
 * script sends when it gets SIGQUIT (Ctrl-\).
 *
 * <p>Why not SIGQUIT itself: a HotSpot JVM keeps SIGQUIT for its own thread dump, and
 * {@code Signal.handle} refuses it ("already used by VM"), also with {@code -Xrs}. Why not SIGUSR2:
 * HotSpot suspends threads with SIGUSR2 on Linux and macOS (its SR signal, which the flight
 * recorder's sampler uses); a handler for it would replace HotSpot's and be called for every sample.
 * SIGUSR1 is free. The handler is {@code sun.misc.Signal}'s, in module {@code jdk.unsupported}, which
 * every JDK exports without flags; {@link JobControl} is its only other use in Cohort. Each signal runs the action on a
 * new thread of its own, so the action may block.
 */
final class StacksSignal {
    static final String NAME = "USR1";

    private StacksSignal() {
    }

    /** Runs {@code action} on every SIGUSR1 from now on; false if this JVM does not allow it. */
    static boolean install(Runnable action) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(NAME), new sun.misc.SignalHandler() {
                @Override
                public void handle(sun.misc.Signal signal) {
                    action.run();
                }
            });
            return true;
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            return false; // no such signal here, or the JVM keeps it: the job runs without the stacks signal
        }
    }
}

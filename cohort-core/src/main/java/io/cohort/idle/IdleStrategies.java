package io.cohort.idle;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The named strategies and their settings. The peer's strategy comes from the system property
 * {@value #IDLE_PROP_NAME} or the environment variable {@value #IDLE_ENV_NAME} ({@code cohort run
 * --idle NAME} sets it), default {@value #IDLE_DEFAULT}.
 */
public final class IdleStrategies {
    public static final String IDLE_PROP_NAME = "cohort.idle";
    public static final String IDLE_ENV_NAME = "COHORT_IDLE";
    public static final String IDLE_DEFAULT = "backoff";

    /** Spins of the backoff strategy before it yields: about 20-50 µs of polling on current CPUs. */
    public static final int BACKOFF_SPINS_DEFAULT = 200;
    /** Yields of the backoff strategy before it blocks. */
    public static final int BACKOFF_YIELDS_DEFAULT = 20;
    /** First blocking period of backoff; the kernel wakes a blocked owner earlier when data arrives. */
    public static final long BACKOFF_MIN_BLOCK_NANOS = 50_000L;
    /** Longest blocking period of backoff and park. */
    public static final long BACKOFF_MAX_BLOCK_NANOS = 10_000_000L;

    public static final List<String> NAMES = List.of("busy-spin", "yield", "backoff", "park");

    private IdleStrategies() {
    }

    /** A factory for the named strategy. */
    public static Supplier<IdleStrategy> factory(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        switch (n) {
            case "busy-spin":
            case "spin":
                return new Named("busy-spin");
            case "yield":
                return new Named("yield");
            case "backoff":
                return new Named("backoff");
            case "park":
                return new Named("park");
            default:
                throw new IllegalArgumentException("unknown idle strategy '" + name + "'; choose one of " + NAMES);
        }
    }

    /** A factory by name; a class rather than lambdas, which cost every peer's start-up their linking. */
    private static final class Named implements Supplier<IdleStrategy> {
        private final String name;

        Named(String name) {
            this.name = name;
        }

        @Override
        public IdleStrategy get() {
            switch (name) {
                case "busy-spin":
                    return new BusySpinIdleStrategy();
                case "yield":
                    return new YieldingIdleStrategy();
                case "park":
                    return new ParkingIdleStrategy(BACKOFF_MAX_BLOCK_NANOS);
                default:
                    return new BackoffIdleStrategy(BACKOFF_SPINS_DEFAULT, BACKOFF_YIELDS_DEFAULT,
                            BACKOFF_MIN_BLOCK_NANOS, BACKOFF_MAX_BLOCK_NANOS);
            }
        }
    }

    /** The factory configured by property or environment, or the default. */
    public static Supplier<IdleStrategy> configured() {
        String name = System.getProperty(IDLE_PROP_NAME);
        if (name == null) {
            name = System.getenv(IDLE_ENV_NAME);
        }
        return factory(name == null || name.isBlank() ? IDLE_DEFAULT : name);
    }
}

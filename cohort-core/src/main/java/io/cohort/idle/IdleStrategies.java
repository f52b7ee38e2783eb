package io.cohort.idle;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The named strategies and their settings. The peer's strategy comes from the system property
 * {@value #IDLE_PROP_NAME} or the environment variable {@value #IDLE_ENV_NAME} ({@code cohort run
 * --idle NAME} sets it), default {@value #IDLE_DEFAULT}. Where the io-manager bound the peer to a
 * processor that another peer of the job shares ({@value #CPU_SHARED_ENV_NAME}{@code =1}),
 * {@code backoff} does not spin: it yields at once, for up to 1 ms, and then blocks. A spin there
 * only holds the processor that the peer it waits for may need (docs/notes/benchmark-history.md,
 * "Yielding at once on a shared processor").
 */
public final class IdleStrategies {
    public static final String IDLE_PROP_NAME = "cohort.idle";
    public static final String IDLE_ENV_NAME = "COHORT_IDLE";
    public static final String IDLE_DEFAULT = "backoff";

    /**
     * Spins of the backoff strategy before it yields: a spin is one {@code Thread.onSpinWait()}, 25 ns
     * on the AMD EPYC of docs/benchmarks.md (its PAUSE), about 40 ns on recent Intel cores, so 5-8 µs.
     */
    public static final int BACKOFF_SPINS_DEFAULT = 200;
    /** Yields of the backoff strategy before it blocks, at least; see {@link #BACKOFF_YIELD_NANOS}. */
    public static final int BACKOFF_YIELDS_DEFAULT = 20;
    /**
     * How long the backoff strategy yields before it blocks (after {@link #BACKOFF_YIELDS_DEFAULT}
     * yields at least): 100 µs, about what a block and its wake-up cost on the virtual machines of
     * docs/notes/benchmark-history.md (60-200 µs), so that a wait never loses more than about twice
     * its length by polling rather than sleeping at once. Twenty yields alone (13 µs there) were shorter than the
     * waits of a large transfer between two peers, whose every sleep then made the other side wait
     * and sleep too: 4 MiB messages moved at 17-20 GB/s instead of busy-spin's 23-26 GB/s
     * (docs/notes/benchmark-history.md, "The machine's two modes, and backoff that yields for 100 µs"). A yield
     * gives the processor to any thread that wants it, so the longer phase takes nothing from
     * others, only idle time.
     */
    public static final long BACKOFF_YIELD_NANOS = 100_000L;
    /** First blocking period of backoff; the kernel wakes a blocked owner earlier when data arrives. */
    public static final long BACKOFF_MIN_BLOCK_NANOS = 50_000L;
    /** Longest blocking period of backoff and park. */
    public static final long BACKOFF_MAX_BLOCK_NANOS = 10_000_000L;
    /**
     * How long the backoff strategy yields before it blocks, where the peer shares its processor (it
     * spins not at all): 1 ms, longer than a collective's waits at N = 4 on 2 processors, so these
     * never block (a 20 ms window measured the same), and short enough that a long wait soon stops
     * taking turns on the processor.
     */
    public static final long BACKOFF_SHARED_YIELD_NANOS = 1_000_000L;
    /** Set to {@code 1} by the io-manager where it bound the peer to a processor another peer of the job shares. */
    public static final String CPU_SHARED_ENV_NAME = "COHORT_CPU_SHARED";

    public static final List<String> NAMES = List.of("busy-spin", "yield", "backoff", "park");

    private IdleStrategies() {
    }

    /** A factory for the named strategy. */
    public static Supplier<IdleStrategy> factory(String name) {
        return factory(name, false);
    }

    /** A factory for the named strategy, for a peer that shares its processor with another peer or not. */
    public static Supplier<IdleStrategy> factory(String name, boolean sharedCpu) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        switch (n) {
            case "busy-spin":
            case "spin":
                return new Named("busy-spin", false);
            case "yield":
                return new Named("yield", false);
            case "backoff":
                return new Named("backoff", sharedCpu);
            case "park":
                return new Named("park", false);
            default:
                throw new IllegalArgumentException("unknown idle strategy '" + name + "'; choose one of " + NAMES);
        }
    }

    /** A factory by name; a class rather than lambdas, which cost every peer's start-up their linking. */
    private static final class Named implements Supplier<IdleStrategy> {
        private final String name;
        private final boolean sharedCpu;

        Named(String name, boolean sharedCpu) {
            this.name = name;
            this.sharedCpu = sharedCpu;
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
                    return sharedCpu ? new BackoffIdleStrategy(0, 0, BACKOFF_SHARED_YIELD_NANOS, BACKOFF_MIN_BLOCK_NANOS, BACKOFF_MAX_BLOCK_NANOS)
                            : new BackoffIdleStrategy(BACKOFF_SPINS_DEFAULT, BACKOFF_YIELDS_DEFAULT, BACKOFF_YIELD_NANOS,
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
        return factory(name == null || name.isBlank() ? IDLE_DEFAULT : name, "1".equals(System.getenv(CPU_SHARED_ENV_NAME)));
    }
}

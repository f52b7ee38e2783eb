package io.cohort;

/**
 * Named intervals for the parallel profiler (PSE's interval profiling): what the program was doing,
 * in its own words, beside the samples and message events {@code cohort run --profile} records.
 *
 * <pre>
 *   try (Profile.Region r = Profile.region("solve")) {
 *       ... compute, communicate ...
 *   }
 * </pre>
 *
 * Regions nest, and each thread has its own. While no recording wants them the call returns a
 * shared do-nothing region: it allocates nothing and costs a check, so regions may stay in
 * production code. Any thread may open a region; close it on the thread that opened it.
 */
public final class Profile {
    private Profile() {
    }

    /** An interval opened by {@link #region}; closing it ends the interval (again: nothing). */
    public interface Region extends AutoCloseable {
        @Override
        void close();
    }

    /** What {@link #region} returns while nothing records regions. */
    private static final Region OFF = new Region() {
        @Override
        public void close() {
        }
    };

    /**
     * Opens a region called {@code name}; close it (try-with-resources) where the interval ends.
     *
     * @throws IllegalArgumentException if {@code name} is null
     */
    public static Region region(String name) {
        if (name == null) {
            throw new IllegalArgumentException("a profile region needs a name, not null");
        }
        Region r = CohortProvider.get().region(name);
        return r == null ? OFF : r;
    }
}

package io.cohort;

/**
 * Holds the {@link CohortProvider}, made when the API first needs it (the class's initialization,
 * which the JVM runs once, on one thread). A static final field, so that calls through it compile
 * to direct calls of the one implementation.
 *
 * <p>The implementation is named here, not looked up with {@link java.util.ServiceLoader}: it ships
 * in the same jar as the API, and a lookup would cost every peer's start-up some 130 more JDK
 * classes (the resource scan of the class path and the runtime image) and, measured, about 20 ms
 * of CPU time (5-10% of a one-peer job); loading one class by name costs nothing measurable.
 */
final class ProviderHolder {
    /** cohort-core's implementation; {@code CohortTest} fails if it moves without this name. */
    static final String IMPLEMENTATION = "io.cohort.wireup.CoreProvider";

    static final CohortProvider PROVIDER = load();

    private ProviderHolder() {
    }

    private static CohortProvider load() {
        try {
            // The API's own loader, not the thread's context loader: the implementation ships in the
            // same jar as the API, whatever loader the calling thread was given.
            return (CohortProvider) Class.forName(IMPLEMENTATION, true, CohortProvider.class.getClassLoader())
                    .getConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("Cohort's implementation " + IMPLEMENTATION + " is missing or broken; put the"
                    + " whole cohort-core.jar on the class path", e);
        }
    }
}

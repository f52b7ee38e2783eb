/**
 * Cohort's public API: {@link io.cohort.Cohort#init()} joins a job and returns the world
 * {@link io.cohort.Communicator}; {@link io.cohort.LocalCohort} runs N peers as threads in one JVM.
 *
 * {@link io.cohort.Profile} marks named regions for the profiler ({@code cohort run --profile}).
 *
 * <p>An API package, with {@code io.cohort.deck}: it depends on the JDK only. The implementation
 * depends on it, never the reverse; the entry points reach the implementation through
 * {@link io.cohort.CohortProvider} (see {@code docs/architecture.md}, "Packages and their layers").
 */
package io.cohort;

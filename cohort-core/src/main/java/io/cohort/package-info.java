/**
 * Cohort's public API: {@link io.cohort.Cohort#init()} joins a job and returns the world
 * {@link io.cohort.Communicator}; {@link io.cohort.LocalCohort} runs N peers as threads in one JVM.
 *
 * {@link io.cohort.Profile} marks named regions for the profiler ({@code cohort run --profile}).
 *
 * <p>This package depends only on the JDK and on Cohort's own engine, transport, wire-up and
 * profile packages; nothing below it may depend on it except through the interfaces declared here.
 */
package io.cohort;

/**
 * Cohort's public API: {@link io.cohort.Cohort#init()} joins a job and returns the world
 * {@link io.cohort.Communicator}; {@link io.cohort.LocalCohort} runs N peers as threads in one JVM.
 *
 * <p>This package depends only on the JDK and on Cohort's own engine, transport and wire-up
 * packages; nothing below it may depend on it except through the interfaces declared here.
 */
package io.cohort;

/**
 * Cohort's parallel tools, run by the command line after or beside a job: the profiler's reports
 * ({@code cohort prof}: text, HTML with SVG plots, Chrome trace) read from the per-peer Java Flight
 * Recorder files, and the merged stack tree of {@code cohort stacks}. May depend on the JDK
 * (including {@code jdk.jfr}) and cohort-core; the command line depends on it, never the other way.
 */
package io.cohort.tools;

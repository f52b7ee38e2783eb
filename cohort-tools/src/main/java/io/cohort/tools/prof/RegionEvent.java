package io.cohort.tools.prof;

/** One user region ({@code io.cohort.Region}, PSE's interval profiling) of a peer: name, wall-clock start in epoch ns, duration. */
public record RegionEvent(String name, long startNanos, long durationNanos, long threadId) {
}

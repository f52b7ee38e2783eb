package io.cohort.cluster;

import java.util.Objects;

/**
 * What a load server knows about one member when a job is placed: whether it may take new work, its
 * CPUs, its 1-minute load average, its job slots and the jobs it runs now.
 *
 * @param name       the member's name
 * @param available  up and answering (not down, not expired by TTL); a drained member is available but
 *                   has no slots
 * @param cpus       processors, 1 or more
 * @param load1      the 1-minute load average
 * @param slots      job slots (0: drained)
 * @param activeJobs Cohort jobs running on it now
 */
public record MemberLoad(String name, boolean available, int cpus, double load1, int slots, int activeJobs) {
    public MemberLoad {
        Objects.requireNonNull(name, "name");
    }

    /** Slots left for new jobs. */
    public int freeSlots() {
        return Math.max(0, slots - activeJobs);
    }

    /** Whether a new job may use this member at all. */
    public boolean usable() {
        return available && freeSlots() > 0;
    }

    /** Load per processor, the figure members are ranked by (a 4-CPU member at load 2 is less busy than a 1-CPU one at 1). */
    public double loadPerCpu() {
        return load1 / Math.max(1, cpus);
    }
}

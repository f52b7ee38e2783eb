package io.cohort.cluster;

/** How the daemon schedules a job's peers on a member (PSE's pseudo-gang scheduling). */
public enum SchedulingPolicy {
    /** The time-sharing scheduler ({@code SCHED_OTHER}) at the partition's nice value. */
    NORMAL,
    /** Real-time first-in first-out ({@code SCHED_FIFO}) at a real-time priority, where the daemon may grant it. */
    FIFO
}

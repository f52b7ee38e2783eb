package io.cohort.cluster;

import java.util.Objects;

/**
 * How a job's peers are to be scheduled on a member (PSE's pseudo-gang scheduling): a policy, a nice
 * value for {@link SchedulingPolicy#NORMAL} and a real-time priority for {@link SchedulingPolicy#FIFO}.
 * The launcher builds it from the user's options and the partition's defaults, refusing anything above
 * the partition's maximum ({@link #forJob}); the daemon, which applies it, caps it once more
 * ({@link #cappedBy}) so that a request it receives can never exceed the partition either.
 */
public record SchedulingRequest(SchedulingPolicy policy, int nice, int rtPriority) {
    public static final int MIN_NICE = -20;
    public static final int MAX_NICE = 19;
    public static final int MIN_RT = 1;
    public static final int MAX_RT = 99;

    public SchedulingRequest {
        Objects.requireNonNull(policy, "policy");
        if (nice < MIN_NICE || nice > MAX_NICE) {
            throw new IllegalArgumentException("a nice value is from -20 to 19 (got " + nice + ")");
        }
        if (rtPriority < MIN_RT || rtPriority > MAX_RT) {
            throw new IllegalArgumentException("a real-time priority is from 1 to 99 (got " + rtPriority + ")");
        }
    }

    /**
     * The job's scheduling from the user's choices (null: the partition's default).
     *
     * @throws IllegalArgumentException with one sentence when a choice exceeds the partition's maximum
     */
    public static SchedulingRequest forJob(Partition p, Integer nice, SchedulingPolicy policy, Integer rtPriority) {
        SchedulingPolicy pol = policy == null ? p.policy() : policy;
        int n = nice == null ? p.nice() : nice;
        int rt = rtPriority == null ? p.rtPriority() : rtPriority;
        if (n < p.minNice()) {
            throw new IllegalArgumentException("--nice " + n + " is above partition " + p.name() + "'s maximum priority"
                    + " (nice " + p.minNice() + " or more)");
        }
        if (pol == SchedulingPolicy.FIFO && p.policy() != SchedulingPolicy.FIFO) {
            throw new IllegalArgumentException("partition " + p.name() + " does not allow the real-time fifo policy");
        }
        if (pol == SchedulingPolicy.FIFO && rt > p.maxRtPriority()) {
            throw new IllegalArgumentException("--rt-priority " + rt + " is above partition " + p.name()
                    + "'s maximum of " + p.maxRtPriority());
        }
        return new SchedulingRequest(pol, n, Math.min(Math.max(rt, MIN_RT), MAX_RT));
    }

    /** This request lowered to what partition {@code p} allows: never above its maximum. */
    public SchedulingRequest cappedBy(Partition p) {
        SchedulingPolicy pol = p.policy() == SchedulingPolicy.FIFO ? policy : SchedulingPolicy.NORMAL;
        return new SchedulingRequest(pol, Math.max(nice, p.minNice()), Math.min(rtPriority, p.maxRtPriority()));
    }

    @Override
    public String toString() {
        return policy == SchedulingPolicy.FIFO ? "fifo " + rtPriority : "nice " + nice;
    }
}

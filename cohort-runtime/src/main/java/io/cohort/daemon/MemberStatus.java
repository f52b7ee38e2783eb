package io.cohort.daemon;

import java.util.List;

/**
 * One row of a load server's table, as of one moment.
 *
 * @param name        the member
 * @param state       its state
 * @param load1       1-minute load average, or -1 when never reported (also load5, load15)
 * @param cpus        its processors (the database's value until its daemon reports)
 * @param slots       job slots in effect (0 while drained)
 * @param jobs        ids of its active jobs
 * @param lastUpdate  when its last update arrived (load server's clock, epoch ms), or -1
 * @param since       when the current state began (epoch ms), or -1 when unknown
 * @param reason      why it is not up, one phrase ("" when up)
 * @param drainReason the administrator's reason when drained (also while down), else null
 */
public record MemberStatus(String name, MemberState state, double load1, double load5, double load15, int cpus,
                           int slots, List<String> jobs, long lastUpdate, long since, String reason, String drainReason) {
    public MemberStatus {
        jobs = List.copyOf(jobs);
    }

    public boolean drained() {
        return drainReason != null;
    }
}

package io.cohort.stacks;

import java.util.List;
import java.util.Objects;

/**
 * The stacks of every rank of a job, as its controller collected them for one query.
 *
 * @param jobId       the job's id
 * @param size        the number of ranks
 * @param application what the job runs (its main class)
 * @param ranks       one entry per rank, in rank order
 */
public record JobStacks(String jobId, int size, String application, List<RankStacks> ranks) {
    public JobStacks {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(application, "application");
        ranks = List.copyOf(ranks);
        if (ranks.size() != size) {
            throw new IllegalArgumentException(ranks.size() + " ranks for a job of " + size);
        }
        for (int r = 0; r < size; r++) {
            if (ranks.get(r).rank() != r) {
                throw new IllegalArgumentException("entry " + r + " is rank " + ranks.get(r).rank());
            }
        }
    }

    public RankStacks rank(int rank) {
        return ranks.get(rank);
    }

    /** How many ranks answered. */
    public int answeredCount() {
        int n = 0;
        for (RankStacks r : ranks) {
            if (r.hasAnswered()) {
                n++;
            }
        }
        return n;
    }
}

package io.cohort.stacks;

import java.util.Objects;

/**
 * One rank in the controller's answer to a stacks query: its stacks, or why there are none.
 *
 * @param rank   the rank
 * @param host   the host the launcher placed it on
 * @param pid    its process id as it told the controller, or -1 if it never joined
 * @param answer whether it answered, and if not, the kind of reason
 * @param detail the reason as a phrase without the rank ("did not answer within 1500 ms"), so that
 *               ranks with the same reason can be listed together; empty when it answered
 * @param stacks its threads; empty unless it answered
 */
public record RankStacks(int rank, String host, long pid, Answer answer, String detail, PeerStacks stacks) {
    /** Whether a rank answered; the order is the wire's (one byte each). */
    public enum Answer {
        /** Its stacks are here. */
        ANSWERED,
        /** Connected, but no (well-formed) answer came within the time-out. */
        NO_ANSWER,
        /** Running, but not connected to the controller: not in {@code Cohort.init()} yet, or never calling it. */
        NOT_JOINED,
        /** Its control connection ended (after {@code Cohort.finalize}, or lost) while its process still runs. */
        LEFT,
        /** Its process has ended. */
        EXITED
    }

    public RankStacks {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(stacks, "stacks");
    }

    public static RankStacks answered(int rank, String host, long pid, PeerStacks stacks) {
        return new RankStacks(rank, host, pid, Answer.ANSWERED, "", stacks);
    }

    public static RankStacks silent(int rank, String host, long pid, Answer answer, String detail) {
        if (answer == Answer.ANSWERED) {
            throw new IllegalArgumentException("a silent rank cannot have answered");
        }
        return new RankStacks(rank, host, pid, answer, detail, PeerStacks.none());
    }

    public boolean hasAnswered() {
        return answer == Answer.ANSWERED;
    }
}

package io.cohort.broadcast.pcode;

/**
 * The paper's {@code pcv} (section 3): for each sender, the highest consecutive personal count this
 * peer has handled; the own entry counts the frames this peer has sent. A frame from {@code q} is
 * accepted only if it carries {@code pcv[q] + 1}; anything lower is a duplicate, anything higher
 * is early (a gap: something was lost or is still in flight). One vector per stream: the broadcast
 * stream and the point-to-point stream (section 5.6) count separately.
 *
 * <p>Threads: the domain's lock.
 */
final class PersonalCounterVector {
    private final long[] counts;

    PersonalCounterVector(int size) {
        counts = new long[size];
    }

    long get(int rank) {
        return counts[rank];
    }

    long expected(int rank) {
        return counts[rank] + 1;
    }

    /** Handles the next count of {@code rank}; returns it. */
    long advance(int rank) {
        return ++counts[rank];
    }

    /** The vector itself, for a STATUS frame; callers do not modify it. */
    long[] view() {
        return counts;
    }
}

package io.cohort.mpi.support;

import io.cohort.Request;

/**
 * The requests an MPI array call is given (wait-any, test-some ...), as {@link Completions} sees
 * them: each API adapts its own request array to this, so the waiting is written once.
 */
public interface RequestSlots {
    /** Slots in the array. */
    int count();

    /** Whether slot {@code i} holds an active request (not null, not yet completed by a wait or test). */
    boolean active(int i);

    /** Slot {@code i}'s Cohort request, or null if its operation completed at once (one on PROC_NULL). */
    Request inner(int i);

    /** Whether slot {@code i}'s request belongs to Cohort's engine, whose {@link Request#awaitAny} can wait for it. */
    default boolean engine(int i) {
        return true;
    }

    /** Whether the active slot {@code i} is done, without driving progress. */
    default boolean isDone(int i) {
        Request r = inner(i);
        return r == null || r.isDone();
    }
}

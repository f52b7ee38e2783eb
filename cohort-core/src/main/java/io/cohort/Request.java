package io.cohort;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * A nonblocking send or receive in progress. Any thread may wait on or test a request; waiting
 * drives the peer's communication progress through the configured idle strategy.
 *
 * <pre>
 *   isend/irecv ──► PENDING ──(bytes handed off / message matched and copied)──► DONE
 *                      │                                                     │
 *                      └──────(peer failed, truncation)──► FAILED ◄──────────┘ wait() throws
 * </pre>
 */
public interface Request {
    /** Blocks until the request completes; returns its status or throws why it failed. */
    Status await();

    /**
     * Like {@link #await()} but gives up after {@code timeout}.
     *
     * @throws TimeoutException if the request did not complete in time (it stays pending)
     */
    Status await(Duration timeout) throws TimeoutException;

    /** Does one round of progress and reports whether the request has completed (successfully or not). */
    boolean test();

    /**
     * Withdraws a receive that no message has matched yet: it completes at once, its status
     * {@link Status#cancelled()}, and no message it would have matched is taken (true). A receive
     * already matched, a send or a collective is not cancelled (false); it completes as it would
     * have. Either way the request still has to be completed (awaited or tested) as usual; a
     * cancelled receive has no {@link #message()}.
     */
    default boolean cancel() {
        return false;
    }

    /** Whether the request has completed, without driving progress. */
    boolean isDone();

    /**
     * For a receive without a user buffer: the received message, once {@link #await()} returned.
     *
     * @throws IllegalStateException for sends, receives into a user buffer, or pending requests
     */
    Message message();

    /** Waits for all requests; the first failure is thrown after all have completed. */
    static void awaitAll(Request... requests) {
        awaitAll(List.of(requests));
    }

    /** Waits for all requests; the first failure is thrown after all have completed. */
    static void awaitAll(List<? extends Request> requests) {
        CohortProvider.get().awaitAll(requests);
    }

    /** Waits until at least one request has completed and returns its index. */
    static int awaitAny(Request... requests) {
        return awaitAny(List.of(requests));
    }

    /** Waits until at least one request has completed and returns its index. */
    static int awaitAny(List<? extends Request> requests) {
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("awaitAny needs at least one request");
        }
        CohortProvider.get().awaitAny(requests);
        for (int i = 0; i < requests.size(); i++) {
            if (requests.get(i).isDone()) {
                return i;
            }
        }
        throw new IllegalStateException("awaitAny returned with no request done");
    }

    /** Tests every request once; true if all have completed. */
    static boolean testAll(List<? extends Request> requests) {
        return CohortProvider.get().testAll(requests);
    }
}

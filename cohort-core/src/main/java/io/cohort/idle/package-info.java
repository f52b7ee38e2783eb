/**
 * Named idle strategies: what a thread does while it waits for communication.
 *
 * <p>Every wait in Cohort (receive, request wait, send stalled on a full socket) calls
 * {@link io.cohort.idle.IdleStrategy#idle(Blocker)} after a round of progress found nothing to do.
 * Depends on nothing but the JDK.
 */
package io.cohort.idle;

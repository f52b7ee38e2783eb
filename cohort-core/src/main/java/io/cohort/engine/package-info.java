/**
 * The progress engine: request objects, message matching, and the single progress role that
 * drives the transports.
 *
 * <p>Threads: any user thread may enter; the thread holding the progress lock (the "owner") polls
 * the transports and completes other threads' requests, which it wakes with
 * {@link java.util.concurrent.locks.LockSupport#unpark}. {@link io.cohort.engine.MatchingEngine}
 * is guarded by its own monitor. {@link io.cohort.engine.ProgressEngine#onContext} lets a service
 * (DECK) take a context's arrivals through a handler instead of a receive, so no service thread
 * holds the progress role while it waits for requests.
 *
 * <p>Point-to-point only: the communicator the program holds ({@code io.cohort.comm}) and the
 * collectives ({@code io.cohort.collective}) are built on this package, never the reverse. May
 * depend on {@code io.cohort}, {@code io.cohort.concurrent}, {@code io.cohort.idle},
 * {@code io.cohort.stacks}, {@code io.cohort.transport} and {@code io.cohort.profile} (the
 * profiler's events, recorded at the API the program calls; see
 * {@link io.cohort.comm.EngineCommunicator}).
 */
package io.cohort.engine;

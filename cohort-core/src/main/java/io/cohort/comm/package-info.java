/**
 * The communicators a program holds: {@link io.cohort.comm.EngineCommunicator}, the
 * {@link io.cohort.Communicator} over one peer's {@link io.cohort.engine.ProgressEngine}, with its
 * collectives ({@link io.cohort.collective.Collectives}) and its broadcast domain, PCODE's or
 * EQA's, opened collectively by {@link io.cohort.comm.DomainOpening}; how members agree on a new
 * communicator's contexts ({@link io.cohort.comm.ContextAllocator}).
 *
 * <p>The layer above the engine and the collectives, which know nothing of it. May depend on
 * {@code io.cohort}, {@code io.cohort.engine}, {@code io.cohort.collective},
 * {@code io.cohort.broadcast.pcode} and {@code io.cohort.broadcast.eqa} (the domains it opens),
 * {@code io.cohort.idle} (which an EQA domain's agent follows), {@code io.cohort.stacks} and
 * {@code io.cohort.profile}; the runtime ({@code io.cohort.wireup}) makes the world communicator.
 */
package io.cohort.comm;

/**
 * Fault injection for datagram protocols, shipped (not test-only) so that any datagram protocol in
 * Cohort, the {@code udp} transport today and the PCODE broadcast domain next, is tested and
 * demonstrated under loss, bursts of loss, duplication, reordering and delay.
 *
 * <ul>
 *   <li>{@link io.cohort.transport.fault.DatagramPort}: the endpoint a protocol sends through and
 *       receives from; {@link io.cohort.transport.fault.NioDatagramPort} is the real socket.</li>
 *   <li>{@link io.cohort.transport.fault.FaultInjectingPort}: a decorator applying a
 *       {@link io.cohort.transport.fault.FaultPlan} (parsed from a spec such as
 *       {@code loss=0.05,dup=0.01,seed=7}) on the receive side (default), the send side, or both,
 *       counting what it did in {@link io.cohort.transport.fault.FaultCounters}.</li>
 *   <li>{@link io.cohort.transport.fault.FaultDecisions}: the seeded decisions alone, so a run
 *       replays and the statistics can be tested without I/O.</li>
 * </ul>
 *
 * A job switches faults on with {@code cohort run --fault SPEC} (environment variable
 * {@code COHORT_FAULT}) or, in one JVM, the system property {@code cohort.fault}.
 *
 * <p>May depend on the JDK only.
 */
package io.cohort.transport.fault;

/**
 * The job's broadcast domain: the PCODE protocol of Bruck, Dolev, Ho, Orni and Strong (seed 000)
 * over UDP multicast, so that one datagram reaches every peer. The program sees two calls,
 * {@link io.cohort.BroadcastDomain#multicast} and
 * {@link io.cohort.BroadcastDomain#request}; every other class is one ingredient
 * of the paper's sections 3-5, named after it:
 *
 * <table>
 *   <caption>Ingredients</caption>
 *   <tr><td>personal counters, pcv (3)</td><td>{@link io.cohort.broadcast.pcode.PersonalCounterVector}</td></tr>
 *   <tr><td>one input slot per sender (3)</td><td>{@link io.cohort.broadcast.pcode.InputSlot}</td></tr>
 *   <tr><td>buffer of sent messages (P0), finite (P1)</td><td>{@link io.cohort.broadcast.pcode.SentMessageBuffer}</td></tr>
 *   <tr><td>STATUS, what each peer handled (P1, 5.5)</td><td>{@link io.cohort.broadcast.pcode.PeerStatusTable}</td></tr>
 *   <tr><td>GlobalCounter, original / non-original, gaps (5.1)</td><td>{@link io.cohort.broadcast.pcode.GlobalCounter}</td></tr>
 *   <tr><td>gcv and FLOW_WINDOW (5.2)</td><td>{@link io.cohort.broadcast.pcode.FlowControl}</td></tr>
 *   <tr><td>NACK timers: request, personal gap, global gap (5.3, 5.7)</td><td>{@link io.cohort.broadcast.pcode.NackTimer}, {@link io.cohort.broadcast.pcode.PcodeTimers}</td></tr>
 *   <tr><td>early messages (5.4)</td><td>{@link io.cohort.broadcast.pcode.EarlyMessageBuffer}</td></tr>
 *   <tr><td>point-to-point by unicast (5.6)</td><td>the FLAG_P2P stream in {@link io.cohort.broadcast.pcode.PcodeSender}</td></tr>
 *   <tr><td>tunables (5.7, 6.5)</td><td>{@link io.cohort.broadcast.pcode.PcodeContext}</td></tr>
 *   <tr><td>wire frames</td><td>{@link io.cohort.broadcast.pcode.BcastHeaderDescriptor}, {@link io.cohort.broadcast.pcode.DataFrameDescriptor},
 *       {@link io.cohort.broadcast.pcode.NackFrameDescriptor}, {@link io.cohort.broadcast.pcode.StatusFrameDescriptor}</td></tr>
 *   <tr><td>foreign / stale / malformed datagrams</td><td>{@link io.cohort.broadcast.pcode.FrameValidator}, {@link io.cohort.broadcast.pcode.PcodeCounters}</td></tr>
 * </table>
 *
 * <p>Sockets are {@link io.cohort.transport.fault.DatagramPort}s, so a
 * {@link io.cohort.transport.fault.FaultInjectingPort} can sit under the protocol;
 * {@link io.cohort.broadcast.pcode.MulticastGroup} (default) and
 * {@link io.cohort.broadcast.pcode.SubnetBroadcast} open the real ones,
 * {@link io.cohort.broadcast.pcode.MemoryBroadcastMedium} is an in-memory medium, and
 * {@link io.cohort.broadcast.pcode.LocalBroadcastDomains} runs N domains in one JVM.
 *
 * <p>May depend on {@code io.cohort} (exceptions), {@code io.cohort.transport.fault},
 * {@code io.cohort.profile} (NACK, retransmission and stall events) and the JDK only.
 */
package io.cohort.broadcast.pcode;

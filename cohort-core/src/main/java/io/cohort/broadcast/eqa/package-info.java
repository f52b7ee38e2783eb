/**
 * EQA broadcast (Wong and Wang, "Efficient Reliable Broadcast for Commodity Clusters", seed 001,
 * section 3): a broadcasting sender keeps one shared retransmission buffer with a small cursor per
 * receiver instead of a buffer per channel, and broadcasts by Simple Broadcast (go-back-N, window
 * 16) or Push-Pull Broadcast (BTP1 + BTP2 bytes pushed, one designated receiver pulls the rest).
 * See {@code docs/eqa.md}.
 *
 * <table>
 *   <caption>Ingredients</caption>
 *   <tr><td>BUF + HMS + LMS: shared buffer, cursor per receiver (3.1)</td><td>{@link io.cohort.broadcast.eqa.SharedRetransmissionBuffer}</td></tr>
 *   <tr><td>baseline: a buffer per channel (4.2, "P2P")</td><td>{@link io.cohort.broadcast.eqa.PerChannelRetransmissionBuffers}</td></tr>
 *   <tr><td>their common contract</td><td>{@link io.cohort.broadcast.eqa.RetransmissionBuffer}</td></tr>
 *   <tr><td>root: send DP with linked LDPs; Simple and Push-Pull (3.2, 3.3)</td><td>{@link io.cohort.broadcast.eqa.EqaSender}</td></tr>
 *   <tr><td>leaf: receive-only DP, gaps by sequence number</td><td>{@link io.cohort.broadcast.eqa.ReceiveChannel}</td></tr>
 *   <tr><td>settings: window, BTP1, BTP2, timers</td><td>{@link io.cohort.broadcast.eqa.EqaContext}</td></tr>
 *   <tr><td>wire frames</td><td>{@link io.cohort.broadcast.eqa.EqaHeaderDescriptor}, {@link io.cohort.broadcast.eqa.DataFrameDescriptor},
 *       {@link io.cohort.broadcast.eqa.AckFrameDescriptor}, {@link io.cohort.broadcast.eqa.PullFrameDescriptor}</td></tr>
 *   <tr><td>foreign / malformed datagrams</td><td>{@link io.cohort.broadcast.eqa.EqaFrameValidator}, {@link io.cohort.broadcast.eqa.EqaCounters}</td></tr>
 *   <tr><td>a member; its thread; N members in one JVM</td><td>{@link io.cohort.broadcast.eqa.EqaPeer}, {@link io.cohort.broadcast.eqa.EqaAgentThread},
 *       {@link io.cohort.broadcast.eqa.LocalEqaGroup}</td></tr>
 *   <tr><td>a communicator's domain in a job ({@code --bcast-protocol eqa}); the choice of protocol</td>
 *       <td>{@link io.cohort.broadcast.eqa.EqaDomain}, {@link io.cohort.broadcast.eqa.BroadcastProtocol}</td></tr>
 * </table>
 *
 * <p>Sockets are {@link io.cohort.transport.fault.DatagramPort}s, so a
 * {@link io.cohort.transport.fault.FaultInjectingPort} can sit under the protocol.
 *
 * <p>May depend on {@code io.cohort} (the {@link io.cohort.BroadcastDomain} it implements in a job, its
 * exceptions and counters), {@code io.cohort.auth} (frame tags), {@code io.cohort.broadcast.pcode}
 * (a job's network discovery, medium and sockets: {@code DomainFactory}; never the other way),
 * {@code io.cohort.transport.fault}, {@code io.cohort.profile} (NACK, retransmission and stall
 * events) and the JDK only.
 */
package io.cohort.broadcast.eqa;

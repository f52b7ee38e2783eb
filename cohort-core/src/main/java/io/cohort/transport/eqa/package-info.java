/**
 * EQA broadcast (Wong and Wang, "Efficient Reliable Broadcast for Commodity Clusters", seed 001,
 * section 3): a broadcasting sender keeps one shared retransmission buffer with a small cursor per
 * receiver instead of a buffer per channel, and broadcasts by Simple Broadcast (go-back-N, window
 * 16) or Push-Pull Broadcast (BTP1 + BTP2 bytes pushed, one designated receiver pulls the rest).
 * See {@code docs/eqa.md}.
 *
 * <table>
 *   <caption>Ingredients</caption>
 *   <tr><td>BUF + HMS + LMS: shared buffer, cursor per receiver (3.1)</td><td>{@link io.cohort.transport.eqa.SharedRetransmissionBuffer}</td></tr>
 *   <tr><td>baseline: a buffer per channel (4.2, "P2P")</td><td>{@link io.cohort.transport.eqa.PerChannelRetransmissionBuffers}</td></tr>
 *   <tr><td>their common contract</td><td>{@link io.cohort.transport.eqa.RetransmissionBuffer}</td></tr>
 *   <tr><td>root: send DP with linked LDPs; Simple and Push-Pull (3.2, 3.3)</td><td>{@link io.cohort.transport.eqa.EqaSender}</td></tr>
 *   <tr><td>leaf: receive-only DP, gaps by sequence number</td><td>{@link io.cohort.transport.eqa.ReceiveChannel}</td></tr>
 *   <tr><td>settings: window, BTP1, BTP2, timers</td><td>{@link io.cohort.transport.eqa.EqaContext}</td></tr>
 *   <tr><td>wire frames</td><td>{@link io.cohort.transport.eqa.EqaHeaderDescriptor}, {@link io.cohort.transport.eqa.DataFrameDescriptor},
 *       {@link io.cohort.transport.eqa.AckFrameDescriptor}, {@link io.cohort.transport.eqa.PullFrameDescriptor}</td></tr>
 *   <tr><td>foreign / malformed datagrams</td><td>{@link io.cohort.transport.eqa.EqaFrameValidator}, {@link io.cohort.transport.eqa.EqaCounters}</td></tr>
 *   <tr><td>a member; its thread; N members in one JVM</td><td>{@link io.cohort.transport.eqa.EqaPeer}, {@link io.cohort.transport.eqa.EqaAgentThread},
 *       {@link io.cohort.transport.eqa.LocalEqaGroup}</td></tr>
 * </table>
 *
 * <p>Sockets are {@link io.cohort.transport.fault.DatagramPort}s, so a
 * {@link io.cohort.transport.fault.FaultInjectingPort} can sit under the protocol.
 *
 * <p>May depend on {@code io.cohort.transport.fault}, {@code io.cohort.profile} (NACK, retransmission
 * and stall events) and the JDK only.
 */
package io.cohort.transport.eqa;

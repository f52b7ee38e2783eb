/**
 * The {@code udp} transport: PSE's UDP/IP option with reliability in the library. One
 * non-blocking socket per peer; per pair a sliding window of sequence numbers with piggy-backed
 * cumulative and selective acknowledgements, selective retransmission on an adaptive
 * (Jacobson/Karels) timer plus RACK-style loss detection, an overflow queue so sends never block
 * while memory lasts, fragmentation to the path MTU and reassembly into the receive's buffer,
 * keepalives and an inactivity time-out, and a goodbye handshake so closing loses nothing. Every
 * datagram carries a tag keyed per ordered pair from the job's secret and is dropped unread without
 * it ({@code docs/security.md}).
 *
 * <p>Classes, one per mechanism: {@link io.cohort.transport.udp.UdpTransport} (socket, poll loop,
 * timers), {@link io.cohort.transport.udp.UdpChannel} (one pair), {@link io.cohort.transport.udp.SendWindow},
 * {@link io.cohort.transport.udp.ReceiveWindow}, {@link io.cohort.transport.udp.AckTracker},
 * {@link io.cohort.transport.RttEstimator}, {@link io.cohort.transport.udp.Fragmenter},
 * {@link io.cohort.transport.udp.Reassembler}, {@link io.cohort.transport.udp.UdpFrameDescriptor} (the
 * wire layout), {@link io.cohort.transport.udp.UdpSettings} (every setting, validated),
 * {@link io.cohort.transport.udp.UdpEndpoint} (what the wire-up publishes) and
 * {@link io.cohort.transport.udp.UdpCounters}.
 *
 * <p>May depend on {@code io.cohort} (exceptions), {@code io.cohort.auth} (the job's secret and
 * frame tags), {@code io.cohort.transport} (the SPI),
 * {@code io.cohort.transport.fault} (the datagram port it sends through), {@code io.cohort.profile}
 * (NACK, retransmission and stall events) and the JDK.
 */
package io.cohort.transport.udp;

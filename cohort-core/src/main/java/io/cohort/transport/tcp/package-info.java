/**
 * The TCP transport (PSE's default option): one connection per pair of peers, {@code TCP_NODELAY},
 * 16-byte frame headers, large payloads written from and read into the user's memory without
 * whole-message copies, and connection loss reported as the failure of the peer.
 *
 * <p>Classes: {@link io.cohort.transport.tcp.TcpTransport} (the selector and the poll loop),
 * {@link io.cohort.transport.tcp.TcpConnection} (one peer's frame reader and writer),
 * {@link io.cohort.transport.tcp.TcpMeshConnector} (start-up: who connects to whom),
 * {@link io.cohort.transport.tcp.FrameDescriptor} and
 * {@link io.cohort.transport.tcp.HandshakeDescriptor} (the wire layouts).
 */
package io.cohort.transport.tcp;

/**
 * The TCP transport (PSE's default option): one connection per pair of peers, {@code TCP_NODELAY},
 * 16-byte frame headers, large payloads written from and read into the user's memory without
 * whole-message copies, and connection loss reported as the failure of the peer.
 *
 * <p>Classes: {@link io.cohort.transport.tcp.TcpTransport} (the selector and the poll loop),
 * {@link io.cohort.transport.tcp.TcpConnection} (one peer's frame reader and writer),
 * {@link io.cohort.transport.tcp.TcpMeshConnector} (start-up: who connects to whom),
 * {@link io.cohort.transport.tcp.TcpHandshake} (one connection's mutual challenge-response: a
 * stream becomes a peer's only once both ends proved they hold the job's key),
 * {@link io.cohort.transport.tcp.HandshakeDescriptor} (the handshake's wire layout; a message's
 * frame is {@link io.cohort.transport.stream.FrameDescriptor}, read and written by
 * {@code io.cohort.transport.stream}), {@link io.cohort.transport.tcp.KeepAlive} (TCP keepalive
 * for every long-lived connection of Cohort's, the launcher's too).
 */
package io.cohort.transport.tcp;

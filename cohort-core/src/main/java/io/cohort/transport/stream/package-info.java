/**
 * Framing shared by the byte-stream transports (TCP sockets and shared-memory rings): a
 * {@link io.cohort.transport.stream.FrameWriter} turns sends into
 * {@link io.cohort.transport.stream.FrameDescriptor} frames on a non-blocking
 * {@link java.nio.channels.WritableByteChannel}, a {@link io.cohort.transport.stream.FrameReader}
 * turns the bytes of a non-blocking {@link java.nio.channels.ReadableByteChannel} back into
 * messages for the engine. A channel that returns 0 is full (writing) or empty (reading).
 */
package io.cohort.transport.stream;

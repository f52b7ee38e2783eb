package io.cohort.broadcast.eqa;

import java.nio.ByteBuffer;

/**
 * Where a sender's frames go: to every receiver at once (one hardware broadcast in the paper; a
 * multicast datagram or a unicast fan-out here) or to one receiver, point to point. Each call sends
 * the frame from index 0 to {@code length} and leaves the buffer's position and limit as they were.
 *
 * <p>Threads: the peer's owner thread.
 */
interface FrameOutput {
    /** Sends to every other member; returns how many sends the socket refused (a refusal is a loss). */
    int sendToAll(ByteBuffer frame, int length);

    /** Sends to {@code rank}; false if the socket refused it (a loss the protocol recovers). */
    boolean sendTo(int rank, ByteBuffer frame, int length);
}

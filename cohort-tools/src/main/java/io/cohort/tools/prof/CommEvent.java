package io.cohort.tools.prof;

import java.util.Map;

/**
 * One communication event of a peer. Times are nanoseconds since the epoch as the peer's clock saw
 * them; fields the event lacks are -1 ({@code sequence}, {@code peer}, ...). {@code args} holds
 * every field of the event beyond JFR's standard ones, in recorded order, for the trace.
 *
 * @param peer world rank of the other side (destination of a send, source of a receive), -1 for any or none
 */
public record CommEvent(CommKind kind, String operation, long startNanos, long durationNanos, long threadId,
                        int communicator, int peer, int tag, long bytes, long sequence, CallSite callSite,
                        Map<String, Object> args) {

    public long endNanos() {
        return startNanos + durationNanos;
    }
}

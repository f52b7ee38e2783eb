package io.cohort.tools.prof;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Which receive matched each send, for the arrows of the Chrome trace and of the HTML report's
 * timeline. Messages are FIFO per ordered pair and both ends count them, so a send from a to b with
 * sequence k matches the receive on b from a with sequence k. Both ends must be in the scope (and
 * pass the filter); the first such receive wins should a recording hold two.
 *
 * <p>A message is known by a key packed from (source, destination, sequence) in 16, 16 and 32 bits,
 * which the trace also writes as its flow id. A message beyond those ranges (rank 65536 or more, or the
 * 2^32-th message of a pair) has no key and so no partner: no arrow rather than a wrong one.
 */
final class MessagePairs {
    /** No key: a rank or sequence outside the packed ranges. */
    static final long NO_KEY = -1;

    private final Map<Long, CommEvent> receives;

    private MessagePairs(Map<Long, CommEvent> receives) {
        this.receives = receives;
    }

    /** The pairs among all events of the scope's peers. */
    static MessagePairs of(Scope scope) {
        return of(scope, e -> true);
    }

    /** The pairs among the scope's events that {@code include} accepts (e.g. the ones a picture draws). */
    static MessagePairs of(Scope scope, Predicate<CommEvent> include) {
        Map<Long, CommEvent> byKey = new HashMap<>();
        for (PeerProfile p : scope.peers()) {
            for (CommEvent e : p.comms()) {
                if (e.kind() == CommKind.RECEIVE && scope.includes(e.peer()) && include.test(e)) {
                    long key = key(e.peer(), p.rank(), e.sequence());
                    if (key != NO_KEY) {
                        byKey.putIfAbsent(key, e);
                    }
                }
            }
        }
        return new MessagePairs(byKey);
    }

    /** The receive that matched {@code send}, made by rank {@code source}; null if none is known. */
    CommEvent receiveOf(int source, CommEvent send) {
        if (send.kind() != CommKind.SEND) {
            return null;
        }
        long key = key(source, send.peer(), send.sequence());
        return key == NO_KEY ? null : receives.get(key);
    }

    /** The message's key, or {@link #NO_KEY} when a part exceeds its range. */
    static long key(int source, int destination, long sequence) {
        if (source < 0 || source > 0xffff || destination < 0 || destination > 0xffff || sequence < 0 || sequence > 0xffffffffL) {
            return NO_KEY;
        }
        return (long) source << 48 | (long) destination << 32 | sequence;
    }
}

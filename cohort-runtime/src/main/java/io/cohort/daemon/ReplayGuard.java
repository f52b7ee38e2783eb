package io.cohort.daemon;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

/**
 * Refuses a message whose nonce was already seen while it could still pass the freshness check.
 * A message is fresh for {@code daemon.max_skew} either side of the receiver's clock, so a nonce needs keeping
 * for at most {@code 2 x daemon.max_skew} after it arrived; after that a replay of it is refused as stale.
 *
 * <p>Memory is bounded by {@code capacity} nonces. When a flood fills it, the oldest nonce is dropped
 * and its message's timestamp becomes a floor: from then on a message not newer than the floor is
 * refused, since its nonce might be one that was dropped. A flood therefore costs fresh messages
 * with old timestamps, never a replay.
 *
 * <p>A daemon's guard also has a floor at its start ({@link #startingAt}): the nonces an earlier run of the
 * daemon saw died with it, so a message time-stamped before this run began may be one it already
 * accepted, captured and sent again after a restart; {@link MessageAuthenticator} refuses it
 * ({@link Refusal#PREDATES_START}). The alternative, keeping the window in a file across restarts, needs
 * a writable state directory and a sync per message; the floor needs nothing, and costs only a client
 * whose clock is behind the daemon's a wait of that difference right after a restart, which
 * {@link DaemonClient} makes once by itself.
 *
 * <p>Thread-safe (every method synchronized): the UDP receiver and the connection threads share one.
 */
public final class ReplayGuard {
    /** Nonces kept at most: about 40 bytes each, a few MB at most. */
    public static final int DEFAULT_CAPACITY = 100_000;

    private record Seen(long nonce, long timestamp, long arrivedAt) {
    }

    private final long keepMillis;
    private final int capacity;
    private final Set<Long> nonces = new HashSet<>();
    private final ArrayDeque<Seen> byArrival = new ArrayDeque<>();
    private long floor = Long.MIN_VALUE;
    /** The first timestamp accepted: the start of the daemon that owns this guard (Long.MIN_VALUE: no start floor). */
    private final long startMillis;

    /** A guard with no start floor: a client's, which checks only answers to its own fresh requests. */
    public ReplayGuard(long maxSkewMillis, int capacity) {
        this(maxSkewMillis, capacity, Long.MIN_VALUE);
    }

    private ReplayGuard(long maxSkewMillis, int capacity, long startMillis) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.keepMillis = 2 * maxSkewMillis;
        this.capacity = capacity;
        this.startMillis = startMillis;
    }

    /** A daemon's guard: messages time-stamped before {@code startMillis} (its clock at start) are refused. */
    public static ReplayGuard startingAt(long maxSkewMillis, int capacity, long startMillis) {
        return new ReplayGuard(maxSkewMillis, capacity, startMillis);
    }

    /** How many ms {@code timestamp} lies before the start floor; 0 when it is not before it. */
    public long beforeStart(long timestamp) {
        return timestamp < startMillis ? startMillis - timestamp : 0;
    }

    /**
     * True if the message is new (and is now remembered); false if its nonce was seen, or if it is not
     * newer than the floor a full guard raised. {@code now} is the receiver's clock, ms.
     */
    public synchronized boolean firstSighting(long nonce, long timestamp, long now) {
        expire(now);
        if (timestamp <= floor || nonces.contains(nonce)) {
            return false;
        }
        if (byArrival.size() >= capacity) {
            Seen oldest = byArrival.removeFirst();
            nonces.remove(oldest.nonce());
            floor = Math.max(floor, oldest.timestamp());
            if (timestamp <= floor) {
                return false;
            }
        }
        nonces.add(nonce);
        byArrival.addLast(new Seen(nonce, timestamp, now));
        return true;
    }

    private void expire(long now) {
        while (!byArrival.isEmpty() && now - byArrival.peekFirst().arrivedAt() > keepMillis) {
            nonces.remove(byArrival.removeFirst().nonce());
        }
    }

    public synchronized int size() {
        return byArrival.size();
    }

    /** The timestamp at or below which messages are refused since the guard overflowed (Long.MIN_VALUE: never). */
    public synchronized long floor() {
        return floor;
    }
}

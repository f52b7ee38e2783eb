package io.cohort.broadcast.pcode;

import java.util.TreeSet;

/**
 * The paper's GlobalCounter (section 5.1): roughly the number of broadcast frames sent in the whole
 * domain. A peer increments it when it sends a broadcast DATA frame and stamps the frame with it;
 * it also takes over a higher counter from a frame it receives, but only consecutively: a counter
 * further ahead is remembered in the list of gaps ({@link #pendingOriginals}) and taken over once
 * the counters below it have arrived.
 *
 * <p>Only "original" counters move it: those stamped on broadcast DATA by the peer that
 * incremented them. Counters on STATUS, NACK and point-to-point frames are "non-original": the
 * sender did not necessarily originate them, so they only raise {@link #highestSeen()} (for gap
 * detection) and the sender's entry in the gcv ({@link FlowControl}). A non-original counter that
 * moved this one could skip values whose frames were lost and would then never be NACKed.
 *
 * <p>Counters are not unique (two peers sending at once stamp the same value), so a lost frame
 * may go unnoticed here; personal counters catch it (section 5.3). A counter is taken over on
 * receipt, not on acceptance into a slot: a frame waiting for a full input slot is not lost, and
 * counting it keeps a peer that waits elsewhere from stalling everyone's flow control.
 *
 * <p>Threads: the domain's lock.
 */
final class GlobalCounter {
    private long value;
    private long highestSeen;
    private final TreeSet<Long> pendingOriginals = new TreeSet<>();

    /** The counter: every original counter up to it has been received. */
    long value() {
        return value;
    }

    long highestSeen() {
        return highestSeen;
    }

    int pendingCount() {
        return pendingOriginals.size();
    }

    /** Stamps a frame this peer sends: the counter grows by one. */
    long next() {
        value++;
        highestSeen = Math.max(highestSeen, value);
        drain();
        return value;
    }

    /** A broadcast DATA frame carried {@code g}; returns true if it opened or left a gap. */
    boolean onOriginal(long g) {
        highestSeen = Math.max(highestSeen, g);
        if (g <= value) {
            return false;
        }
        if (g == value + 1) {
            value = g;
            drain();
        } else {
            pendingOriginals.add(g);
        }
        return hasGap();
    }

    /** A STATUS, NACK or point-to-point frame carried {@code g}. */
    boolean onNonOriginal(long g) {
        highestSeen = Math.max(highestSeen, g);
        return hasGap();
    }

    private void drain() {
        Long first;
        while ((first = pendingOriginals.isEmpty() ? null : pendingOriginals.first()) != null && first <= value + 1) {
            pendingOriginals.pollFirst();
            if (first == value + 1) {
                value = first;
            }
        }
    }

    /** Whether some counter between {@link #value()} and {@link #highestSeen()} has not arrived. */
    boolean hasGap() {
        return highestSeen > value;
    }

    /** The lowest missing counter (valid when {@link #hasGap()}). */
    long gapFrom() {
        return value + 1;
    }

    /** The highest counter of the first missing run (valid when {@link #hasGap()}). */
    long gapTo() {
        return pendingOriginals.isEmpty() ? highestSeen : pendingOriginals.first() - 1;
    }
}

package io.cohort.comm;

import java.util.ArrayList;
import java.util.List;

/**
 * One peer's supply of communicator contexts, the agreements on them in flight, and the list of
 * the communicators it made.
 *
 * <p>A communicator owns three contexts, {@code c} for point-to-point, {@code c + 1} for its
 * housekeeping and {@code c + 2} for its collectives; the world has 0 to 2. Contexts are never
 * reused: every one this peer took is below {@link #next}. A new communicator's {@code c} is agreed
 * by the members that make it (its parent's, or a group's for {@code createGroup}): each
 * {@link #begin begins} a {@link Creation}, which proposes {@code next}, and all take the largest
 * proposal. Since every member proposed, no member has used {@code c}, so two communicators that
 * share a peer never share a context; communicators with disjoint members may, harmlessly.
 *
 * <p>That holds while a peer makes one communicator at a time. Threads of one peer may make
 * communicators from different parents at once (MPI's {@code THREAD_MULTIPLE}), and then two of
 * them could agree the same proposal. So a creation that finds another in flight at one of its
 * members, when it begins there, is <em>checked</em>: each member {@link #claim claims} the agreed
 * context, which fails if this peer has taken it (or anything above it) meanwhile, and the members
 * agree again above it until every member's claim held. A creation that found none at any member
 * takes the agreed context without a second round ({@link #take}), the common case, one exchange as
 * before: no other creation can take a context at its members before it does, because every one
 * begun meanwhile is checked and its claims fail while an unchecked one is in flight. Among checked
 * creations, a claim also fails while one with a smaller {@linkplain Creation#priority priority}
 * is in flight at the peer, so the one with the smallest priority always gets through: no two
 * creations can keep defeating each other's claims. Contexts claimed by a round that failed
 * elsewhere are skipped, not returned.
 *
 * <p>Contexts from {@link #FIRST_RESERVED} up belong to system services (DECK's naming and group
 * service), never to a communicator.
 *
 * <p>Threads: any; synchronized.
 */
public final class ContextAllocator {
    /** The first context a communicator may never have; services above it are out of reach of user traffic. */
    public static final int FIRST_RESERVED = Integer.MAX_VALUE - 15;

    /** Contexts per communicator. */
    static final int STRIDE = 3;
    /** Every context below it is taken (or skipped); a communicator's context is {@code next} or above. */
    private int next = STRIDE;
    private final List<Creation> inFlight = new ArrayList<>();
    private final List<EngineCommunicator> made = new ArrayList<>();

    /**
     * One communicator being agreed at this peer. {@code priority} orders checked creations:
     * unique among the creations one peer may run at once (the parent's context, and the tag of
     * a {@code createGroup}), and the same at every member.
     */
    static final class Creation {
        final long priority;
        /** Whether this creation found another in flight here when it began. */
        final boolean sawOthers;
        /** This peer's proposal: {@code next} when it began. */
        final int proposal;
        /** Until the first round's outcome is known: whether it could still take its context unchecked. */
        private boolean unchecked;

        private Creation(long priority, boolean sawOthers, int proposal) {
            this.priority = priority;
            this.sawOthers = sawOthers;
            this.proposal = proposal;
            this.unchecked = !sawOthers;
        }
    }

    /** Starts a creation of priority {@code priority} at this peer; {@link #end} must follow, also on failure. */
    synchronized Creation begin(long priority) {
        Creation c = new Creation(priority, !inFlight.isEmpty(), next);
        inFlight.add(c);
        return c;
    }

    /**
     * The first round found no member with another creation in flight: takes {@code context},
     * which no other creation can have taken here meanwhile.
     */
    synchronized void take(Creation c, int context) {
        if (context < next) {
            throw new IllegalStateException("context " + context + " was taken while " + c.priority + " was agreed");
        }
        advancePast(context);
        c.unchecked = false;
    }

    /**
     * The first round found another creation in flight at some member: from now on {@code c}'s
     * claims are checked, and it no longer holds up other checked creations' claims as unchecked.
     */
    synchronized void checked(Creation c) {
        c.unchecked = false;
    }

    /**
     * A checked creation's claim of {@code context}: true, and the context taken, when this peer
     * has not taken it or anything above it, no unchecked creation is in flight here, and no
     * checked one of a smaller priority. False leaves everything as it was.
     */
    synchronized boolean claim(Creation c, int context) {
        if (context < next) {
            return false;
        }
        for (Creation o : inFlight) {
            if (o != c && (o.unchecked || o.priority < c.priority)) {
                return false;
            }
        }
        advancePast(context);
        return true;
    }

    /** What this peer proposes for the round after one that failed at {@code context}. */
    synchronized int proposalAbove(int context) {
        return (int) Math.min(Math.max((long) next, (long) context + STRIDE), FIRST_RESERVED);
    }

    synchronized void end(Creation c) {
        inFlight.remove(c);
    }

    /** Throws unless a communicator may have {@code context}: the same answer at every member, which all agreed it. */
    static void checkRoom(long context) {
        if (context > FIRST_RESERVED - STRIDE) {
            throw new IllegalStateException("no contexts left for another communicator (" + context
                    + " would reach the reserved ones); free communicators that are no longer used");
        }
    }

    /** Takes {@code context} to {@code context + 2}: nothing this peer makes later uses them. */
    private void advancePast(int context) {
        checkRoom(context);
        next = Math.max(next, context + STRIDE);
    }

    synchronized void made(EngineCommunicator c) {
        made.add(c);
    }

    synchronized void closed(EngineCommunicator c) {
        made.remove(c);
    }

    /** The communicators made and not yet closed, newest first (the world closes them before itself). */
    synchronized List<EngineCommunicator> open() {
        List<EngineCommunicator> l = new ArrayList<>(made);
        java.util.Collections.reverse(l);
        return l;
    }
}

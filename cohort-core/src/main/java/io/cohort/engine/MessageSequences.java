package io.cohort.engine;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * Per world peer, how many messages this engine handed to a transport for it and how many it took
 * off the transports from it, over every communicator and context: a message's number in one
 * count is its number in the other at the far end, because transports are FIFO per ordered pair.
 * The profiler pairs sends with receives by it ({@code io.cohort.Send} / {@code Receive}
 * {@code sequence}). Counted always, recorded or not, so a recording started at any moment gets
 * numbers both ends agree on.
 *
 * <p>Threads: any. Concurrent senders to one peer each get a distinct number; which of two racing
 * sends gets the lower one may differ from the order in which the transport queued them.
 */
final class MessageSequences {
    /** Field updaters, not VarHandles: no method-handle linking at a peer's start-up (see CasLock). */
    private static final AtomicLongFieldUpdater<Peer> SENT = AtomicLongFieldUpdater.newUpdater(Peer.class, "sent");
    private static final AtomicLongFieldUpdater<Peer> ARRIVED = AtomicLongFieldUpdater.newUpdater(Peer.class, "arrived");

    private static final class Peer {
        volatile long sent;
        volatile long arrived;
    }

    private final Peer[] peers;

    MessageSequences(int size) {
        peers = new Peer[size];
        for (int i = 0; i < size; i++) {
            peers[i] = new Peer();
        }
    }

    /** The number of the message now handed over for {@code peer}, from 0. */
    long nextSent(int peer) {
        return SENT.getAndIncrement(peers[peer]);
    }

    /** The number of the message now taken off a transport from {@code peer}, from 0. */
    long nextArrival(int peer) {
        return ARRIVED.getAndIncrement(peers[peer]);
    }
}

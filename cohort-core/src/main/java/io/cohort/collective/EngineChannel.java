package io.cohort.collective;

import io.cohort.BroadcastDomain;
import io.cohort.Request;
import io.cohort.engine.ProgressEngine;
import io.cohort.engine.TranslatedRequest;
import io.cohort.transport.shm.ShmTransport;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A {@link CollectiveChannel} over a {@link ProgressEngine}: messages on one engine context,
 * communicator ranks translated to engine ranks through {@code worldRanks} (identity for the
 * world) and back for the sources of received messages.
 *
 * <p>Threads: like the engine, any thread.
 */
public final class EngineChannel implements CollectiveChannel {
    private final ProgressEngine engine;
    private final int context;
    private final int[] worldRanks;
    private final int rank;
    private final Supplier<BroadcastDomain> domain;

    /**
     * @param engine     the peer's engine ({@code EngineCommunicator.engine()})
     * @param context    the communicator's private collective context
     * @param worldRanks communicator rank to engine rank
     * @param rank       the caller's communicator rank
     * @param domain     opens or returns the communicator's broadcast domain
     */
    public EngineChannel(ProgressEngine engine, int context, int[] worldRanks, int rank, Supplier<BroadcastDomain> domain) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.context = context;
        this.worldRanks = worldRanks.clone();
        this.rank = rank;
        this.domain = Objects.requireNonNull(domain, "domain");
        if (rank < 0 || rank >= worldRanks.length) {
            throw new IllegalArgumentException("rank " + rank + " is outside a communicator of " + worldRanks.length);
        }
        if (worldRanks[rank] != engine.rank()) {
            throw new IllegalArgumentException("communicator rank " + rank + " maps to engine rank " + worldRanks[rank]
                    + ", but this engine is rank " + engine.rank());
        }
    }

    /** The channel of a world communicator: identity ranks. */
    public static EngineChannel world(ProgressEngine engine, int context, Supplier<BroadcastDomain> domain) {
        int[] identity = new int[engine.size()];
        for (int i = 0; i < identity.length; i++) {
            identity[i] = i;
        }
        return new EngineChannel(engine, context, identity, engine.rank(), domain);
    }

    @Override
    public boolean sharedMemoryOnly() {
        for (int r = 0; r < worldRanks.length; r++) {
            if (r != rank && !"shm".equals(engine.transportName(worldRanks[r]))) {
                return false;
            }
        }
        return worldRanks.length > 1;
    }

    @Override
    public SharedSegment createSharedSegment(long nonce, int areaBytes) throws java.io.IOException {
        ShmTransport shm = sharedMemory();
        return shm == null ? null : new EngineSharedSegment(
                shm.createCollectiveSegment(segmentName(nonce), worldRanks.length, rank, areaBytes, context), engine, worldRanks);
    }

    @Override
    public SharedSegment openSharedSegment(long nonce) throws java.io.IOException {
        ShmTransport shm = sharedMemory();
        return shm == null ? null : new EngineSharedSegment(
                shm.openCollectiveSegment(segmentName(nonce), worldRanks.length, rank, context), engine, worldRanks);
    }

    /**
     * Its context, the nonce, and the world rank of its maker (rank 0) last: the io-manager removes a
     * killed job's files by the rank they end in, as it does the rings of its peers.
     */
    private String segmentName(long nonce) {
        return context + "-" + Long.toHexString(nonce) + "-" + worldRanks[0];
    }

    /** The shared-memory transport that reaches every other member, or null where one is not so reached. */
    private ShmTransport sharedMemory() {
        ShmTransport shm = null;
        for (int r = 0; r < worldRanks.length; r++) {
            if (r == rank) {
                continue;
            }
            if (!(engine.transportTo(worldRanks[r]) instanceof ShmTransport t) || (shm != null && shm != t)) {
                return null;
            }
            shm = t;
        }
        return shm;
    }

    @Override
    public boolean anyPeerOverNetwork() {
        for (int r = 0; r < worldRanks.length; r++) {
            String t = engine.transportName(worldRanks[r]);
            if (r != rank && ("tcp".equals(t) || "udp".equals(t))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean peersOutnumberCores() {
        return engine.placement().peersOutnumberCores(worldRanks);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return worldRanks.length;
    }

    private int toEngine(int commRank) {
        if (commRank < 0 || commRank >= worldRanks.length) {
            throw new IllegalArgumentException("rank " + commRank + " does not exist; ranks are 0 to " + (worldRanks.length - 1));
        }
        return worldRanks[commRank];
    }

    @Override
    public Request isend(int dest, int tag, ByteBuffer payload) {
        return engine.send(toEngine(dest), context, tag, payload);
    }

    @Override
    public Request irecv(int source, int tag) {
        Request r = engine.receive(context, toEngine(source), tag, null);
        return worldRanks[source] == source ? r : new TranslatedRequest(r, engineRank -> source);
    }

    @Override
    public Request isend(int dest, int tag, ByteBuffer payload, int offset, int length) {
        return engine.send(toEngine(dest), context, tag, payload, offset, length);
    }

    @Override
    public Request irecv(int source, int tag, ByteBuffer buffer, int offset, int capacity) {
        Request r = engine.receive(context, toEngine(source), tag, buffer, offset, capacity, false);
        return worldRanks[source] == source ? r : new TranslatedRequest(r, engineRank -> source);
    }

    @Override
    public BroadcastDomain domain() {
        return domain.get();
    }

    @Override
    public String toString() {
        return "EngineChannel[rank " + rank + " of " + size() + ", context " + context + "]";
    }
}

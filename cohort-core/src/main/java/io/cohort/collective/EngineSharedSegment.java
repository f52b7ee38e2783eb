package io.cohort.collective;

import io.cohort.CohortException;
import io.cohort.PeerFailedException;
import io.cohort.engine.ProgressEngine;
import io.cohort.stacks.PeerWait;
import io.cohort.stacks.PeerWaits;
import io.cohort.transport.shm.ShmCollectiveSegment;

import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/**
 * A {@link SharedSegment} over a {@link ShmCollectiveSegment}, waiting through the peer's
 * {@link ProgressEngine}: a wait polls the transports and idles as any wait of the peer does (spin,
 * yield, then sleep on the shared-memory doorbell, which an arrival rings), and ends with the
 * engine's failure where the member it waits for failed or closed its world.
 *
 * <p>Threads: the thread running the communicator's collective; the readiness check it hands the
 * segment is asked by the peer's progress owner, which may be another thread.
 */
final class EngineSharedSegment implements SharedSegment {
    private final ShmCollectiveSegment segment;
    private final ProgressEngine engine;
    private final int[] worldRanks;

    EngineSharedSegment(ShmCollectiveSegment segment, ProgressEngine engine, int[] worldRanks) {
        this.segment = segment;
        this.engine = engine;
        this.worldRanks = worldRanks;
    }

    @Override
    public int areaBytes() {
        return segment.areaBytes();
    }

    @Override
    public ByteBuffer slot(int rank) {
        return segment.slot(rank);
    }

    @Override
    public ByteBuffer area(int area) {
        return segment.area(area);
    }

    @Override
    public void header(int area, long value) {
        segment.header(area, value);
    }

    @Override
    public long header(int rank, int area) {
        return segment.header(rank, area);
    }

    @Override
    public void arrive(long phase) {
        segment.arrive(phase);
    }

    @Override
    public void abandon() {
        segment.abandon();
    }

    @Override
    public void await(int rank, long phase) {
        if (segment.phase(rank) < phase) {
            waitFor(rank, rank + 1, phase);
        }
    }

    @Override
    public void awaitAll(long phase) {
        for (int r = 0; r < worldRanks.length; r++) {
            if (segment.phase(r) < phase) {
                waitFor(r, worldRanks.length, phase);
                return;
            }
        }
    }

    private void waitFor(int from, int to, long phase) {
        Wait w = new Wait(from, to, phase);
        segment.waiting(w::over);
        try {
            engine.awaitCondition(w);
        } finally {
            segment.waiting(null);
            if (w.slot != null) {
                w.slot.clear();
            }
        }
    }

    /** Members {@code [next, to)} still to reach the phase, met in rank order. */
    private final class Wait implements BooleanSupplier {
        private final int to;
        private final long phase;
        private volatile int next;
        private PeerWaits.Slot slot;
        private int shown = -1;

        Wait(int from, int to, long phase) {
            this.next = from;
            this.to = to;
            this.phase = phase;
        }

        /** The waiting thread: true once all are there; throws where one never will be. */
        @Override
        public boolean getAsBoolean() {
            int r = next;
            while (r < to) {
                long p = segment.phase(r);
                if (p >= phase) {
                    next = ++r;
                    continue;
                }
                if (segment.abandoned(r)) {
                    if (segment.phase(r) >= phase) {
                        continue; // it got there before it gave up
                    }
                    throw cause(r);
                }
                CohortException gone = gone(r);
                if (gone == null) {
                    show(r);
                    return false;
                }
                throw gone;
            }
            return true;
        }

        /** Why member {@code r}, which has not finished the phase, never will; null while it still may. */
        private CohortException gone(int r) {
            CohortException gone = engine.waitFailure(worldRanks[r]);
            // Its last arrival came before its end: look once more now that the end is known.
            return gone == null || segment.phase(r) >= phase ? null : gone;
        }

        /**
         * Member {@code r} abandoned the collective, so the wait cannot end: names a member that died
         * or left instead, where one did, since that is likely why {@code r} gave up.
         */
        private CohortException cause(int r) {
            for (int q = next; q < to; q++) {
                CohortException gone = segment.phase(q) < phase && !segment.abandoned(q) ? gone(q) : null;
                if (gone != null) {
                    return gone;
                }
            }
            return abandoned(r);
        }

        /** The progress owner, before it sleeps: whether the wait is over either way; no side effects. */
        boolean over() {
            for (int r = next; r < to; r++) {
                if (segment.phase(r) < phase && !segment.abandoned(r) && engine.failure(worldRanks[r]) == null
                        && !engine.peerHasClosed(worldRanks[r])) {
                    return false;
                }
            }
            return true;
        }

        /** For the stacks: the rank this thread waits for now (written only when it changes). */
        private void show(int r) {
            if (r != shown) {
                if (slot == null) {
                    slot = PeerWaits.slot();
                }
                slot.set(new PeerWait(PeerWait.PHASE, worldRanks[r], -1, -1));
                shown = r;
            }
        }
    }

    private PeerFailedException abandoned(int rank) {
        String world = worldRanks[rank] == rank ? "" : " (world rank " + worldRanks[rank] + ")";
        return new PeerFailedException(worldRanks[rank], "rank " + rank + world + " left this collective with an error"
                + " (its own report says which), so the others cannot finish it");
    }

    @Override
    public void setUpComplete() {
        segment.setUpComplete();
    }

    @Override
    public void unlink() {
        segment.unlink();
    }

    @Override
    public void close() {
        segment.close();
    }
}

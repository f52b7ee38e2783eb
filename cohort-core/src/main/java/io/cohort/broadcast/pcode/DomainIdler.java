package io.cohort.broadcast.pcode;

import io.cohort.transport.fault.DatagramPort;

import java.io.IOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.locks.LockSupport;

/**
 * How the calling thread waits inside a call: {@code cohort.bcast.spins} spins and
 * {@code cohort.bcast.yields} yields (none by default: measured best when peers share cores), then a
 * block in a selector on the domain's sockets, bounded by the next protocol timer, so the kernel wakes it the moment a datagram arrives and 8 peers on 2 cores stay
 * polite. Ports without a channel (the in-memory medium) park briefly instead.
 *
 * <p>Threads: the domain's one calling thread.
 */
final class DomainIdler {
    static final long PARK_NANOS = 50_000;
    /** Waits longer than this block in the selector; shorter ones park. */
    static final long SELECT_MIN_NANOS = 200_000;
    private final Selector selector;
    private final int spins;
    private final int yields;
    private int idles;

    /** Spins {@code spins} polls, yields {@code yields}, then blocks. */
    DomainIdler(DatagramPort[] ports, int spins, int yields) {
        this.spins = spins;
        this.yields = yields;
        Selector s = null;
        try {
            boolean all = true;
            for (DatagramPort p : ports) {
                all &= p.channel() != null;
            }
            if (all) {
                s = Selector.open();
                for (DatagramPort p : ports) {
                    SelectableChannel c = p.channel();
                    c.register(s, SelectionKey.OP_READ);
                }
            }
        } catch (IOException | RuntimeException e) {
            if (s != null) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // a selector that never worked has nothing to release
                }
            }
            s = null; // parking still works, only with more latency
        }
        selector = s;
    }

    void reset() {
        idles = 0;
    }

    /** Waits a little; never past {@code dueNanos} (a {@link System#nanoTime()} instant). */
    void idle(long dueNanos) {
        idles++;
        if (idles <= spins) {
            Thread.onSpinWait();
            return;
        }
        if (idles <= spins + yields) {
            Thread.yield();
            return;
        }
        long wait = Math.min(dueNanos - System.nanoTime(), 10_000_000L);
        if (wait <= 0) {
            return;
        }
        if (selector != null && wait > SELECT_MIN_NANOS) {
            try {
                // Millisecond granularity: a timer may fire up to 1 ms late, but an arriving
                // datagram wakes the caller at once, which a 50 us park loop would not do cheaply.
                selector.select(Math.max(1, wait / 1_000_000L));
                selector.selectedKeys().clear();
                return;
            } catch (IOException | RuntimeException e) {
                // fall through to a park
            }
        }
        LockSupport.parkNanos(Math.min(wait, PARK_NANOS));
    }

    void close() {
        if (selector != null) {
            try {
                selector.close();
            } catch (IOException ignored) {
                // nothing to flush
            }
        }
    }
}
